"""The self-check builds the notebook as grading does, says what grading will ignore, names the cell that broke the
tests after it, and points at the learner's own line. On the toy course."""
import shutil
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

def test_self_check_points_at_the_learners_line(tmp_path, course, capsys):
  source, submission = course
  edit(submission, lambda cells: set_answer(cells, "ans_square", "def square(x):\n    y = x\n    return x * undefined_name"))
  assert main(["check", "01", "--projects", str(submission)]) == 1
  out = capsys.readouterr().out
  assert "passed          test_double" in out
  assert "error           test_square" in out and "NameError" in out
  assert "in your code at ans_square, line 3: return x * undefined_name" in out

def test_self_check_says_which_cell_broke_the_tests_after_it(tmp_path, course, capsys):
  """A cell that raises (a set-up cell missing its data, an answer cell that crashes) is named before the tests."""
  source, submission = course
  edit(submission, lambda cells: set_answer(cells, "ans_double", "raise OSError('no data here')\ndef double(x): return 2 * x"))
  assert main(["check", "01", "--projects", str(submission)]) == 1
  out = capsys.readouterr().out
  assert "note: cell ans_double (your answer) raised OSError: no data here; the tests after it may fail because of it" in out
  assert out.index("raised OSError") < out.index("test_double")

def test_task_titles_skip_comments_in_fenced_code():
  from autograder.core.cells import headings
  assert headings("## Part A\n```python\n# not a heading\n```\ntext") == ["Part A"]

def test_self_check_builds_like_grading_and_says_what_grading_ignores(tmp_path, capsys):
  """The learner's notebook is rebuilt from the released starter: their edits to a test cell do not count (as in
  grading), and they are told about code outside the answer cells and answer cells whose type or id changed."""
  source = write_toy_course(tmp_path)
  projects = tmp_path / "projects"
  assert main(["release", "--source", str(source), "--target", str(projects)]) == 0
  def doctor(cells):
    for c in cells:
      if grade_id(c) == "ans_double": c.source = "def double(x):\n    return 2 * x"
      if grade_id(c) == "ans_square": c.metadata["nbgrader"]["grade_id"] = "my_square"; c.source = "def square(x):\n    return x * x"
      if grade_id(c) == "test_double": c.source = "pass"                      # a weakened test: grading runs the released one
    return cells + [nbformat.v4.new_code_cell("double = lambda x: 4")]
  edit(projects, doctor)
  nb = nbformat.read(str(notebook(projects)), as_version=4)
  nb.cells = [nbformat.v4.new_markdown_cell(c.source, metadata=c.metadata) if grade_id(c) == "my_square" else c for c in nb.cells]
  nbformat.write(nb, str(notebook(projects)))
  assert main(["check", "01", "--projects", str(projects)]) == 1
  out = capsys.readouterr().out
  assert "cell test_double differs from the released one: grading runs the released cell" in out
  assert "code outside the answer cells: grading ignores it" in out and "'double = lambda x: 4'" in out
  assert "no answer cell ans_square" in out
  assert "passed          test_double" in out and "not attempted   test_square" in out

LAST_CHECKS = ['{"tests": {"test_double": 3}}', '{"tests": {"test_double": {"status": [1], "score": "x", "message": {"a": 1}, "task": 7}}}',
               '{"tests": []}', '[' * 100000, '\xff\xfe not utf-8', '{"tests": {"t": {"status": "passed", "score": 1e400}}}']

@pytest.mark.parametrize("text", LAST_CHECKS)
def test_progress_never_crashes_on_what_a_folder_holds(tmp_path, course, capsys, text):
  """Issue 33, finding 4: a malformed .last_check.json crashed `progress`. A learner's folder is untrusted input."""
  source, submission = course
  (submission / "01_toy" / ".last_check.json").write_bytes(text.encode("latin-1") if text.startswith("\xff") else text.encode())
  (submission / "02_toy" / "hints.b64").write_text("eyJ0YXNrcyI6IFsxLCAyXX0=\n")              # {"tasks": [1, 2]}
  assert main(["progress", "--projects", str(submission)]) == 0
  out = capsys.readouterr().out
  assert "01_toy" in out and "02_toy" in out and "Traceback" not in out

def test_check_says_why_a_malformed_notebook_cannot_be_read(tmp_path, course, capsys):
  """`check` read the same metadata grading does: a null `nbgrader` table crashed it. Now the module is unreadable, with
  the reason, and the other module is checked."""
  import json
  source, submission = course
  path = notebook(submission)
  nb = json.loads(path.read_text()); nb["cells"][2]["metadata"]["nbgrader"] = None; path.write_text(json.dumps(nb))
  assert main(["check", "--projects", str(submission)]) == 1
  out = capsys.readouterr().out
  assert "cannot read" in out and "cell 3: metadata.nbgrader is null" in out and "passed          test_square (Toy module 2)" in out
