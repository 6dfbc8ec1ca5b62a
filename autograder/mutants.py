"""Mutation testing of a module's tests: wrong variants of the reference answers (tests/mutants/NN_name.py), each a
bug a learner plausibly writes, must each lose points. All of a module's mutants run in one kernel: the solution's
answers first, then for each mutant its edit, the tests it must fail, and the solution back again; last, every test
used once more with the solution (a control: it must pass, or the session itself is unsound). Each test is judged
against the reference run, exactly as grading judges it."""
from __future__ import annotations
import copy, runpy, tempfile
from pathlib import Path
from nbformat.v4 import new_code_cell
from autograder.assemble import read_notebook, assemble, prepare_workdir, module_settings, remove_tree
from autograder.cells import grade_id, is_answer, is_test, points
from autograder.course import DATA, notebook_path
from autograder.execute import limits, run_notebook, run_parent
from autograder.grade import reference, tinygrad_cache, _copy_db
from autograder.sandbox import provide_package
from autograder.transform import prepare
from autograder.verdict import judge, outcome

def load(path:Path) -> list[dict]:
  return list(runpy.run_path(str(path))["MUTANTS"])

def task_tests(source, target:str) -> list[str]:
  """The test cells that follow answer cell `target`, up to the next answer cell."""
  ids, on = [], False
  for c in source.cells:
    if is_answer(c): on = grade_id(c) == target
    elif on and is_test(c): ids.append(grade_id(c))
  return ids

def _file_cell(name:str, text:str):
  return new_code_cell(f"import pathlib as __p, sys as __s, importlib as __i\n__p.Path({name!r}).write_text({text!r})\n"
                       f"__s.modules.pop({Path(name).stem!r}, None); __i.invalidate_caches()")

def session(source, source_dir:Path, mutants:list[dict]):
  """The notebook of a mutation session, and [(mutant index or None for the control, test id, cell index)]."""
  base = prepare(assemble(source, source), learner=True)
  answers = {grade_id(c): c.source for c in source.cells if is_answer(c)}
  tests = {grade_id(c): c for c in base.cells if is_test(c)}
  files = {p.name: p.read_text() for p in source_dir.iterdir() if p.is_file() and p.suffix == ".py"}
  cells = [c for c in base.cells if not is_test(c)]
  where, used = [], []
  def restore(target):
    return new_code_cell(answers[target]) if target in answers else _file_cell(target, files[target])
  for n, m in enumerate(mutants):
    target = m["target"]
    text = answers.get(target, files.get(target))
    if text is None or m["old"] not in text: raise ValueError(f"mutant {m['name']!r}: {m['old']!r} is not in {target}")
    mutated = text.replace(m["old"], m["new"])
    cells.append(new_code_cell(mutated) if target in answers else _file_cell(target, mutated))
    for tid in m.get("tests") or task_tests(source, target):
      where.append((n, tid, len(cells))); cells.append(copy.deepcopy(tests[tid]))
      if tid not in used: used.append(tid)
    cells.append(restore(target))
  for tid in used: where.append((None, tid, len(cells))); cells.append(copy.deepcopy(tests[tid]))
  nb = copy.deepcopy(base); nb.cells = cells
  return nb, where

def run(module:str, source_root:Path, mutants_file:Path, on_cell=None) -> dict:
  """{"mutants": [{"name", "caught", "tests": {id: status}, "message"}], "control": [problems], "seconds"}."""
  import time
  start = time.monotonic()
  source = read_notebook(notebook_path(source_root, module))
  mutants = load(mutants_file)
  ref = reference(module, source_root)
  nb, where = session(source, Path(source_root) / module, mutants)
  cell_limit, limit = limits(source)
  with tempfile.TemporaryDirectory(prefix=f"mutants-{module}-", dir=run_parent()) as tmp:
    workdir = Path(tmp) / module
    prepare_workdir(Path(source_root) / module, Path(source_root) / module, workdir, module_settings(source).get("learner_files", []))
    _copy_db(Path(ref["db"]) if ref.get("db") and Path(ref["db"]).is_file() else tinygrad_cache(), Path(tmp) / "cache.db")
    provide_package(Path(tmp), sandboxed=False)
    r = run_notebook(nb, workdir, cell_limit, limit * (2 + len(mutants)), on_cell=on_cell, run_dir=Path(tmp),
                     env={"CACHEDB": str(Path(tmp) / "cache.db"), "WORKBOOK_DATA": str(DATA)})
    remove_tree(workdir)
  points_of = {grade_id(c): points(c) for c in source.cells if is_test(c)}
  results = [{"name": m["name"], "caught": False, "tests": {}, "message": ""} for m in mutants]
  control = []
  for n, tid, i in where:
    verdict = judge({"id": tid, "max_score": points_of[tid]}, ref["tests"][tid], outcome(nb.cells[i], i, r), r.message)
    if n is None:
      if verdict["status"] != "passed": control.append(f"{tid} with the solution: {verdict['status']}: {verdict['message']}")
      continue
    results[n]["tests"][tid] = verdict["status"]
    if verdict["status"] != "passed" and not results[n]["caught"]: results[n].update(caught=True, message=f"{tid}: {verdict['message']}")
  return {"mutants": results, "control": control, "status": r.status, "seconds": round(time.monotonic() - start, 1)}
