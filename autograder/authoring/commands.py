"""The author's commands: `autograder release`, `lint`, `mutants`, `margins`, `export-student`, `doctor` and `canary`."""
from __future__ import annotations
import sys
from pathlib import Path
from autograder.core.course import REPO

# Each command imports what it runs when it is run: `autograder check` must not load nbgrader, copydetect or tqdm
# (seconds at every start). Start-up time is the only reason for an import inside a function in this package.

def cmd_release(args) -> int:
  from autograder.authoring.release import BadSettings, release, differences
  from autograder.core.module import modules_of
  target = Path(args.target)
  modules = modules_of(Path(args.source), args.modules)
  try:
    if args.check:
      diff = differences(modules, target)
      for line in diff: print(f"out of date: {target}/{line}")
      print("projects/ is what release writes" if not diff else f"{len(diff)} file(s) differ: run `autograder release`")
      return 1 if diff else 0
    release(modules, target)
  except BadSettings as e:
    print(f"autograder: refusing to release: {e}", file=sys.stderr); return 2
  print(f"released {len(modules)} module(s) to {target}/: {', '.join(m.name for m in modules)}")
  return 0

def cmd_lint(args) -> int:
  from autograder.authoring.lint import lint_notebook
  from autograder.core.module import modules_of
  bad = 0
  for module in modules_of(Path(args.source), args.modules):
    problems, notes = lint_notebook(module.notebook)
    print(f"{module.name}: " + ("ok" if not problems else f"{len(problems)} problem(s)"))
    for p in problems: print(f"  {p}")
    for note in notes: print(f"  note: {note} (graded as hidden; or move it into the hidden region)")
    bad += len(problems)
  return 1 if bad else 0

def cmd_mutants(args) -> int:
  from tqdm import tqdm
  from autograder.authoring import ledger
  from autograder.authoring.mutants import run
  from autograder.core.results import RunStatus
  from autograder.authoring.mutation_report import text, write
  from autograder.core.module import modules_of
  results, bad = [], 0
  for module in modules_of(Path(args.source), args.modules):
    path = Path(args.dir) / f"{module.name}.py"
    if not path.is_file() and not args.generated: print(f"{module.name}: no mutants ({path})"); continue
    with tqdm(desc=module.name, unit="cell", leave=False, disable=args.quiet) as bar:
      def step(done, total): bar.total = total; bar.n = done; bar.refresh()
      result = run(module, path, on_cell=step, generate_mutants=args.generated, max_per_task=args.max_per_task,
                   seed=args.seed, equivalent_file=Path(args.dir) / "equivalent" / f"{module.name}.txt")
    results.append(result)
    print(text(result), flush=True)
    missed = sum(not m["caught"] for m in result["mutants"] if not m.get("generated")) + len(result["control"])
    if not missed and not args.generated and result["status"] == RunStatus.COMPLETED: ledger.record(Path(args.dir) / "caught" / f"{module.name}.txt", result)
    bad += missed
    if args.json or args.markdown: write(results, args.json, args.markdown)
  return 1 if bad else 0

def cmd_margins(args) -> int:
  from autograder.authoring.margins import POLICY, load_reviewed, margins, table
  from autograder.core.module import modules_of
  thin, out = 0, []
  for module in modules_of(Path(args.source), args.modules):
    rows = margins(module, load_reviewed(Path(args.dir) / f"{module.name}.txt"))
    thin += sum(r["thin"] for r in rows)
    out.append(table(module.name, rows, None if args.all else args.top))
    print(out[-1], flush=True)
  if args.markdown: Path(args.markdown).write_text("\n".join(out))
  print(f"{thin} check(s) whose reference used more than {POLICY:.0%} of its allowance" if thin else f"every check leaves the reference at least {1 - POLICY:.0%} of its allowance")
  return 1 if thin else 0

def cmd_export(args) -> int:
  from autograder.authoring.export import export_student
  files = export_student(Path(args.dest))
  size = sum((Path(args.dest) / f).stat().st_size for f in files)
  print(f"wrote the learner repository to {args.dest}: {len(files)} files, {size / 1e6:.1f} MB; no solutions, no hidden tests")
  return 0

def cmd_doctor(args) -> int:
  from autograder.authoring.doctor import doctor
  return 0 if doctor() else 1

