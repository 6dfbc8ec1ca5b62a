"""A two-module toy course in nbgrader format, without tinygrad: fast material for testing the grader itself."""
from __future__ import annotations
from pathlib import Path
import nbformat
from nbformat.v4 import new_notebook, new_code_cell, new_markdown_cell

def meta(grade_id:str, solution=False, grade=False, points=0, locked=None) -> dict:
  m = {"grade": grade, "grade_id": grade_id, "locked": (not solution) if locked is None else locked, "schema_version": 3,
       "solution": solution, "task": False}
  if grade: m["points"] = points
  return {"nbgrader": m}

def toy_notebook(n:int, cell_timeout:int=10) -> nbformat.NotebookNode:
  cells = [
    new_markdown_cell(f"# Toy module {n}", metadata=meta("intro")),
    new_code_cell("from autograder import check_equal, check", metadata=meta("setup")),
    new_code_cell(f"def double(x):\n    \"\"\"Twice x.\"\"\"\n    ### BEGIN SOLUTION\n    return {n} * x // {n} * 2\n    ### END SOLUTION",
                  metadata=meta("ans_double", solution=True)),
    new_code_cell("check_equal(double(2), 4, name='double(2)')\n### BEGIN HIDDEN TESTS\ncheck_equal(double(21), 42, name='double(21)')\n### END HIDDEN TESTS",
                  metadata=meta("test_double", grade=True, points=2)),
    new_code_cell("def square(x):\n    \"\"\"x squared.\"\"\"\n    ### BEGIN SOLUTION\n    return x * x\n    ### END SOLUTION",
                  metadata=meta("ans_square", solution=True)),
    new_code_cell("check_equal(square(3), 9, name='square(3)')\n### BEGIN HIDDEN TESTS\ncheck_equal(square(-7), 49, name='square(-7)')\n### END HIDDEN TESTS",
                  metadata=meta("test_square", grade=True, points=3)),
  ]
  nb = new_notebook(cells=cells)
  nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
  nb.metadata["autograder"] = {"cell_timeout": cell_timeout, "timeout": 30}
  return nb

HELPER = "def triple(x):\n    ### BEGIN SOLUTION\n    return 3 * x\n    ### END SOLUTION\n"

def hint_cell(task:str, *levels:str, function:str="") -> nbformat.NotebookNode:
  """A hint cell in the format of course/instructors/authoring.md."""
  return new_markdown_cell(f"#### Hints: {task}\n" + "\n\n---\n\n".join(levels),
                           metadata=meta(f"hints_{function or task.split()[-1]}", locked=True))

def with_tasks_and_hints(nb:nbformat.NotebookNode) -> nbformat.NotebookNode:
  """The toy notebook with a task heading before each answer and hint cells: Task 1.1 (double) has two levels,
  Task 1.2 (square) three."""
  out = []
  for c in nb.cells:
    gid = c.metadata["nbgrader"]["grade_id"]
    if gid == "ans_double": out.append(new_markdown_cell("**Task 1.1** Write `double`.", metadata=meta("md_double")))
    if gid == "ans_square": out.append(new_markdown_cell("**Task 1.2** Write `square`.", metadata=meta("md_square")))
    out.append(c)
    if gid == "ans_double": out.append(hint_cell("Task 1.1", "Think of addition.", "Add x to itself.", function="double"))
    if gid == "ans_square": out.append(hint_cell("Task 1.2", "A product.", "```python\n# not a level break\n---\n```", "Multiply x by x.", function="square"))
  nb.cells = out
  return nb

def write_toy_course(root:Path, modules=("01_toy", "02_toy"), answer_file:bool=False, hints:bool=False, cell_timeout:int=10) -> Path:
  """solutions/ with the toy modules under `root`; returns the solutions folder. With `answer_file`, each module also
  has an answer file helper.py (a task in a support file, like module 07's backend) and a 1-point test of it. With
  `hints`, each module has task headings and hint cells (see `with_tasks_and_hints`). `cell_timeout`: a cell's time
  limit in seconds (a test of an endless loop waits it out: the toy cells themselves take well under a second)."""
  for n, name in enumerate(modules, 1):
    (root / "solutions" / name).mkdir(parents=True, exist_ok=True)
    nb = toy_notebook(n, cell_timeout)
    if hints: nb = with_tasks_and_hints(nb)
    if answer_file:
      (root / "solutions" / name / "helper.py").write_text(HELPER)
      nb.cells.append(new_code_cell("from helper import triple\ncheck_equal(triple(2), 6, name='triple(2)')\n### BEGIN HIDDEN TESTS\n"
                                    "check_equal(triple(-5), -15, name='triple(-5)')\n### END HIDDEN TESTS", metadata=meta("test_triple", grade=True, points=1)))
    nbformat.write(nb, str(root / "solutions" / name / f"{name}.ipynb"))
  return root / "solutions"

def notebook(root:Path, module:str="01_toy") -> Path: return root / module / f"{module}.ipynb"

def edit(root:Path, fn, module:str="01_toy"):
  """Rewrite a toy notebook's cells with `fn(cells) -> cells`."""
  nb = nbformat.read(str(notebook(root, module)), as_version=4)
  nb.cells = fn(nb.cells)
  nbformat.write(nb, str(notebook(root, module)))

def answer(root:Path, gid:str, source:str, module:str="01_toy"):
  """Set the source of the cell `gid` of a toy notebook."""
  def fn(cells):
    for c in cells:
      if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == gid: c.source = source
    return cells
  edit(root, fn, module)
