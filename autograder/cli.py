"""The `autograder` command: release, check, hint, progress, grade, grade-all, merge, stats, export-grades, similarity,
fetch, export-student, lint, mutants, doctor."""
from __future__ import annotations
import argparse, os, sys
# jsonschema (which nbformat imports) loads rfc3987_syntax when it is installed, for its "iri" format, and that compiles
# a grammar at import: seconds on every command. Notebook schemas use no such format.
sys.modules.setdefault("rfc3987_syntax", None)
from pathlib import Path
from autograder.course import REPO, UnknownModule, module_names, notebook_path, resolve

def _root(name:str) -> Path:
  """`solutions`/`projects` of the current folder, else of this repository."""
  return Path(name) if Path(name).is_dir() else REPO / name

def cmd_release(args) -> int:
  from autograder.release import release, differences
  source, target = Path(args.source), Path(args.target)
  modules = resolve(args.modules, module_names(source))
  if args.check:
    diff = differences(modules, source, target)
    for line in diff: print(f"out of date: {target}/{line}")
    print("projects/ is what release writes" if not diff else f"{len(diff)} file(s) differ: run `autograder release`")
    return 1 if diff else 0
  release(modules, source, target)
  print(f"released {len(modules)} module(s) to {target}/: {', '.join(modules)}")
  return 0

def cmd_check(args) -> int:
  from autograder.assemble import Unreadable
  from autograder.report import write
  from autograder.selfcheck import self_check, UnknownTask
  from autograder.hints import task_name
  projects = Path(args.projects)
  results = []
  modules = resolve(args.modules, module_names(projects))
  task = task_name(args.task) if args.task else None
  if args.task and (task is None or len(modules) != 1):
    print("autograder: --task takes one module and a task such as 3.2 or 'Task 3.2'", file=sys.stderr); return 2
  for module in modules:
    path = notebook_path(projects, module)
    print(f"checking {path}" + (f", {task} only" if task else "") + " (visible tests only; grading also runs hidden ones)")
    try: results.append(self_check(path, task=task))
    except UnknownTask as e:
      print(f"autograder: {e}", file=sys.stderr); return 2
    except Unreadable as e:
      print(f"cannot read {path}: {e}")
      results.append({"module": module, "status": "unreadable", "message": str(e), "score": 0, "max_score": 0, "seconds": 0, "tests": [], "passed": False})
  write({"score": sum(m["score"] for m in results), "max_score": sum(m["max_score"] for m in results), "modules": results}, args.json, args.markdown)
  return 0 if args.exit_zero or all(m["passed"] for m in results) else 1

def cmd_hint(args) -> int:
  from autograder.hints import next_hint, released_hints, task_name
  projects = Path(args.projects)
  module = resolve([args.module], module_names(projects))[0]
  folder = projects / module
  hints, task = released_hints(folder), task_name(" ".join(args.task))
  if not hints:
    print(f"{module} has no hints (no {folder.name}/hints.b64): its tasks' docstrings and the course page are the help there is"); return 1
  if task not in hints:
    print(f"no hints for {' '.join(args.task)!r} in {module}; tasks with hints: {', '.join(t.removeprefix('Task ') for t in hints)}"); return 1
  level, levels = next_hint(folder, task)
  last = " (the last one: it is close to the method)" if level == len(levels) else f" (ask again for the next; {len(levels)} in all)"
  print(f"{module}, {task}: hint {level} of {len(levels)}{last}\n")
  print(levels[level - 1])
  return 0

def cmd_progress(args) -> int:
  from autograder.progress import progress
  print(progress(Path(args.projects), resolve(args.modules, module_names(Path(args.projects)))))
  return 0

