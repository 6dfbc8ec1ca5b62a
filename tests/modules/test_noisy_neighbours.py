"""A right answer passes beside noisy neighbours (issue 43): a finished notebook of the module with the sharpest timing
checks, self-checked with a busy process on every core. (The gradings of the solution under load are in
test_mutants.py and test_honesty.py.)"""
import shutil
import nbformat
import pytest
from autograder.core.assemble import assemble, read_notebook
from autograder.core.course import REPO, notebook_path
from autograder.core.module import Module
from autograder.core.results import TestStatus
from autograder.learner.selfcheck import self_check
from neighbours import noisy_neighbours

pytestmark = pytest.mark.slow

def finished(module:str, folder) -> "Path":
  """The released starter of `module` with the solution's answer cells and answer files, in `folder`."""
  shutil.copytree(REPO / "projects" / module, folder / module)
  source = Module(module, REPO / "solutions")
  path = notebook_path(folder, module)
  nbformat.write(assemble(read_notebook(path), source.notebook), str(path))
  for name in source.answer_files: shutil.copyfile(source.folder / name, folder / module / name)
  return path

@pytest.mark.parametrize("module", ["13_kernel_opts"])
def test_a_finished_notebook_passes_its_self_check_beside_noisy_neighbours(module, tmp_path):
  path = finished(module, tmp_path)
  with noisy_neighbours(): report = self_check(path, log=lambda *a: None)
  failing = [f"{t.id}: {t.status}: {t.message}" for t in report.tests if t.status != TestStatus.PASSED]
  assert report.passed and not failing, "\n".join(failing)
