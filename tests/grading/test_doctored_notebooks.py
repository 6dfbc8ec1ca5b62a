"""The grader survives whatever a learner does to a notebook: each doctored submission gets the right status, the
grader exits 0, and the other module is still graded; isolated tests run where no answer cell ran. On the toy course."""
import json, shutil
import nbformat
import pytest
from autograder.cli import main
from autograder.core.cells import grade_id
from toy_course import edit, notebook, write_toy_course

@pytest.fixture
def course(tmp_path):
  source = write_toy_course(tmp_path)
  submission = tmp_path / "submission"
  shutil.copytree(source, submission)                 # the solutions as a submission: full marks unless doctored
  return source, submission

def set_answer(cells, gid, source):
  for c in cells:
    if grade_id(c) == gid: c.source = source
  return cells

def run_grade(tmp_path, source, submission, *extra):
  out = tmp_path / "report.json"
  assert main(["grade", str(submission), "--source", str(source), "--json", str(out), *extra]) == 0
  report = json.loads(out.read_text())
  return {m["module"]: m for m in report["modules"]}, report

def statuses(module): return {t["id"]: t["status"] for t in module["tests"]}

def test_untouched_solution_gets_full_marks(tmp_path, course):
  modules, report = run_grade(tmp_path, *course)
  assert report["score"] == report["max_score"] == 10
  assert all(m["status"] == "graded" for m in modules.values())

def test_invalid_json_is_unreadable_and_the_other_module_is_graded(tmp_path, course):
  source, submission = course
  notebook(submission).write_text('{"cells": [')
  modules, _ = run_grade(tmp_path, source, submission)
  assert modules["01_toy"]["status"] == "unreadable" and modules["01_toy"]["score"] == 0
  assert set(statuses(modules["01_toy"]).values()) == {"not_run"}
  assert modules["02_toy"]["status"] == "graded" and modules["02_toy"]["score"] == 5

def test_missing_notebook(tmp_path, course):
  source, submission = course
  notebook(submission).unlink()
  modules, _ = run_grade(tmp_path, source, submission)
  assert modules["01_toy"]["status"] == "missing" and modules["02_toy"]["score"] == 5

@pytest.mark.parametrize("doctor", [
  lambda cells: [c for c in cells if grade_id(c) != "test_square"],                       # deleted test cell
  lambda cells: set_answer(cells, "test_square", "pass"),                                  # test replaced by pass
  lambda cells: cells[::-1],                                                               # re-ordered
  lambda cells: cells + [nbformat.v4.new_code_cell("double = lambda x: 0")],               # extra cell
  lambda cells: [nbformat.v4.new_markdown_cell(c.source) if grade_id(c) == "test_double" else c for c in cells],  # retyped
  lambda cells: cells + [c for c in cells if grade_id(c) == "test_double"],                # duplicated test
])
def test_learner_edits_to_test_cells_change_nothing(tmp_path, course, doctor):
  source, submission = course
  edit(submission, doctor)
  modules, report = run_grade(tmp_path, source, submission, "--modules", "01")     # only 01 is doctored: a kernel less
  assert report["score"] == report["max_score"] == 5, modules

@pytest.mark.slow                 # over 4 s: the fast tier stays under 2 minutes (make test runs it)
def test_stripped_metadata_and_renamed_ids_still_find_the_answers(tmp_path, course):
  source, submission = course
  def strip(cells):
    for c in cells:
      if grade_id(c) == "ans_double": c.metadata = {}
      elif grade_id(c) == "ans_square": c.metadata["nbgrader"]["grade_id"] = "my_square"
    return cells
  edit(submission, strip)
  modules, report = run_grade(tmp_path, source, submission)
  assert report["score"] == 10, modules

@pytest.mark.slow                 # over 4 s: the fast tier stays under 2 minutes (make test runs it)
def test_endless_loop_in_an_answer_times_out(tmp_path):
  source = write_toy_course(tmp_path, cell_timeout=4)       # the loop waits out a cell's limit: 4 s, not the toy's 10
  submission = tmp_path / "submission"
  shutil.copytree(source, submission)
  edit(submission, lambda cells: set_answer(cells, "ans_double", "while True: pass"))
  modules, _ = run_grade(tmp_path, source, submission)
  m = modules["01_toy"]
  assert m["status"] == "timeout"
  assert statuses(m) == {"test_double": "error", "test_square": "passed"}     # interrupted, and the rest still ran
  assert modules["02_toy"]["score"] == 5

def test_exit_in_an_answer_is_a_dead_kernel(tmp_path, course):
  source, submission = course
  edit(submission, lambda cells: set_answer(cells, "ans_square", "import os\nos._exit(0)"))
  modules, _ = run_grade(tmp_path, source, submission)
  m = modules["01_toy"]
  assert m["status"] == "kernel_died" and m["score"] == 2
  assert statuses(m) == {"test_double": "passed", "test_square": "not_run"}
  assert modules["02_toy"]["score"] == 5

