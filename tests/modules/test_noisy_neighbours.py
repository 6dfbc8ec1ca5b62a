"""A right answer passes beside noisy neighbours (issue 43): a finished notebook of the module with the sharpest timing
checks (and module 12's Task 8.2), self-checked with a busy process on every core. (The gradings of the solution under load are in
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

@pytest.mark.parametrize("module,task", [("13_kernel_opts", None), ("12_llm_inference", "Task 8.2")])
def test_a_finished_notebook_passes_its_self_check_beside_noisy_neighbours(module, task, tmp_path):
  """The whole of 13; of 12, the task whose two tests decide ratios of times (against the baseline Decoder and against
  transformers on one thread): the rest of 12 grades counts and sanity bounds."""
  path = finished(module, tmp_path)
  with noisy_neighbours(): report = self_check(path, log=lambda *a: None, task=task)
  failing = [f"{t.id}: {t.status}: {t.message}" for t in report.tests if t.status != TestStatus.PASSED]
  assert report.tests and (task is None or all(t.task == task for t in report.tests)), [(t.id, t.task) for t in report.tests]
  assert report.passed and not failing, "\n".join(failing)