def cmd_grade(args) -> int:
  from tqdm import tqdm
  from autograder.grade import grade
  from autograder.report import table, write
  source, submission = Path(args.source), Path(args.submission)
  modules = resolve(args.modules, module_names(source))
  bar = tqdm(total=len(modules), desc="grading", unit="module", file=sys.stderr, disable=True if args.quiet else None)
  def cell(done, total): bar.set_postfix_str(f"{modules[bar.n]}: cell {done}/{total}")
  def module(m): bar.set_postfix_str(f"{m['module']}: {m['score']:g}/{m['max_score']:g}"); bar.update()
  report = grade(modules, source, submission, on_module=module, on_cell=cell)
  bar.close()
  if not args.quiet: print(table(report))
  write(report, args.json, args.markdown)
  if args.feedback:
    from autograder.feedback import write as write_feedback
    write_feedback(report, Path(args.feedback))
  return 0

def cmd_grade_all(args) -> int:
  from autograder.classcli import fail, policy_and_overrides, report_overrides
  from autograder.classroom import grade_all
  from autograder.sandbox import available
  from autograder.shard import parse
  source = Path(args.source)
  modules = resolve(args.modules, module_names(source)) if args.modules else []
  try:
    shard = parse(args.shard) if args.shard else None
    policy, overrides = policy_and_overrides(args)
  except ValueError as e: return fail(e)
  if args.require_sandbox and not (usable := available())[0]:
    print(f"autograder: refusing to grade: the sandbox is not available ({usable[1]}), and --require-sandbox was given", file=sys.stderr)
    return 2
  try: done = grade_all(Path(args.submissions), Path(args.out), source, modules, jobs=args.jobs, timeout=args.timeout,
                        shard=shard, reference_only=args.reference_only, policy=policy, overrides=overrides)
  except KeyboardInterrupt: return 130
  except ValueError as e: return fail(e)
  if args.reference_only:
    print(f"reference runs ready for {len(modules or module_names(source))} module(s)"); return 0
  if args.summary:
    from autograder.classroom import summary
    with open(args.summary, "a") as f: f.write(summary(Path(args.out)))
  report_overrides(done["unused_overrides"] if not shard else [], args.overrides)      # a shard sees only its own learners
  print((f"shard {args.shard}: {done['learners']} learner(s); " if shard else "") +
        f"graded {done['graded']} learner(s), kept {done['skipped']} unchanged, in {done['seconds']:.0f} s; "
        f"gradebook: {Path(args.out) / 'gradebook.csv'}, feedback: {Path(args.out) / 'feedback'}/")
  return 0

def cmd_lint(args) -> int:
  from autograder.assemble import read_notebook
  from autograder.cells import grade_id, is_answer, is_test
  from autograder.transform import lint, observes_hidden
  source = Path(args.source)
  bad = 0
  for module in resolve(args.modules, module_names(source)):
    nb = read_notebook(notebook_path(source, module))
    cells = [(grade_id(c) or f"cell {i + 1}", c.source, is_test(c)) for i, c in enumerate(nb.cells) if c.cell_type == "code" and not is_answer(c)]
    problems = lint(cells)
    print(f"{module}: " + ("ok" if not problems else f"{len(problems)} problem(s)"))
    for p in problems: print(f"  {p}")
    for note in observes_hidden(cells): print(f"  note: {note} (graded as hidden; or move it into the hidden region)")
    bad += len(problems)
  return 1 if bad else 0

def cmd_mutants(args) -> int:
  from tqdm import tqdm
  from autograder.mutants import run
  from autograder.mutation_report import text, write
  source, results = Path(args.source), []
  bad = 0
  for module in resolve(args.modules, module_names(source)):
    path = Path(args.dir) / f"{module}.py"
    if not path.is_file() and not args.generated: print(f"{module}: no mutants ({path})"); continue
    with tqdm(desc=module, unit="cell", leave=False, disable=args.quiet) as bar:
      def step(done, total): bar.total = total; bar.n = done; bar.refresh()
      result = run(module, source, path, on_cell=step, generate_mutants=args.generated, max_per_task=args.max_per_task,
                   seed=args.seed, equivalent_file=Path(args.dir) / "equivalent" / f"{module}.txt")
    results.append(result)
    print(text(result), flush=True)
    bad += sum(not m["caught"] for m in result["mutants"] if not m.get("generated")) + len(result["control"])
    if args.json or args.markdown: write(results, args.json, args.markdown)
  return 1 if bad else 0

