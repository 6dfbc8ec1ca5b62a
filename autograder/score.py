"""Score the test cells of an executed notebook with nbgrader's rule (an error or stderr output scores 0) and say
why, in one line that never quotes the test's source or traceback."""
from __future__ import annotations
from nbformat import NotebookNode
from nbgrader.utils import determine_grade
from autograder.cells import grade_id, is_test, points
from autograder.execute import Run

FAILED, SKIPPED, NOT_ATTEMPTED = {"CheckFailed", "AssertionError"}, {"CheckSkipped"}, {"NotImplementedError"}

def one_line(text:str, limit:int=200) -> str:
  first = next((l.strip() for l in str(text).splitlines() if l.strip()), "")
  return first if len(first) <= limit else first[:limit-3] + "..."

def error_output(cell:NotebookNode) -> NotebookNode|None:
  return next((o for o in cell.get("outputs", []) if o.output_type == "error"), None)

def test_result(cell:NotebookNode, index:int, state:str, run:Run) -> dict:
  result = {"id": grade_id(cell), "status": "", "score": 0.0, "max_score": points(cell), "message": ""}
  if state == "not_run": return {**result, "status": "not_run", "message": one_line(run.message) or "not run"}
  if state == "timeout": return {**result, "status": "timeout", "message": one_line(run.message)}
  try: score, _ = determine_grade(cell)
  except ValueError as e:                                  # a last value nbgrader cannot read as partial credit
    return {**result, "status": "failed", "message": one_line(f"the cell's last value is not a valid score: {e}")}
  result["score"] = float(score or 0)
  reply = run.replies.get(index, {})
  err = reply if reply.get("status") == "error" else error_output(cell)     # the reply is the truth; outputs can be lost
  if err is not None:
    ename, evalue = err.get("ename", "Error"), err.get("evalue", "")
    status = "failed" if ename in FAILED else "skipped" if ename in SKIPPED else "error"
    return {**result, "score": 0.0, "status": status, "message": one_line(f"{ename}: {evalue}" if evalue else ename)}
  if result["score"] == result["max_score"]: return {**result, "status": "passed"}
  stderr = next((o.text for o in cell.outputs if o.output_type == "stream" and o.name == "stderr"), None)
  why = f"the cell wrote to stderr, which nbgrader scores as 0: {one_line(stderr)}" if stderr is not None else "partial credit"
  return {**result, "status": "failed", "message": one_line(why)}

def score_tests(nb:NotebookNode, run:Run) -> list[dict]:
  return [test_result(c, i, run.cells.get(i, "not_run"), run) for i, c in enumerate(nb.cells) if is_test(c)]

def not_attempted(test:dict) -> bool:
  """An error from a stub the learner has not filled in yet."""
  return test["status"] == "error" and test["message"].split(":")[0] in NOT_ATTEMPTED
