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
from autograder.core.assemble import read_notebook
from autograder.core.cells import clear_solutions, grade_id, is_answer
from autograder.core.course import REPO, module_names, notebook_path, resolve
from autograder.grading.grade import grade_module
from autograder.authoring.release import release
from autograder.core.cause import cell_tasks
from autograder.learner.selfcheck import self_check
from autograder.core.results import TestStatus

def audit(module:str, source_root:Path, log=print) -> list[str]:
  """Mismatches of one module: 'test_x (Task 2.3) fails in grading but passes its visible checks with ans_y (Task 2.1) a stub'."""
  source = read_notebook(notebook_path(source_root, module))
  titles = {grade_id(source.cells[i]): t for i, t in cell_tasks(source).items()}
  answers = [c for c in source.cells if is_answer(c)]
  out = []
  with tempfile.TemporaryDirectory(prefix="dependency-audit-") as tmp:
    projects, submissions = Path(tmp) / "projects", Path(tmp) / "submissions"
    release([module], source_root, projects)
    for stubbed in answers:
      sub = submissions / grade_id(stubbed)
      shutil.copytree(Path(source_root) / module, sub / module)
      nb = nbformat.read(str(notebook_path(source_root, module)), as_version=4)
      for c in nb.cells:
        if grade_id(c) == grade_id(stubbed): c.source = clear_solutions(c.source)
      nbformat.write(nb, str(sub / module / f"{module}.ipynb"))
      graded = {t.id: t for t in grade_module(module, source_root, sub).tests}
      shutil.copyfile(sub / module / f"{module}.ipynb", projects / module / f"{module}.ipynb")
      visible = {t.id: t for t in self_check(projects / module / f"{module}.ipynb", log=lambda *a: None).tests}
      for tid, t in graded.items():
        if t.status not in (TestStatus.PASSED, TestStatus.SKIPPED) and tid in visible and visible[tid].status == TestStatus.PASSED:
          line = (f"{tid} ({titles.get(tid, '?')}) fails in grading ({t.message[:120]}) but passes its visible checks "
                  f"with {grade_id(stubbed)} ({titles.get(grade_id(stubbed)) or '?'}) a stub")
          out.append(line); log(f"  {line}")
      log(f"{module}: {grade_id(stubbed)} stubbed: {sum(t.status != TestStatus.PASSED for t in graded.values())} test(s) fail in grading")
  return out

def main(argv:list[str]) -> int:
  source = REPO / "solutions"
  bad = []
  for module in resolve(argv or None, module_names(source)): bad += audit(module, source)
  print(f"{len(bad)} hidden test(s) depend on another task where their visible twin does not")
  return 1 if bad else 0

if __name__ == "__main__": sys.exit(main(sys.argv[1:]))
