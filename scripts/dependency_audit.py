"""Hidden tests must not depend on another task where their visible twins do not (issue 23). For each answer cell of a
module in turn, this grades the reference solution with that one answer replaced by its released stub, and runs the
self-check (visible checks only) on the same notebook: a test that grading fails while its visible checks pass
depends, in its hidden part, on the stubbed task. One grading and one self-check per answer cell: minutes per module,
so it is a script for authors, not a CI test.

    .venv/bin/python scripts/dependency_audit.py 09 [05 ...]      # prints each mismatch; exit 1 if any
"""
from __future__ import annotations
import shutil, sys, tempfile
from pathlib import Path
import nbformat

from autograder.core.cells import clear_solutions, grade_id, is_answer
from autograder.core.course import REPO, notebook_path
from autograder.core.module import Module, modules_of
from autograder.grading.grade import grade_module
from autograder.authoring.release import release
from autograder.core.cause import cell_tasks
from autograder.learner.selfcheck import self_check
from autograder.core.results import TestStatus

def audit(module:Module, log=print) -> list[str]:
  """Mismatches of one module: 'test_x (Task 2.3) fails in grading but passes its visible checks with ans_y (Task 2.1) a stub'."""
  source = module.notebook
  titles = {grade_id(source.cells[i]): t for i, t in cell_tasks(source).items()}
  answers = [c for c in source.cells if is_answer(c)]
  out = []
  with tempfile.TemporaryDirectory(prefix="dependency-audit-") as tmp:
    projects, submissions = Path(tmp) / "projects", Path(tmp) / "submissions"
    release([module], projects)
    for stubbed in answers:
      sub = submissions / grade_id(stubbed)
      shutil.copytree(module.folder, sub / module.name)
      nb = module.fresh()
      for c in nb.cells:
        if grade_id(c) == grade_id(stubbed): c.source = clear_solutions(c.source)
      nbformat.write(nb, str(notebook_path(sub, module.name)))
      graded = {t.id: t for t in grade_module(module, sub).tests}
      shutil.copyfile(notebook_path(sub, module.name), notebook_path(projects, module.name))
      visible = {t.id: t for t in self_check(notebook_path(projects, module.name), log=lambda *a: None).tests}
      for tid, t in graded.items():
        if t.status not in (TestStatus.PASSED, TestStatus.SKIPPED) and tid in visible and visible[tid].status == TestStatus.PASSED:
          line = (f"{tid} ({titles.get(tid, '?')}) fails in grading ({t.message[:120]}) but passes its visible checks "
                  f"with {grade_id(stubbed)} ({titles.get(grade_id(stubbed)) or '?'}) a stub")
          out.append(line); log(f"  {line}")
      log(f"{module.name}: {grade_id(stubbed)} stubbed: {sum(t.status != TestStatus.PASSED for t in graded.values())} test(s) fail in grading")
  return out

def main(argv:list[str]) -> int:
  bad = []
  for module in modules_of(REPO / "solutions", argv or None): bad += audit(module)
  print(f"{len(bad)} hidden test(s) depend on another task where their visible twin does not")
  return 1 if bad else 0

if __name__ == "__main__": sys.exit(main(sys.argv[1:]))