def cmd_export(args) -> int:
  from autograder.export import export_student
  files = export_student(Path(args.dest))
  size = sum((Path(args.dest) / f).stat().st_size for f in files)
  print(f"wrote the learner repository to {args.dest}: {len(files)} files, {size / 1e6:.1f} MB; no solutions, no hidden tests")
  return 0

def cmd_fetch(args) -> int:
  from autograder.late import load
  from autograder.roster import fetch
  try: got = fetch(Path(args.roster), Path(args.submissions), window_days=load(args.policy).window_days)
  except ValueError as e: print(f"autograder: {e}", file=sys.stderr); return 2
  bad = [k for k, v in got.items() if v.startswith("not fetched")]
  print(f"fetched {len(got) - len(bad)} of {len(got)} learner(s) into {args.submissions}/" + (f"; not fetched: {', '.join(bad)}" if bad else ""))
  return 0

def cmd_doctor(args) -> int:
  from autograder.doctor import doctor
  return 0 if doctor() else 1

def parser() -> argparse.ArgumentParser:
  p = argparse.ArgumentParser(prog="autograder", description="Release, self-check and grade the tinygrad workbook.")
  sub = p.add_subparsers(dest="command", required=True)
  r = sub.add_parser("release", help="write projects/ from solutions/ (nbgrader generate_assignment)")
  r.add_argument("--check", action="store_true", help="only say which files of projects/ differ from a fresh release")
  r.add_argument("--source", default=_root("solutions")); r.add_argument("--target", default=_root("projects"))
  r.add_argument("--modules", nargs="*", help="module numbers or folder names (default: all)")
  r.set_defaults(fn=cmd_release)
  c = sub.add_parser("check", help="run the visible tests of one of your notebooks and say what to look at")
  c.add_argument("modules", nargs="*", help="module numbers or folder names, e.g. 01 or 01_tensor_basics (default: all)")
  c.add_argument("--projects", default=_root("projects"))
  c.add_argument("--json", help="write the results as JSON here"); c.add_argument("--markdown", help="write a per-module, per-task table here")
  c.add_argument("--exit-zero", action="store_true", help="exit 0 even when checks fail (CI: fail only when the checker broke)")
  c.add_argument("--task", help="check one task only, e.g. 3.2: its tests and the cells they need (one module)")
  c.set_defaults(fn=cmd_check)
  h = sub.add_parser("hint", help="show a task's next hint, e.g. `autograder hint 05 3.2` (asking again shows the next)")
  h.add_argument("module", help="module number or folder name"); h.add_argument("task", nargs="+", help="3.2 or 'Task 3.2'")
  h.add_argument("--projects", default=_root("projects"))
  h.set_defaults(fn=cmd_hint)
  pr = sub.add_parser("progress", help="every module's last self-check at a glance (runs nothing)")
  pr.add_argument("modules", nargs="*", help="module numbers or folder names (default: all)")
  pr.add_argument("--projects", default=_root("projects"))
  pr.set_defaults(fn=cmd_progress)
  g = sub.add_parser("grade", help="grade a submission against the hidden tests")
  g.add_argument("submission", nargs="?", default=_root("projects"), help="folder holding NN_name/NN_name.ipynb (default: projects/)")
  g.add_argument("--source", default=_root("solutions"), help="the trusted source notebooks (default: solutions/)")
  g.add_argument("--modules", nargs="*", help="module numbers or folder names (default: all)")
  g.add_argument("--json", help="write the report as JSON here"); g.add_argument("--markdown", help="write the report as Markdown here")
  g.add_argument("--feedback", help="write the learner's feedback (feedback.md, feedback.html) into this folder")
  g.add_argument("--quiet", action="store_true", help="no table, no progress bar")
  g.set_defaults(fn=cmd_grade)
  ga = sub.add_parser("grade-all", help="grade a class: one folder per learner, in parallel, into a gradebook and feedback")
  ga.add_argument("submissions", help="a folder with one folder per learner (a checkout of their repository)")
  ga.add_argument("--out", default="gradebook", help="where the gradebook and the feedback go (default: gradebook/)")
  ga.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) // 2), help="learners graded at the same time")
  ga.add_argument("--source", default=_root("solutions")); ga.add_argument("--modules", nargs="*")
  ga.add_argument("--timeout", type=float, default=3600, help="seconds for one learner, all modules")
  ga.add_argument("--summary", help="also write a Markdown table (learner x module) here, e.g. $GITHUB_STEP_SUMMARY")
  ga.add_argument("--require-sandbox", action="store_true", help="refuse to grade when bubblewrap cannot sandbox the learners' code")
  ga.add_argument("--shard", metavar="K/N", help="grade only shard K of N (learners assigned by a hash of their name); `autograder merge` joins the shards")
  ga.add_argument("--reference-only", action="store_true", help="compute the reference runs (into AUTOGRADER_CACHE) and stop")
  ga.add_argument("--policy", default="grading.toml", help="the late policy ([late] of this file; default: grading.toml if it exists)")
  ga.add_argument("--overrides", default="overrides.csv", help="the instructor's overrides, applied after grading (default: overrides.csv if it exists)")
  ga.set_defaults(fn=cmd_grade_all)
  li = sub.add_parser("lint", help="find oracle parts that a learner's run would still need (authors)")
  li.add_argument("modules", nargs="*", help="module numbers or folder names (default: all)")
  li.add_argument("--source", default=_root("solutions"))
  li.set_defaults(fn=cmd_lint)
  mu = sub.add_parser("mutants", help="grade wrong variants of the reference answers: each must lose points (authors)")
  mu.add_argument("modules", nargs="*", help="module numbers or folder names (default: all with a mutants file)")
  mu.add_argument("--source", default=_root("solutions")); mu.add_argument("--dir", default=str(REPO / "tests" / "mutants"))
  mu.add_argument("--generated", action="store_true", help="also grade mutants generated from the reference answers (a score per task)")
  mu.add_argument("--max-per-task", type=int, help="at most this many generated mutants per task (a seeded sample)")
  mu.add_argument("--seed", type=int, default=0, help="the seed of that sample (default 0)")
  mu.add_argument("--json", help="write the results as JSON here"); mu.add_argument("--markdown", help="write the per-task report here")
  mu.add_argument("--quiet", action="store_true", help="no progress bar")
  mu.set_defaults(fn=cmd_mutants)
  ex = sub.add_parser("export-student", help="write the learner repository (no solutions, no hidden tests) into DEST")
  ex.add_argument("dest"); ex.set_defaults(fn=cmd_export)
  fe = sub.add_parser("fetch", help="check out each learner of a roster at their last commit before the deadline")
  fe.add_argument("roster", help="CSV: learner, repository, ref, deadline (and optional columns: see autograder/roster.py)"); fe.add_argument("submissions", help="folder to fill, one folder per learner")
  fe.add_argument("--policy", default="grading.toml", help="the late policy: commits up to its window_days after the due time are fetched")
  fe.set_defaults(fn=cmd_fetch)
  from autograder.classcli import add_commands
  add_commands(sub, _root)
  d = sub.add_parser("doctor", help="versions, clang, tinygrad devices, and how to fix what is missing")
  d.set_defaults(fn=cmd_doctor)
  return p

def main(argv:list[str]|None=None) -> int:
  args = parser().parse_args(argv)
  try: return args.fn(args)
  except UnknownModule as e:
    print(f"autograder: {e}", file=sys.stderr); return 2

if __name__ == "__main__": sys.exit(main())
