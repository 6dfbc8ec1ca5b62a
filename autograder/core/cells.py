"""The nbgrader view of a notebook: which cells are answers, which are tests, and how solution regions are cleared."""
from __future__ import annotations
import ast, math, re
from nbformat import NotebookNode
from autograder.core.hints import is_hint_cell
from autograder.core.settings import cell_setting

# Spelled in two parts so that the grader's own code never holds a marker: a learner repository must hold none.
BEGIN_SOLUTION, END_SOLUTION = "### BEGIN " + "SOLUTION", "### END " + "SOLUTION"
BEGIN_HIDDEN, END_HIDDEN = "### BEGIN " + "HIDDEN TESTS", "### END " + "HIDDEN TESTS"

# nbgrader's own definitions (nbgrader.utils), here so that a self-check does not import nbgrader (seconds: its package
# loads its server extensions); only clearing a solution region needs it. Every reader takes whatever a learner's file
# holds: a cell whose metadata or `nbgrader` table is missing, null or of another type is a plain cell, a grade_id that
# is not a string is none, and points that are not a finite number are 0 (assemble.parse_notebook refuses such a
# learner's notebook as unreadable, with the reason; these readers only never raise).
def nbgrader_meta(cell:NotebookNode) -> dict:
  """A cell's `metadata.nbgrader` table, {} when there is none or it is not a table."""
  meta = cell.get("metadata") if isinstance(cell, dict) else None
  own = meta.get("nbgrader") if isinstance(meta, dict) else None
  return own if isinstance(own, dict) else {}

def _flag(cell:NotebookNode, key:str) -> bool:
  value = nbgrader_meta(cell).get(key, False)
  return value if type(value) is bool else False

def is_grade(cell:NotebookNode) -> bool: return _flag(cell, "grade")
def is_solution(cell:NotebookNode) -> bool: return _flag(cell, "solution")

def grade_id(cell:NotebookNode) -> str|None:
  gid = nbgrader_meta(cell).get("grade_id")
  return gid if isinstance(gid, str) else None
def is_answer(cell:NotebookNode) -> bool: return is_solution(cell)
def is_test(cell:NotebookNode) -> bool: return isinstance(cell, dict) and cell.get("cell_type") == "code" and is_grade(cell) and not is_solution(cell)
def is_isolated(cell:NotebookNode) -> bool:
  """A test that grading runs in a kernel of its own, where no answer cell of the learner ever ran."""
  return is_test(cell) and cell_setting(cell, "isolated")
def needs_libraries(cell:NotebookNode) -> bool:
  """A test graded where the module's forbidden libraries are present (its inputs need one: module 10's export)."""
  return is_test(cell) and cell_setting(cell, "needs_libraries")
def graded_without_libraries(nb:NotebookNode) -> set[str]:
  """The grade ids of the answer cells whose task has a test graded without the module's forbidden libraries (a task
  is its answer cells, then its test cells; an answer with no test after it counts too)."""
  out, task, tested = set(), [], False
  for c in nb.cells:
    if is_answer(c):
      if tested: task, tested = [], False
      task.append(grade_id(c) or "")
    elif is_test(c):
      tested = True
      if not needs_libraries(c): out |= set(task)
  return out if tested else out | set(task)
def points(cell:NotebookNode) -> float:
  value = nbgrader_meta(cell).get("points", 0)
  return float(value) if type(value) in (int, float) and math.isfinite(value) else 0.0

def defined_names(source:str) -> frozenset[str]:
  """Top-level functions and classes a cell defines: how an answer cell is recognised once its metadata is gone."""
  try: tree = ast.parse(source)
  except SyntaxError: return frozenset()
  return frozenset(n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))

def has_solution_region(text:str) -> bool: return BEGIN_SOLUTION in text

def clear_solutions(text:str) -> str:
  """A text file's solution regions replaced by nbgrader's code stub (`raise NotImplementedError()`), as release
  does for answer cells."""
  from nbgrader.preprocessors import ClearSolutions
  cell = NotebookNode(cell_type="code", source=text, metadata={})
  ClearSolutions(begin_solution_delimeter=BEGIN_SOLUTION, end_solution_delimeter=END_SOLUTION)._replace_solution_region(cell, "python")
  return cell.source

def without_hidden(text:str) -> str:
  """A test cell's source without its hidden-test regions (markers included), as nbgrader releases it."""
  out, on = [], False
  for line in text.splitlines(keepends=True):
    if BEGIN_HIDDEN in line: on = True
    elif END_HIDDEN in line: on = False
    elif not on: out.append(line)
  return "".join(out)

TASK = re.compile(r"\bTask\s+(\d+(?:\.\d+)*)")

def headings(markdown:str) -> list[str]:
  """The headings of a markdown text, leaving out `#` lines inside fenced code."""
  out, fenced = [], False
  for line in markdown.splitlines():
    if line.lstrip().startswith(("```", "~~~")): fenced = not fenced
    elif not fenced and line.startswith("#"): out.append(line.lstrip("#").strip())
  return out

def task_titles(nb:NotebookNode) -> dict[int, str]:
  """Each test cell's task, by cell index: 'Task 2.1' when the markdown above names one, else the last heading."""
  titles, heading, task = {}, "", ""
  for i, cell in enumerate(nb.cells):
    if is_hint_cell(cell): continue                      # a task's hints name it, but open no new task
    if cell.cell_type == "markdown":
      heading = (headings(cell.source) or [heading])[-1]
      if (m := TASK.search(cell.source)): task = f"Task {m[1]}"
      elif headings(cell.source): task = ""
    elif is_test(cell): titles[i] = task or heading
  return titles

def hint(cell:NotebookNode, pointer:str="") -> str:
  """The author's hint for a test, shown to a learner when it fails: `metadata.autograder.hint` (a short pointer),
  followed by `pointer` (where to ask for the task's hints, when it has hint cells); without either, the `# Hint:`
  comment lines of the cell's visible part."""
  own = cell_setting(cell, "hint")
  if own or pointer: return "; ".join(str(x) for x in (own, pointer) if x)
  lines = []
  for line in cell.source.splitlines():
    if BEGIN_HIDDEN in line: break
    if line.strip().lower().startswith("# hint:"): lines.append(line.strip()[7:].strip())
  return " ".join(lines)
