#!/usr/bin/env python3
"""The item-analysis picture of the instructors' page, from a synthetic class: the real tasks and points of modules 01
and 02 (read from solutions/), 60 simulated learners whose chance to pass a test follows their ability and the test's
difficulty (a seeded logistic model, with one test that nobody solves and one that is a coin toss, to show what the
picture says about them). It writes the synthetic gradebook into a temporary folder and runs `autograder stats` on it.

  python scripts/item_analysis_demo.py [--out course/figures/item-analysis.png] [--keep DIR]
"""
from __future__ import annotations
import argparse, json, math, random, shutil, sys, tempfile
from pathlib import Path
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from autograder.core.assemble import read_notebook
from autograder.core.cells import grade_id, is_test, points, task_titles
from autograder.core.course import notebook_path
from autograder.classroom.gradebook import rebuild
from autograder.classroom.stats import stats
from autograder.core.results import ModuleStatus, TestStatus

MODULES = ["01_tensor_basics", "02_op_types"]

def tests_of(module:str) -> list[tuple[str, str, float]]:
  nb = read_notebook(notebook_path(REPO / "solutions", module))
  titles = task_titles(nb)
  return [(grade_id(c), titles.get(i, ""), points(c)) for i, c in enumerate(nb.cells) if is_test(c)]

def synthetic_class(folder:Path, learners:int=60, seed:int=20):
  rng = random.Random(seed)
  tests = {m: tests_of(m) for m in MODULES}
  difficulty = {(m, t[0]): rng.uniform(-1.5, 1.5) for m in MODULES for t in tests[m]}
  last = {m: tests[m][-1][0] for m in MODULES}
  coin = {m: tests[m][len(tests[m]) // 2][0] for m in MODULES}
  for i in range(learners):
    ability = rng.gauss(0.3, 1.2)
    modules = []
    for m in MODULES:
      results = []
      for test, task, pts in tests[m]:
        if test == last["01_tensor_basics"] and m == "01_tensor_basics": p = 0.0          # nobody solves it
        elif test == coin[m]: p = 0.5                                                    # unrelated to ability
        else: p = 1 / (1 + math.exp(-(2.2 * (ability - difficulty[(m, test)]))))
        passed = rng.random() < p
        results.append({"id": test, "task": task, "status": TestStatus.PASSED if passed else TestStatus.FAILED, "score": float(pts) if passed else 0.0,
                        "max_score": float(pts), "message": "" if passed else rng.choice(["wrong value", "wrong shape", "kernel count differs"])})
      modules.append({"module": m, "status": ModuleStatus.GRADED, "message": "", "flags": [], "seconds": 0, "tests": results,
                      "score": sum(r["score"] for r in results), "max_score": sum(r["max_score"] for r in results)})
    name = f"learner{i:02d}"
    (folder / "feedback" / name).mkdir(parents=True)
    (folder / "feedback" / name / "report.json").write_text(json.dumps({"modules": modules, "score": 0, "max_score": 0}))
  rebuild(folder)

if __name__ == "__main__":
  ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  ap.add_argument("--out", default=str(REPO / "course" / "figures" / "item-analysis.png"))
  ap.add_argument("--keep", help="also keep the synthetic grading folder here")
  args = ap.parse_args()
  with tempfile.TemporaryDirectory() as tmp:
    folder = Path(args.keep) if args.keep else Path(tmp) / "gradebook"
    folder.mkdir(parents=True, exist_ok=True)
    synthetic_class(folder)
    rows = stats(folder)
    shutil.copyfile(folder / "item-analysis.png", args.out)
  print(f"wrote {args.out}: {len(rows)} tasks")
