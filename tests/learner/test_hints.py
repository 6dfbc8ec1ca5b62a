"""Hints on request: release ships them apart from the notebook, `autograder hint` opens one level at a time, the
record of opened hints is untrusted input, and the self-check and grading report what was opened and which tests
grading extends with hidden checks. On the toy course."""
import pytest
import base64, json
import nbformat
from autograder.cli import main
from autograder.core.cells import grade_id, task_titles
from autograder.core.hints import HINTS_FILE, OPENED_FILE, parse_opened, MAX_OPENED_BYTES
from autograder.core.module import Module, modules_of
from toy_course import answer, notebook

def test_release_ships_the_hints_apart_from_the_notebook(course):
  from autograder.authoring.release import differences        # here, not at the top: nbgrader costs each pytest worker 2 s of collection
  source, projects = course
  starter = nbformat.read(str(notebook(projects)), as_version=4)
  assert not any("Hints:" in c.source for c in starter.cells)
  text = (projects / "01_toy" / HINTS_FILE).read_text()
  assert "Add x to itself" not in text and "Add x to itself" in base64.b64decode("".join(text.split())).decode()
  assert (projects / "01_toy" / ".released" / "01_toy.ipynb").read_text().count("Hints:") == 0
  assert differences(modules_of(source), projects) == []
  (projects / "01_toy" / HINTS_FILE).write_text("changed\n")
  assert differences([Module("01_toy", source)], projects) == [f"01_toy/{HINTS_FILE} (differs)"]
  titles = task_titles(nbformat.read(str(notebook(source)), as_version=4))
  assert sorted(set(titles.values())) == ["Task 1.1", "Task 1.2"]          # a hint cell opens no task
  hidden = [c.metadata.get("autograder", {}).get("hidden_checks") for c in starter.cells if grade_id(c) and grade_id(c).startswith("test_")]
  assert hidden == [True, True]

def test_hints_one_level_at_a_time(course, capsys):
  from autograder.authoring.release import differences
  _, projects = course
  p = ["--projects", str(projects)]
  shown = []
  for ask in ("1.2", "Task 1.2", "task 1.2", "1.2"):
    assert main(["hint", "01", ask, *p]) == 0
    shown.append(capsys.readouterr().out)
  assert "hint 1 of 3" in shown[0] and "A product." in shown[0] and "Multiply" not in shown[0]
  assert "hint 2 of 3" in shown[1] and "# not a level break\n---\n```" in shown[1]      # a --- inside fenced code stays
  assert "hint 3 of 3 (the last one" in shown[2] and "Multiply x by x." in shown[2]
  assert "hint 3 of 3 (the last one" in shown[3]
  assert json.loads((projects / "01_toy" / OPENED_FILE).read_text())["opened"] == {"Task 1.2": 3}
  assert main(["hint", "01_toy", "3.1", *p]) == 1
  assert "tasks with hints: 1.1, 1.2" in capsys.readouterr().out
  (projects / "02_toy" / HINTS_FILE).unlink()
  assert main(["hint", "02", "1.1", *p]) == 1
  assert "02_toy has no hints" in capsys.readouterr().out
  assert differences([Module("01_toy", course[0])], projects) == []                     # the learner's record is not release's business

def test_opened_hints_file_is_untrusted_input():
  assert parse_opened(json.dumps({"opened": {"Task 1.1": 2}})) == {"Task 1.1": 2}
  for bad in ("[", "null", json.dumps({"opened": {"Task 1.1": "2"}}), json.dumps({"opened": {"<script>": 1}}),
              json.dumps({"opened": {"Task 1.1": 10**9}}), json.dumps({"opened": {"Task 1.1": True}}), "[" * 100_000):
    assert parse_opened(bad) == {}
  assert parse_opened(json.dumps({"opened": {"Task 1.1": 1}, "pad": "x" * MAX_OPENED_BYTES})) == {}

