"""`autograder grade`: grade a learner's folder against the trusted source, into a report."""
from __future__ import annotations
import sys
from pathlib import Path

# Each command imports what it runs when it is run: `autograder check` must not load nbgrader, copydetect or tqdm
# (seconds at every start). Start-up time is the only reason for an import inside a function in this package.

def cmd_grade(args) -> int:
  from tqdm import tqdm
  from autograder.core.module import modules_of
  from autograder.grading.grade import grade
  from autograder.core.report import table, write
  submission = Path(args.submission)
  modules = modules_of(Path(args.source), args.modules)
  bar = tqdm(total=len(modules), desc="grading", unit="module", file=sys.stderr, disable=True if args.quiet else None)
  def cell(done, total): bar.set_postfix_str(f"{modules[bar.n].name}: cell {done}/{total}")
  def module(m): bar.set_postfix_str(f"{m.module}: {m.score:g}/{m.max_score:g}"); bar.update()
  report = grade(modules, submission, on_module=module, on_cell=cell)
  bar.close()
  if not args.quiet: print(table(report))
  write(report, args.json, args.markdown)
  if args.feedback:
    from autograder.grading.feedback import write as write_feedback
    write_feedback(report, Path(args.feedback))
  return 0

def add_commands(sub, root):
  """Register `grade` on the `autograder` parser's subparsers; `root(name)` finds solutions/ or projects/."""
  g = sub.add_parser("grade", help="grade a submission against the hidden tests")
  g.add_argument("submission", nargs="?", default=root("projects"), help="folder holding NN_name/NN_name.ipynb (default: projects/)")
  g.add_argument("--source", default=root("solutions"), help="the trusted source notebooks (default: solutions/)")
  g.add_argument("--modules", nargs="*", help="module numbers or folder names (default: all)")
  g.add_argument("--json", help="write the report as JSON here"); g.add_argument("--markdown", help="write the report as Markdown here")
  g.add_argument("--feedback", help="write the learner's feedback (feedback.md, feedback.html) into this folder")
  g.add_argument("--quiet", action="store_true", help="no table, no progress bar")
  g.set_defaults(fn=cmd_grade)