def test_a_failing_answer_reports_the_check_message_not_the_test(tmp_path, course, capsys):
  source, submission = course
  edit(submission, lambda cells: set_answer(cells, "ans_double", "def double(x):\n    return x + 2"))
  modules, report = run_grade(tmp_path, source, submission, "--markdown", str(tmp_path / "r.md"), "--modules", "01")
  test = next(t for t in modules["01_toy"]["tests"] if t["id"] == "test_double")
  assert test["status"] == "failed" and test["message"] == "a hidden check: got 23"  # hidden: no expected value, and no label that names its input
  printed = capsys.readouterr()
  everything = printed.out + printed.err + json.dumps(report) + (tmp_path / "r.md").read_text()
  for secret in ("HIDDEN", "check_equal(double(21)", "double(21)", "Traceback", "square(-7)"):
    assert secret not in everything

def test_unknown_module_is_a_usage_error(tmp_path, course):
  source, submission = course
  assert main(["grade", str(submission), "--source", str(source), "--modules", "42"]) == 2

@pytest.mark.slow                 # over 4 s: the fast tier stays under 2 minutes (make test runs it)
def test_isolated_tests_run_in_a_kernel_where_no_answer_cell_ran(tmp_path, course):
  """A test marked `autograder.isolated` gets the answers' sources as text (answer_source) in a kernel of its own:
  what an answer cell does to the notebook's namespace cannot reach it."""
  source, submission = course
  for root in (source, submission):
    path = root / "01_toy" / "01_toy.ipynb"
    nb = nbformat.read(str(path), as_version=4)
    for c in nb.cells:
      if grade_id(c) == "test_double":
        c.metadata["autograder"] = {"isolated": True}
        c.source = ("from autograder import answer_source\nns = {}\nexec(answer_source('double'), ns)\n"
                    "check_equal(ns['double'](2), 4, name='double(2)')\n### BEGIN HIDDEN TESTS\n"
                    "check_equal(ns['double'](21), 42, name='double(21)')\n### END HIDDEN TESTS")
    nbformat.write(nb, str(path))
  edit(submission, lambda cells: set_answer(cells, "ans_double", "def double(x):\n    return 2 * x\ncheck_equal = lambda *a, **k: None"))
  modules, _ = run_grade(tmp_path, source, submission)
  assert statuses(modules["01_toy"]) == {"test_double": "passed", "test_square": "failed"}   # the rebinding only hurts the test beside it
  edit(submission, lambda cells: set_answer(cells, "ans_double", "def double(x):\n    return x + 2"))
  modules, _ = run_grade(tmp_path, source, submission)
  assert statuses(modules["01_toy"])["test_double"] == "failed"

POISON = {  # issue 33, findings 4 and 5: valid JSON (nbformat reads it), but no reader of metadata expected it
  "nbgrader null": (lambda nb: nb["cells"][1]["metadata"].__setitem__("nbgrader", None), "metadata.nbgrader is null"),
  "nbgrader a list": (lambda nb: nb["cells"][1]["metadata"].__setitem__("nbgrader", ["x"]), "metadata.nbgrader is a list"),
  "metadata a string": (lambda nb: nb["cells"][2].__setitem__("metadata", "x"), "its metadata is str"),
  "grade_id a number": (lambda nb: nb["cells"][2]["metadata"]["nbgrader"].__setitem__("grade_id", 7), "grade_id is int"),
  "points a string": (lambda nb: nb["cells"][3]["metadata"]["nbgrader"].__setitem__("points", "two"), "points is str"),
  "autograder a list": (lambda nb: nb["cells"][3]["metadata"].__setitem__("autograder", [1]), "metadata.autograder is a list"),
  "a lone surrogate": (lambda nb: nb["cells"][2].__setitem__("source", "def double(x):\n    return 2 * x  # \ud800"), "cannot be encoded as UTF-8"),
}

@pytest.mark.slow                 # over 4 s: the fast tier stays under 2 minutes (make test runs it)
@pytest.mark.parametrize("poison", POISON, ids=list(POISON))
def test_malformed_metadata_is_unreadable_and_costs_no_other_module(tmp_path, course, poison):
  """A malformed cell in module 02 crashed `grade`: the learner's solved module 01 became grader_error 0/0. Now 02 is
  unreadable, with the reason, and 01 keeps its points."""
  source, submission = course
  path = notebook(submission, "02_toy")
  nb = json.loads(path.read_text()); POISON[poison][0](nb); path.write_text(json.dumps(nb))
  modules, report = run_grade(tmp_path, source, submission)
  assert modules["01_toy"]["status"] == "graded" and modules["01_toy"]["score"] == 5
  assert modules["02_toy"]["status"] == "unreadable" and POISON[poison][1] in modules["02_toy"]["message"], modules["02_toy"]["message"]

def test_a_grader_failure_in_one_module_is_that_modules_row(tmp_path, course, monkeypatch):
  """Whatever raises while one module is graded (a bug of ours) becomes that module's grader_error row, named by
  the exception's type only; the other modules are graded."""
  from autograder.grading import grade as grading
  real = grading.grade_module
  def flaky(module, *args, **kwargs):
    if module.name == "02_toy": raise KeyError("something the learner wrote")
    return real(module, *args, **kwargs)
  monkeypatch.setattr(grading, "grade_module", flaky)
  modules, report = run_grade(tmp_path, *course)
  assert modules["01_toy"]["score"] == 5 and modules["02_toy"]["status"] == "grader_error"
  assert "KeyError" in modules["02_toy"]["message"] and "something" not in modules["02_toy"]["message"]
  assert {t["status"] for t in modules["02_toy"]["tests"]} == {"not_run"} and modules["02_toy"]["max_score"] == 5
