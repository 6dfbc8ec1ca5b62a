"""The learner's commands: `autograder check`, `hint` and `progress`."""
from __future__ import annotations
import sys
from pathlib import Path
from autograder.core.course import module_names, notebook_path, resolve

# Each command imports what it runs when it is run: `autograder check` must not load nbgrader, copydetect or tqdm
# (seconds at every start). Start-up time is the only reason for an import inside a function in this package.

def cmd_check(args) -> int:
  from autograder.core.assemble import Unreadable
  from autograder.core.report import write
  from autograder.core.results import ModuleResult, ModuleStatus, Report
  from autograder.learner.selfcheck import self_check, UnknownTask
  from autograder.core.hints import task_name
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
      results.append(ModuleResult(module, ModuleStatus.UNREADABLE, str(e), score=0, max_score=0, seconds=0, passed=False))
    except Exception as e:                                # what a learner's folder holds must never stop the other modules' checks
      print(f"the self-check of {module} failed ({type(e).__name__}: {str(e)[:200]}); the other modules are checked")
      results.append(ModuleResult(module, ModuleStatus.ERROR, f"the self-check failed ({type(e).__name__})", score=0, max_score=0, seconds=0, passed=False))
  write(Report.of(results), args.json, args.markdown)
  return 0 if args.exit_zero or all(m.passed for m in results) else 1

def cmd_hint(args) -> int:
  from autograder.core.hints import next_hint, released_hints, task_name
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
  from autograder.learner.progress import progress
  print(progress(Path(args.projects), resolve(args.modules, module_names(Path(args.projects)))))
  return 0

def add_commands(sub, root):
  """Register the learner's commands on the `autograder` parser's subparsers; `root(name)` finds solutions/ or projects/."""
  c = sub.add_parser("check", help="run the visible tests of one of your notebooks and say what to look at")
  c.add_argument("modules", nargs="*", help="module numbers or folder names, e.g. 01 or 01_tensor_basics (default: all)")
  c.add_argument("--projects", default=root("projects"))
  c.add_argument("--json", help="write the results as JSON here"); c.add_argument("--markdown", help="write a per-module, per-task table here")
  c.add_argument("--exit-zero", action="store_true", help="exit 0 even when checks fail (CI: fail only when the checker broke)")
  c.add_argument("--task", help="check one task only, e.g. 3.2: its tests and the cells they need (one module)")
  c.set_defaults(fn=cmd_check)
  h = sub.add_parser("hint", help="show a task's next hint, e.g. `autograder hint 05 3.2` (asking again shows the next)")
  h.add_argument("module", help="module number or folder name"); h.add_argument("task", nargs="+", help="3.2 or 'Task 3.2'")
  h.add_argument("--projects", default=root("projects"))
  h.set_defaults(fn=cmd_hint)
  pr = sub.add_parser("progress", help="every module's last self-check at a glance (runs nothing)")
  pr.add_argument("modules", nargs="*", help="module numbers or folder names (default: all)")
  pr.add_argument("--projects", default=root("projects"))
  pr.set_defaults(fn=cmd_progress)
