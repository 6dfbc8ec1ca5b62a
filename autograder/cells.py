"""The nbgrader view of a notebook: which cells are answers, which are tests, and how solution regions are cleared."""
from __future__ import annotations
import ast
from nbformat import NotebookNode
from nbgrader.utils import is_grade, is_solution
from nbgrader.preprocessors import ClearSolutions

BEGIN_SOLUTION, END_SOLUTION = "### BEGIN SOLUTION", "### END SOLUTION"
BEGIN_HIDDEN, END_HIDDEN = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"

def grade_id(cell:NotebookNode) -> str|None: return cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
def is_answer(cell:NotebookNode) -> bool: return is_solution(cell)
def is_test(cell:NotebookNode) -> bool: return cell.cell_type == "code" and is_grade(cell) and not is_solution(cell)
def points(cell:NotebookNode) -> float: return float(cell.metadata["nbgrader"].get("points", 0))

def defined_names(source:str) -> frozenset[str]:
  """Top-level functions and classes a cell defines: how an answer cell is recognised once its metadata is gone."""
  try: tree = ast.parse(source)
  except SyntaxError: return frozenset()
  return frozenset(n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))

def has_solution_region(text:str) -> bool: return BEGIN_SOLUTION in text

def clear_solutions(text:str) -> str:
  """A text file's solution regions replaced by nbgrader's code stub (`raise NotImplementedError()`), as release
  does for answer cells."""
  cell = NotebookNode(cell_type="code", source=text, metadata={})
  ClearSolutions(begin_solution_delimeter=BEGIN_SOLUTION, end_solution_delimeter=END_SOLUTION)._replace_solution_region(cell, "python")
  return cell.source
