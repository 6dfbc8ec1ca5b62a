"""Rebuild a notebook for grading from the trusted source: every non-answer cell (hidden tests included) comes from the
source, answer cells come from the submission, matched by nbgrader grade_id. Whatever the learner did to the rest of
their notebook (deleted, duplicated, retyped or re-ordered test cells, renamed ids, stripped metadata, extra cells)
cannot change what runs. Files are read from the submission only when they are regular files inside it: a symbolic
link anywhere on the way is a missing file, never followed."""
from __future__ import annotations
import copy, os, shutil, stat
from pathlib import Path
import nbformat
from nbformat import NotebookNode
from autograder.cells import grade_id, is_answer, defined_names, has_solution_region, clear_solutions

MAX_FILE_BYTES = 64 << 20
IGNORED = shutil.ignore_patterns("*.ipynb", ".ipynb_checkpoints", "__pycache__")

class Unreadable(Exception): pass

def safe_file(root:Path, relative:str|Path) -> Path|None:
  """`root/relative` if it is a regular file reached without following any symbolic link (the root included) and no
  larger than MAX_FILE_BYTES; else None."""
  path = Path(root)
  try:
    if stat.S_ISLNK(os.lstat(path).st_mode): return None
    for part in Path(relative).parts:
      if part in ("..", "/"): return None
      path = path / part
      mode = os.lstat(path).st_mode
      if stat.S_ISLNK(mode): return None
    return path if stat.S_ISREG(mode) and os.lstat(path).st_size <= MAX_FILE_BYTES else None
  except OSError: return None

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

def answer_cells(source:NotebookNode, submission:NotebookNode) -> dict[int, NotebookNode|None]:
  """For each answer cell of the source (by index), the learner's cell for it: the last cell with the same grade_id,
  else the last code cell that defines the same functions/classes (metadata stripped or id renamed), else None."""
  out = {}
  for i, cell in enumerate(source.cells):
    if not is_answer(cell): continue
    by_id = [c for c in submission.cells if grade_id(c) == grade_id(cell)]
    names = defined_names(cell.source)
    by_names = [c for c in submission.cells if c.cell_type == "code" and names and names <= defined_names(c.source)]
    out[i] = (by_id or by_names or [None])[-1]
  return out

def assemble(source:NotebookNode, submission:NotebookNode|None) -> NotebookNode:
  """The notebook to grade. A missing answer falls back to the released stub, so it earns nothing."""
  nb = copy.deepcopy(source)
  found = answer_cells(source, submission) if submission is not None else {}
  for i, cell in enumerate(nb.cells):
    if cell.cell_type == "code": cell.outputs, cell.execution_count = [], None
    if not is_answer(cell): continue
    learner = found.get(i)
    cell.source = learner.source if learner is not None else clear_solutions(cell.source)
  return nb

def module_settings(source:NotebookNode) -> dict:
  return dict(source.metadata.get("autograder", {}))

def prepare_workdir(source_dir:Path, submission_dir:Path, workdir:Path, learner_files:list[str]=()):
  """Copy the module's support files into `workdir`. Answer files (files with solution regions in the source) come
  from the submission, or as released stubs where the learner has none; `learner_files` (a checkpoint, say) come
  from the submission only; every other file comes from the source."""
  shutil.copytree(source_dir, workdir, dirs_exist_ok=True, ignore=IGNORED)
  for name in learner_files:
    target = workdir / name
    if target.is_file(): target.unlink()
    mine = safe_file(submission_dir, name)
    if mine is not None:
      target.parent.mkdir(parents=True, exist_ok=True)
      shutil.copyfile(mine, target)
  for path in workdir.rglob("*"):
    if not path.is_file() or str(path.relative_to(workdir)) in learner_files: continue
    try: text = path.read_text()
    except (UnicodeDecodeError, OSError): continue
    if not has_solution_region(text): continue
    mine = safe_file(submission_dir, path.relative_to(workdir))
    if mine is not None: shutil.copyfile(mine, path)
    else: path.write_text(clear_solutions(text))

def remove_tree(path:Path):
  """Remove a folder whatever a kernel left in it (thousands of files, deep nesting, odd permissions), never raising."""
  try: shutil.rmtree(path)
  except Exception:
    import subprocess
    try: subprocess.run(["rm", "-rf", "--one-file-system", str(path)], capture_output=True, timeout=300)
    except Exception: pass