def cmd_canary(args) -> int:
  from autograder.authoring import canary
  from autograder.core.module import modules_of
  try:
    modules = modules_of(Path(args.source), args.modules)
    version = canary.latest() if args.tinygrad == "latest" else args.tinygrad
    if args.tinygrad == "latest": print(f"canary: the newest tinygrad release is {version}", file=sys.stderr)
    pages = None if args.pages == "none" else Path(args.pages)
    report = canary.canary(version, modules, pages, Path(args.venv) if args.venv else None, args.overlay, args.timeout,
                           log=lambda line: print(line, file=sys.stderr, flush=True))
  except canary.CanaryError as e:
    print(f"autograder: canary: {e}", file=sys.stderr); return 2
  out = Path(args.out or f"canary-{version}")
  canary.write(report, out)
  if args.summary:
    with open(args.summary, "a") as f: f.write(canary.markdown(report))
  t = canary.totals(report)
  print(f"tinygrad {version}: {t['passes']} of {t['tests']} tests pass ({t['points_passing']:g} of {t['points']:g} points), "
        f"{t['blocks_passing']} of {t['blocks']} course blocks; {report['seconds']['total']:.0f} s; report: {out / 'canary.md'}, canary.json")
  return 0 if t["passes"] == t["tests"] and not t["blocks_failing"] else 1

def add_commands(sub, root):
  """Register the author's commands on the `autograder` parser's subparsers; `root(name)` finds solutions/ or projects/."""
  r = sub.add_parser("release", help="write projects/ from solutions/ (nbgrader generate_assignment)")
  r.add_argument("--check", action="store_true", help="only say which files of projects/ differ from a fresh release")
  r.add_argument("--source", default=root("solutions")); r.add_argument("--target", default=root("projects"))
  r.add_argument("--modules", nargs="*", help="module numbers or folder names (default: all)")
  r.set_defaults(fn=cmd_release)
  li = sub.add_parser("lint", help="find oracle parts that a learner's run would still need (authors)")
  li.add_argument("modules", nargs="*", help="module numbers or folder names (default: all)")
  li.add_argument("--source", default=root("solutions"))
  li.set_defaults(fn=cmd_lint)
  mu = sub.add_parser("mutants", help="grade wrong variants of the reference answers: each must lose points (authors)")
  mu.add_argument("modules", nargs="*", help="module numbers or folder names (default: all with a mutants file)")
  mu.add_argument("--source", default=root("solutions")); mu.add_argument("--dir", default=str(REPO / "tests" / "mutants"))
  mu.add_argument("--generated", action="store_true", help="also grade mutants generated from the reference answers (a score per task)")
  mu.add_argument("--max-per-task", type=int, help="at most this many generated mutants per task (a seeded sample)")
  mu.add_argument("--seed", type=int, default=0, help="the seed of that sample (default 0)")
  mu.add_argument("--json", help="write the results as JSON here"); mu.add_argument("--markdown", help="write the per-task report here")
  mu.add_argument("--quiet", action="store_true", help="no progress bar")
  mu.set_defaults(fn=cmd_mutants)
  ma = sub.add_parser("margins", help="how far the reference stands from each tolerance and threshold (authors)")
  ma.add_argument("modules", nargs="*", help="module numbers or folder names (default: all)")
  ma.add_argument("--source", default=root("solutions")); ma.add_argument("--dir", default=str(REPO / "tests" / "margins"), help="the reviewed properties (NN_name.txt)")
  ma.add_argument("--top", type=int, default=10, help="rows per module (thinnest first; default 10)"); ma.add_argument("--all", action="store_true", help="every row")
  ma.add_argument("--markdown", help="write the tables here")
  ma.set_defaults(fn=cmd_margins)
  ex = sub.add_parser("export-student", help="write the learner repository (no solutions, no hidden tests) into DEST")
  ex.add_argument("dest"); ex.set_defaults(fn=cmd_export)
  d = sub.add_parser("doctor", help="versions, clang, tinygrad devices, and how to fix what is missing")
  d.set_defaults(fn=cmd_doctor)
  ca = sub.add_parser("canary", help="another tinygrad release in an environment of its own: every reference against its checks, every course block")
  ca.add_argument("--tinygrad", required=True, metavar="VERSION", help="a release on the package index (e.g. 0.13.0), or `latest` (asked of pip)")
  ca.add_argument("--venv", help="the environment to build or reuse (default: canary-VERSION in the grader's cache); never .venv")
  ca.add_argument("--overlay", action="store_true", help="install only tinygrad there and read every other pinned package from this environment (fast)")
  ca.add_argument("--out", help="where canary.md and canary.json go (default: canary-VERSION)")
  ca.add_argument("--summary", help="also append the Markdown report here, e.g. $GITHUB_STEP_SUMMARY")
  ca.add_argument("--source", default=root("solutions")); ca.add_argument("--modules", nargs="*", help="module numbers or folder names (default: all)")
  ca.add_argument("--pages", default=str(REPO / "course"), help="the course pages whose code blocks run (default: course/; `none`: no page)")
  ca.add_argument("--timeout", type=float, default=1800, help="seconds for one module's reference run")
  ca.set_defaults(fn=cmd_canary)
