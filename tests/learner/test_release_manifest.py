"""Issue 33, findings 10 and 12: the self-check said passed where grading failed. Editing the learner's own `.released`
copy (what `check` builds from) made `check` pass; an answer importing the learner's own my_helpers.py passed
`check --task` and errored in grading; an answer cell turned into markdown was run by grading while `check` said
grading found no code in it. Release now writes a manifest of what it shipped (`.released/manifest.json`), `check`
compares the folder with it, and check and grading agree on a markdown answer cell and say so. On the toy course."""
import json
import shutil
import nbformat
import pytest
from autograder.cli import main
from autograder.core.cells import grade_id
from autograder.core.manifest import MANIFEST, read as read_manifest
from toy_course import answer, edit, notebook, write_toy_course

@pytest.fixture
def released(tmp_path):
  """(solutions, projects) of the toy course with tasks and hints and a support file, released."""
  source = write_toy_course(tmp_path, hints=True)
  for module in ("01_toy", "02_toy"): (source / module / "numbers.txt").write_text("21\n")
  projects = tmp_path / "projects"
  assert main(["release", "--source", str(source), "--target", str(projects)]) == 0
  return source, projects

def solve(projects, module="01_toy"):
  answer(projects, "ans_double", "def double(x):\n    return 2 * x", module)
  answer(projects, "ans_square", "def square(x):\n    return x * x", module)

def grade(tmp_path, source, projects) -> dict:
  assert main(["grade", str(projects), "--source", str(source), "--modules", "01", "--json", str(tmp_path / "r.json"), "--quiet"]) == 0
  return {t["id"]: t["status"] for t in json.loads((tmp_path / "r.json").read_text())["modules"][0]["tests"]}

def test_release_writes_what_it_shipped(released):
  _, projects = released
  shipped = read_manifest(projects / "01_toy")
  assert shipped is not None and set(shipped["files"]) == {"numbers.txt", "hints.b64", "expected.json"} and shipped["answer_files"] == []
  assert (projects / "01_toy" / ".released" / MANIFEST).is_file()

def test_check_says_when_the_released_copy_was_edited(released, capsys):
  _, projects = released
  answer(projects, "ans_double", "def double(x):\n    return 2 * x")        # square is left a stub
  pristine = projects / "01_toy" / ".released" / "01_toy.ipynb"
  nb = nbformat.read(str(pristine), as_version=4)
  for c in nb.cells:
    if grade_id(c) == "test_square": c.source = "pass"                      # the learner weakens the copy check builds from
  nbformat.write(nb, str(pristine))
  assert main(["check", "01", "--projects", str(projects)]) == 1                # it passed every check before
  out = capsys.readouterr().out
  assert ".released/01_toy.ipynb differs from what release shipped" in out and "not what grading runs" in out

def test_check_warns_when_an_answer_imports_a_file_grading_will_not_take(tmp_path, released, capsys):
  source, projects = released
  solve(projects)
  (projects / "01_toy" / "my_helpers.py").write_text("def twice(x):\n    return 2 * x\n")
  answer(projects, "ans_double", "from my_helpers import twice\ndef double(x):\n    return twice(x)")
  (projects / "01_toy" / "numbers.txt").write_text("22\n")
  assert main(["check", "01", "--task", "1.1", "--projects", str(projects)]) == 0        # passes here: the file is here
  out = capsys.readouterr().out
  assert "answer cell ans_double imports my_helpers from my_helpers.py in this folder, which grading does not take" in out
  assert "numbers.txt differs from the file release shipped: grading uses the course's" in out
  assert grade(tmp_path, source, projects)["test_double"] == "error"           # what the note warned of

def test_check_and_grading_agree_on_an_answer_cell_turned_into_markdown(tmp_path, released, capsys):
  source, projects = released
  solve(projects)
  edit(projects, lambda cells: [nbformat.v4.new_markdown_cell(c.source, metadata=c.metadata) if grade_id(c) == "ans_double" else c for c in cells])
  for task in (None, "1.1"):
    assert main(["check", "01", "--projects", str(projects)] + (["--task", task] if task else [])) == 0
    out = capsys.readouterr().out
    assert "answer cell ans_double is now a markdown cell: grading runs its text as code all the same, and so does this check" in out
    assert "passed          test_double" in out
  assert grade(tmp_path, source, projects)["test_double"] == "passed"