@pytest.mark.slow                 # over 4 s: the fast tier stays under 2 minutes (make test runs it)
def test_self_check_and_grading_report_hints_and_hidden_checks(tmp_path, course, capsys):
  source, projects = course
  answer(projects, "ans_double", "def double(x):\n    return 2 * x")
  answer(projects, "ans_square", "def square(x):\n    return x + x")
  assert main(["hint", "01", "1.2", "--projects", str(projects)]) == 0
  capsys.readouterr()
  assert main(["check", "01", "--projects", str(projects)]) == 1
  out = capsys.readouterr().out
  assert "passed          test_double (Task 1.1); grading adds hidden checks on other inputs (2 points); hints opened: 0 of 2" in out
  assert "failed          test_square (Task 1.2): square(3): expected 9, got 6" in out
  assert "ask for a hint: autograder hint 01 1.2 (hints opened: 1 of 3)" in out
  assert "1/2 visible checks passed" in out and "grading adds hidden checks on other inputs to 2 of these 2 tests (5 of 5 points)" in out
  report = tmp_path / "r.json"
  assert main(["grade", str(projects), "--source", str(source), "--modules", "01", "--json", str(report),
               "--markdown", str(tmp_path / "r.md"), "--feedback", str(tmp_path / "fb"), "--quiet"]) == 0
  module = json.loads(report.read_text())["modules"][0]
  assert module["hints_opened"] == {"Task 1.1": [0, 2], "Task 1.2": [1, 3]} and module["score"] == 2
  assert next(t for t in module["tests"] if t["id"] == "test_square")["hint"] == "ask for a hint: autograder hint 01 1.2"
  assert "Task 1.2: 1 of 3" in (tmp_path / "r.md").read_text() and "Task 1.2: 1 of 3" in (tmp_path / "fb" / "feedback.md").read_text()
  (projects / "01_toy" / OPENED_FILE).write_text("{" * 10_000)                 # malformed: nothing opened, nothing breaks
  assert main(["grade", str(projects), "--source", str(source), "--modules", "01", "--json", str(report), "--quiet"]) == 0
  module = json.loads(report.read_text())["modules"][0]
  assert module["hints_opened"] == {"Task 1.1": [0, 2], "Task 1.2": [0, 3]} and module["score"] == 2

def test_a_labelled_hint_heading_is_a_hint_cell_and_an_unrecognised_one_stops_release(tmp_path):
  """Module 08 shipped `#### Hints: Task 5.2 (tensor_cores)`, method and all, in the learner's notebook: the heading
  did not match and release kept the cell. A label in parentheses is now a hint cell of its task; a heading that still
  looks like hints but is none (a heading, a bold line or a plain one) stops release instead of shipping it."""
  from nbformat.v4 import new_markdown_cell, new_notebook
  from autograder.core.hints import collect, unrecognised_hint_headings
  from autograder.authoring.release import BadSettings, release_module
  from toy_course import write_toy_course
  nb = new_notebook(cells=[new_markdown_cell("#### Hints: Task 1.2\none\n\n---\n\ntwo"), new_markdown_cell("#### Hints: Task 1.2 (the second part)\nthree\n\n---\n\nfour")])
  assert collect(nb) == {"Task 1.2": ["one", "two", "three", "four"]} and unrecognised_hint_headings(nb) == []
  for heading in ["#### Hints for Task 1.2", "### Hint: task one", "#### hints: Task 1.2, the second part", "**Hints: Task 1.2**", "__Hint__: the method", "Hints: Task 1.2"]:
    assert unrecognised_hint_headings(new_notebook(cells=[new_markdown_cell(heading + "\nthe method")])) == [heading]
  source = write_toy_course(tmp_path)
  path = notebook(source)
  doctored = nbformat.read(str(path), as_version=4)
  doctored.cells.append(new_markdown_cell("#### Hints for Task 1.2\nthe method"))
  nbformat.write(doctored, str(path))
  with pytest.raises(BadSettings, match="Hints for Task 1.2"): release_module(Module("01_toy", source), tmp_path / "projects")
