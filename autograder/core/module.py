"""A module of the course as one object: its name, its folder in the solutions (or in a learner's release), its
notebook, settings, task titles and answer files, each read once when first asked for and passed down from there. The
folder that holds the modules is `solutions` everywhere (the trusted source of grading; `--source` on the command
line)."""
from __future__ import annotations
import copy
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from nbformat import NotebookNode
from autograder.core.assemble import answer_files, read_notebook
from autograder.core.cells import grade_id, is_test, task_titles
from autograder.core.course import module_names, notebook_path, resolve
from autograder.core.settings import module_settings

@dataclass(frozen=True)
class Module:
  name: str                  # `NN_name`
  solutions: Path            # the folder of the modules (solutions/, or a toy course's)

  @property
  def folder(self) -> Path: return Path(self.solutions) / self.name
  @property
  def path(self) -> Path: return notebook_path(self.solutions, self.name)

  @cached_property
  def notebook(self) -> NotebookNode:
    """The source notebook, read once: shared, so a caller that changes it works on `fresh()`."""
    return read_notebook(self.path)
  def fresh(self) -> NotebookNode: return copy.deepcopy(self.notebook)

  @cached_property
  def settings(self) -> dict: return module_settings(self.notebook)
  @cached_property
  def titles(self) -> dict[str, str]:
    """Each test's task title ('Task 2.1', or the heading above it) by grade id."""
    return {grade_id(self.notebook.cells[i]): t for i, t in task_titles(self.notebook).items()}
  @cached_property
  def test_ids(self) -> list[str]: return [grade_id(c) for c in self.notebook.cells if is_test(c)]
  @cached_property
  def answer_files(self) -> list[str]:
    """Relative paths of the module's answer files (text files with a solution region)."""
    return answer_files(self.folder)

def modules_of(solutions:Path, wanted:list[str]|None=None) -> list[Module]:
  """The modules of a folder, all or those `wanted` ('01', '01_tensor_basics'; see course.resolve)."""
  return [Module(name, Path(solutions)) for name in resolve(wanted, module_names(solutions))]
