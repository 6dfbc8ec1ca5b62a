"""The learner's self-check: build the notebook the way grading does (the learner's answer cells, every other cell from
the released starter), run its visible tests in a fresh kernel, and say, task by task, what passes, what fails and
where in the learner's own code an error came from. It also says plainly what grading will ignore: code outside the
answer cells, and answer cells whose type or id changed."""
from __future__ import annotations
import os, re
from pathlib import Path
from nbformat import NotebookNode
from autograder.assemble import read_notebook, assemble, answer_cells
from autograder.cells import is_answer, is_test, grade_id, points, task_titles, defined_names
from autograder.execute import Run, limits, run_notebook
from autograder.verdict import FAILED, SKIPPED, NOT_ATTEMPTED, outcome, error_text, clean

ANSI = re.compile(r"\x1b\[[0-9;]*m")
CELL_FRAME = re.compile(r"Cell In\[(\d+)\], line (\d+)")
FILE_FRAME = re.compile(r"File (\S+?):(\d+), in ")
RELEASED = ".released"

def released_path(path:Path) -> Path:
  """Where release keeps the pristine starter of a module's notebook."""
  return path.parent / RELEASED / path.name

def differences(starter:NotebookNode, mine:NotebookNode) -> list[str]:
  """What grading will not take from the learner's notebook, one sentence each."""
  out = []
  found = answer_cells(starter, mine)
  starter_ids = {grade_id(c) for c in starter.cells if grade_id(c)}
  for i, cell in enumerate(starter.cells):
    gid = grade_id(cell)
    if is_answer(cell):
      same_id = [c for c in mine.cells if grade_id(c) == gid]
      if same_id and same_id[-1].cell_type != "code":
        out.append(f"answer cell {gid} is now a {same_id[-1].cell_type} cell: grading finds no code in it")
      elif found.get(i) is None: out.append(f"no answer cell {gid} (grading uses the unanswered stub)")
      elif not same_id: out.append(f"answer cell {gid} lost its id; grading found it by the names it defines ({', '.join(sorted(defined_names(cell.source)))})")
    elif cell.cell_type == "code" and gid:
      same = [c for c in mine.cells if grade_id(c) == gid]
      if same and same[-1].source != cell.source: out.append(f"cell {gid} differs from the released one: grading runs the released cell")
  used = {id(c) for c in found.values() if c is not None}
  for n, cell in enumerate(mine.cells):
    if cell.cell_type == "code" and id(cell) not in used and grade_id(cell) not in starter_ids and cell.source.strip():
      out.append(f"cell {n + 1} ({cell.source.strip().splitlines()[0][:40]!r}) is code outside the answer cells: grading ignores it")
  return out

def learner_line(nb:NotebookNode, run:Run, test_index:int, workdir:Path) -> str|None:
  """Where the error of a test cell came from in the learner's own code: the deepest frame that is not a test cell."""
  reply = run.replies.get(test_index, {})
  err = reply if reply.get("status") == "error" else next((o for o in nb.cells[test_index].get("outputs", []) if o.output_type == "error"), None)
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

def result_of(cell:NotebookNode, index:int, run:Run) -> dict:
  """A visible test's result, judged on the spot: it passes when its cell ran without error."""
  o = outcome(cell, index, run)
  result = {"id": grade_id(cell), "max_score": points(cell), "score": 0.0}
  if o["state"] != "ran": return {**result, "status": o["state"], "message": clean(run.message or o["state"])}
  if o["error"] is None: return {**result, "status": "passed", "score": points(cell), "message": ""}
  ename = o["error"][0]
  status = "skipped" if ename in SKIPPED else "failed" if ename in FAILED else "error"
  return {**result, "status": status, "message": clean(error_text(*o["error"]))}

def self_check(path:Path, log=print) -> dict:
  """Run the notebook at `path` as grading would build it, print one line (or two) per test, and return the module's
  part of a report (the same shape as grading's; "passed" is whether everything passed)."""
  import time
  start = time.monotonic()
  mine = read_notebook(path)
  pristine = released_path(path)
  starter = read_notebook(pristine) if pristine.is_file() else mine
  if starter is mine: log(f"  note: no released copy at {pristine}; running your notebook as it is")
  notes = differences(starter, mine)
  for line in notes: log(f"  note: {line}")
  nb = assemble(starter, mine)
  run = run_notebook(nb, path.parent, *limits(starter), base_env=dict(os.environ))
  titles = task_titles(nb)
  for index, cell in enumerate(nb.cells):                  # a failing set-up or answer cell explains the tests after it
    reply = run.replies.get(index, {})
    if cell.cell_type != "code" or is_test(cell) or reply.get("status") != "error" or reply.get("ename") in NOT_ATTEMPTED: continue
    line = f"cell {grade_id(cell) or index + 1} ({'your answer' if is_answer(cell) else 'not a test'}) raised {clean(error_text(reply.get('ename', 'Error'), reply.get('evalue', '')))}; the tests after it may fail because of it"
    notes.append(line); log(f"  note: {line}")
  results, first_open = [], None
  for index in [i for i, c in enumerate(nb.cells) if is_test(c)]:
    result = result_of(nb.cells[index], index, run) | {"task": titles.get(index, "")}
    results.append(result)
    title = f" ({titles[index]})" if titles.get(index) else ""
    if result["status"] == "passed": log(f"  passed          {result['id']}{title}"); continue
    if result["status"] != "skipped": first_open = first_open or titles.get(index) or result["id"]
    if result["status"] == "error" and result["message"].split(":")[0] in NOT_ATTEMPTED:
      log(f"  not attempted   {result['id']}{title}: the function still raises NotImplementedError")
    elif result["status"] == "error":
      log(f"  error           {result['id']}{title}: {result['message']}")
      if (where := learner_line(nb, run, index, path.parent)): log(f"                  in your code at {where}")
    else:
      log(f"  {result['status']:<15} {result['id']}{title}: {result['message']}")
  passed = sum(r["status"] == "passed" for r in results)
  skipped = sum(r["status"] == "skipped" for r in results)
  if run.status != "completed": log(f"  the run stopped early: {run.message}")
  log(f"{passed}/{len(results)} checks passed" + (f" ({skipped} skipped: this machine cannot run them)" if skipped else "")
      + (f"; next, look at: {first_open}" if first_open else ""))
  return {"module": path.parent.name, "status": "graded" if run.status == "completed" else run.status, "message": clean(run.message),
          "notes": notes, "score": sum(r["score"] for r in results), "max_score": sum(r["max_score"] for r in results),
          "seconds": round(time.monotonic() - start, 2), "tests": results,
          "passed": passed == len(results) and run.status == "completed"}
