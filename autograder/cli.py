"""The `autograder` command: release, check, grade, lint, doctor."""
from __future__ import annotations
import argparse, sys
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
  from autograder.selfcheck import self_check
  projects = Path(args.projects)
  module = resolve([args.module], module_names(projects))[0]
  path = notebook_path(projects, module)
  print(f"checking {path} (visible tests only; grading also runs hidden ones)")
  try: return 0 if self_check(path) else 1
  except Unreadable as e:
    print(f"cannot read {path}: {e}"); return 1

def cmd_grade(args) -> int:
  from tqdm import tqdm
  from autograder.grade import grade
  from autograder.report import table, write
  source, submission = Path(args.source), Path(args.submission)
  modules = resolve(args.modules, module_names(source))
  bar = tqdm(total=len(modules), desc="grading", unit="module", file=sys.stderr, disable=None)
  def cell(done, total): bar.set_postfix_str(f"{modules[bar.n]}: cell {done}/{total}")
  def module(m): bar.set_postfix_str(f"{m['module']}: {m['score']:g}/{m['max_score']:g}"); bar.update()
  report = grade(modules, source, submission, on_module=module, on_cell=cell)
  bar.close()
  print(table(report))
  write(report, args.json, args.markdown)
  return 0

def cmd_lint(args) -> int:
  from autograder.assemble import read_notebook
  from autograder.cells import grade_id, is_answer, is_test
  from autograder.transform import lint
  source = Path(args.source)
  bad = 0
  for module in resolve(args.modules, module_names(source)):
    nb = read_notebook(notebook_path(source, module))
    problems = lint([(grade_id(c) or f"cell {i + 1}", c.source, is_test(c)) for i, c in enumerate(nb.cells)
                     if c.cell_type == "code" and not is_answer(c)])
    print(f"{module}: " + ("ok" if not problems else f"{len(problems)} problem(s)"))
    for p in problems: print(f"  {p}")
    bad += len(problems)
  return 1 if bad else 0

def cmd_mutants(args) -> int:
  from autograder.mutants import run
  source = Path(args.source)
  bad = 0
  for module in resolve(args.modules, module_names(source)):
    path = Path(args.dir) / f"{module}.py"
    if not path.is_file(): print(f"{module}: no mutants ({path})"); continue
    result = run(module, source, path)
    caught = sum(m["caught"] for m in result["mutants"])
    print(f"{module}: {caught} of {len(result['mutants'])} mutants lose points ({result['seconds']:.0f} s)")
    for m in result["mutants"]: print(f"  {'caught  ' if m['caught'] else 'SURVIVED'} {m['name']}" + (f": {m['message']}" if m["caught"] else ""))
    for line in result["control"]: print(f"  CONTROL FAILED: {line}")
    bad += len(result["mutants"]) - caught + len(result["control"])
  return 1 if bad else 0

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
  c.add_argument("module", help="module number or folder name, e.g. 01 or 01_tensor_basics")
  c.add_argument("--projects", default=_root("projects"))
  c.set_defaults(fn=cmd_check)
  g = sub.add_parser("grade", help="grade a submission against the hidden tests")
  g.add_argument("submission", nargs="?", default=_root("projects"), help="folder holding NN_name/NN_name.ipynb (default: projects/)")
  g.add_argument("--source", default=_root("solutions"), help="the trusted source notebooks (default: solutions/)")
  g.add_argument("--modules", nargs="*", help="module numbers or folder names (default: all)")
  g.add_argument("--json", help="write the report as JSON here"); g.add_argument("--markdown", help="write the report as Markdown here")
  g.set_defaults(fn=cmd_grade)
  li = sub.add_parser("lint", help="find oracle parts that a learner's run would still need (authors)")
  li.add_argument("modules", nargs="*", help="module numbers or folder names (default: all)")
  li.add_argument("--source", default=_root("solutions"))
  li.set_defaults(fn=cmd_lint)
  mu = sub.add_parser("mutants", help="grade wrong variants of the reference answers: each must lose points (authors)")
  mu.add_argument("modules", nargs="*", help="module numbers or folder names (default: all with a mutants file)")
  mu.add_argument("--source", default=_root("solutions")); mu.add_argument("--dir", default=str(REPO / "tests" / "mutants"))
  mu.set_defaults(fn=cmd_mutants)
  d = sub.add_parser("doctor", help="versions, clang, tinygrad devices, and how to fix what is missing")
  d.set_defaults(fn=cmd_doctor)
  return p

def main(argv:list[str]|None=None) -> int:
  args = parser().parse_args(argv)
  try: return args.fn(args)
  except UnknownModule as e:
    print(f"autograder: {e}", file=sys.stderr); return 2

if __name__ == "__main__": sys.exit(main())
