"""The learner's self-check: run their notebook's visible tests in a fresh kernel and say, task by task, what passes,
what fails and where in their own code an error came from."""
from __future__ import annotations
import re
from pathlib import Path
from nbformat import NotebookNode
from autograder.assemble import read_notebook
from autograder.cells import is_test, grade_id
from autograder.execute import Run, limits, run_notebook
from autograder.score import score_tests, error_output, not_attempted

ANSI = re.compile(r"\x1b\[[0-9;]*m")
CELL_FRAME = re.compile(r"Cell In\[(\d+)\], line (\d+)")
FILE_FRAME = re.compile(r"File (\S+?):(\d+), in ")

def headings(markdown:str) -> list[str]:
  """The headings of a markdown text, leaving out `#` lines inside fenced code."""
  out, fenced = [], False
  for line in markdown.splitlines():
    if line.lstrip().startswith(("```", "~~~")): fenced = not fenced
    elif not fenced and line.startswith("#"): out.append(line.lstrip("#").strip())
  return out

def task_titles(nb:NotebookNode) -> dict[int, str]:
  """Each test cell's task: the last markdown heading above it."""
  titles, heading = {}, ""
  for i, cell in enumerate(nb.cells):
    if cell.cell_type == "markdown":
      heading = (headings(cell.source) or [heading])[-1]
    elif is_test(cell): titles[i] = heading
  return titles

def learner_line(nb:NotebookNode, run:Run, test_index:int, workdir:Path) -> str|None:
  """Where the error of a test cell came from in the learner's own code: the deepest frame that is not a test cell."""
  reply = run.replies.get(test_index, {})
  err = reply if reply.get("status") == "error" else error_output(nb.cells[test_index])
  if err is None: return None
  found = None
  for frame in ANSI.sub("", "\n".join(err.get("traceback", []))).splitlines():
    if (m := CELL_FRAME.search(frame)):
      index = run.execution_counts.get(int(m[1]))
      if index is None or is_test(nb.cells[index]): continue
      lines, n = nb.cells[index].source.splitlines(), int(m[2])
      where = grade_id(nb.cells[index]) or f"cell {index + 1}"
      found = f"{where}, line {n}: {lines[n-1].strip()}" if 0 < n <= len(lines) else f"{where}, line {n}"
    elif (m := FILE_FRAME.search(frame)):
      path = Path(m[1]).expanduser()
      if path.is_file() and workdir.resolve() in path.resolve().parents:
        lines, n = path.read_text().splitlines(), int(m[2])
        found = f"{path.name}, line {n}: {lines[n-1].strip()}" if 0 < n <= len(lines) else f"{path.name}, line {n}"
  return found

def self_check(path:Path, log=print) -> bool:
  """Run the notebook at `path`, print one line (or two) per test, and return whether everything passed."""
  nb = read_notebook(path)
  run = run_notebook(nb, path.parent, *limits(nb))
  titles = task_titles(nb)
  test_cells = [i for i, c in enumerate(nb.cells) if is_test(c)]
  results = score_tests(nb, run)
  first_open = None
  for index, result in zip(test_cells, results):
    title = f" ({titles[index]})" if titles.get(index) else ""
    if result["status"] == "passed": log(f"  passed          {result['id']}{title}"); continue
    first_open = first_open or titles.get(index) or result["id"]
    if not_attempted(result):
      log(f"  not attempted   {result['id']}{title}: the function still raises NotImplementedError")
    elif result["status"] == "error":
      log(f"  error           {result['id']}{title}: {result['message']}")
      if (where := learner_line(nb, run, index, path.parent)): log(f"                  in your code at {where}")
    else:
      log(f"  {result['status']:<15} {result['id']}{title}: {result['message']}")
  passed = sum(r["status"] == "passed" for r in results)
  if run.status != "completed": log(f"  the run stopped early: {run.message}")
  log(f"{passed}/{len(results)} checks passed" + (f"; next, look at: {first_open}" if first_open else ""))
  return passed == len(results) and run.status == "completed"
