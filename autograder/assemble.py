"""Rebuild a notebook for grading from the trusted source: every non-answer cell (hidden tests included) comes from the
source, answer cells come from the submission, matched by nbgrader grade_id. Whatever the learner did to the rest of
their notebook (deleted, duplicated, retyped or re-ordered test cells, renamed ids, stripped metadata, extra cells)
cannot change what runs."""
from __future__ import annotations
import copy, shutil
from pathlib import Path
import nbformat
from nbformat import NotebookNode
from autograder.cells import grade_id, is_answer, defined_names, has_solution_region, clear_solutions

class Unreadable(Exception): pass

def read_notebook(path:Path) -> NotebookNode:
  """A notebook, or Unreadable with a one-line reason (bad JSON, not a notebook)."""
  try:
    nb = nbformat.read(str(path), as_version=4)
    if not isinstance(nb.get("cells"), list): raise ValueError("no list of cells")
    for cell in nb.cells:
      if not isinstance(cell.get("source"), str) or cell.get("cell_type") not in {"code", "markdown", "raw"}:
        raise ValueError("a cell without source or with an unknown type")
    return nb
  except Exception as e:
    raise Unreadable(f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:200]) from None

def _answer_source(source_cell:NotebookNode, submission:NotebookNode) -> str|None:
  """The learner's text for one answer cell: the last cell with the same grade_id, else the last code cell that
  defines the same functions/classes (metadata stripped or id renamed), else None."""
  gid = grade_id(source_cell)
  by_id = [c for c in submission.cells if grade_id(c) == gid]
  if by_id: return by_id[-1].source
  names = defined_names(source_cell.source)
  if names:
    by_names = [c for c in submission.cells if c.cell_type == "code" and names <= defined_names(c.source)]
    if by_names: return by_names[-1].source
  return None

def assemble(source:NotebookNode, submission:NotebookNode|None) -> NotebookNode:
  """The notebook to grade. A missing answer falls back to the released stub, so it earns nothing."""
  nb = copy.deepcopy(source)
  for cell in nb.cells:
    if cell.cell_type == "code": cell.outputs, cell.execution_count = [], None
    if not is_answer(cell): continue
    learner = _answer_source(cell, submission) if submission is not None else None
    cell.source = learner if learner is not None else clear_solutions(cell.source)
  return nb

def prepare_workdir(source_dir:Path, submission_dir:Path, workdir:Path):
  """Copy the module's support files into `workdir`. Answer files (files with solution regions in the source) come
  from the submission, or as released stubs where the learner has none; every other file comes from the source."""
  shutil.copytree(source_dir, workdir, dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.ipynb", ".ipynb_checkpoints", "__pycache__"))
  for path in workdir.rglob("*"):
    if not path.is_file(): continue
    try: text = path.read_text()
    except (UnicodeDecodeError, OSError): continue
    if not has_solution_region(text): continue
    learner = submission_dir / path.relative_to(workdir)
    if learner.is_file(): shutil.copyfile(learner, path)
    else: path.write_text(clear_solutions(text))
