"""A finished notebook: the released starter of a module with the solution's answer cells and answer files, as a
learner who solved every task would have it (for self-checks of right answers)."""
import shutil
from pathlib import Path
import nbformat
from autograder.core.assemble import assemble, read_notebook
from autograder.core.course import REPO, notebook_path
from autograder.core.module import Module

def finished(module:str, folder) -> Path:
  """The released starter of `module` with the solution's answer cells and answer files, in `folder`."""
  shutil.copytree(REPO / "projects" / module, folder / module)
  source = Module(module, REPO / "solutions")
  path = notebook_path(folder, module)
  nbformat.write(assemble(read_notebook(path), source.notebook), str(path))
  for name in source.answer_files: shutil.copyfile(source.folder / name, folder / module / name)
  return path
