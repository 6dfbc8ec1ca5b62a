"""Grade a submission folder against the trusted source folder, module by module, into one report."""
from __future__ import annotations
import tempfile, time
from pathlib import Path
from autograder.assemble import Unreadable, read_notebook, assemble, prepare_workdir
from autograder.cells import grade_id, is_test, points
from autograder.course import notebook_path
from autograder.execute import limits, run_notebook
from autograder.score import score_tests

def _unexecuted(source, message:str) -> list[dict]:
  return [{"id": grade_id(c), "status": "not_run", "score": 0.0, "max_score": points(c), "message": message}
          for c in source.cells if is_test(c)]

def grade_module(module:str, source_root:Path, submission_root:Path, on_cell=None) -> dict:
  """One module's part of the report; `on_cell(done, total)` is called as code cells finish."""
  start = time.monotonic()
  source = read_notebook(notebook_path(source_root, module))     # the trusted source must read; if not, that is ours to fix
  status, message, tests = "graded", "", None
  path = notebook_path(submission_root, module)
  if not path.is_file(): status, message = "missing", f"no notebook at {path.relative_to(submission_root)}"
  else:
    try: submission = read_notebook(path)
    except Unreadable as e: status, message = "unreadable", f"cannot read {path.name}: {e}"
  if status == "graded":
    nb = assemble(source, submission)
    with tempfile.TemporaryDirectory(prefix=f"grade-{module}-") as tmp:
      workdir = Path(tmp) / module
      prepare_workdir(Path(source_root) / module, Path(submission_root) / module, workdir)
      run = run_notebook(nb, workdir, *limits(source), on_cell=on_cell)
    tests = score_tests(nb, run)
    if run.status != "completed": status, message = run.status, run.message
  if tests is None: tests = _unexecuted(source, message)
  return {"module": module, "status": status, "message": message,
          "score": sum(t["score"] for t in tests), "max_score": sum(t["max_score"] for t in tests),
          "seconds": round(time.monotonic() - start, 2), "tests": tests}

def grade(modules:list[str], source_root:Path, submission_root:Path, on_module=None, on_cell=None) -> dict:
  results = []
  for module in modules:
    results.append(grade_module(module, source_root, submission_root, on_cell))
    if on_module: on_module(results[-1])
  return {"score": sum(m["score"] for m in results), "max_score": sum(m["max_score"] for m in results), "modules": results}
