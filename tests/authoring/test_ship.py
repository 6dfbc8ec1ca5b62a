"""Release ships what a visible check expects, never how the oracle computes it: the learner's copy has no
`with oracle():` block and no computed expected argument (`...` stands there), and the expected values of its visible
checks lie beside the notebook, read by the checks themselves. A self-check and a cell run by hand in JupyterLab say
what they said before (the same messages), and a hidden check's value never ships. On the toy course."""
import json
import nbformat
import pytest
from nbformat.v4 import new_notebook, new_code_cell
from autograder.cli import main
from autograder.core.cells import grade_id
from autograder.core.execute import run_notebook
from autograder.notebook.shipped import EXPECTED_FILE
from toy_course import answer, notebook, write_toy_course

TEST = ("x = 5\nwith oracle():                 # the oracle: twice x\n    want = x + x\n"
        "check_equal(double(x), want, name='double(5)')\ncheck_equal(double(2), 4, name='double(2)')\n"
        "for n in [3, 7]:\n    with oracle():\n        w = n * 2\n    check_equal(double(n), w, name=f'double({n})')\n"
        "with machine_dependent('a value of this machine'):\n    with oracle():\n        m = x * 2\n    check_equal(double(x), m, name='machine')\n"
        "### BEGIN HIDDEN TESTS\nwith oracle():\n    secret = 4242\ncheck_equal(double(2121), secret, name='double(2121)')\n### END HIDDEN TESTS")

@pytest.fixture
def course(tmp_path):
  source = write_toy_course(tmp_path, modules=("01_toy",))
  answer(source, "setup", "from autograder import check_equal, check, oracle, machine_dependent")
  answer(source, "test_double", TEST)
  projects = tmp_path / "projects"
  assert main(["release", "--source", str(source), "--target", str(projects)]) == 0
  return source, projects

def released_test(projects) -> str:
  return next(c.source for c in nbformat.read(str(notebook(projects)), as_version=4).cells if grade_id(c) == "test_double")

def test_the_learners_copy_shows_what_and_ships_the_values(course):
  source, projects = course
  cell = released_test(projects)
  assert "oracle" not in cell and "x + x" not in cell and "n * 2" not in cell and "4242" not in cell
  assert "check_equal(double(x), ..., name='double(5)')" in cell and "check_equal(double(2), 4, name='double(2)')" in cell
  shipped = (projects / "01_toy" / EXPECTED_FILE).read_text()
  values = json.loads(shipped)["expected"]["test_double"]
  assert sorted(values.values()) == [[6, 14], [10]] and "4242" not in shipped       # every cut visible check (double(2) shows its 4), no hidden one
  assert "check_equal(double(x), ..., name='machine')" in cell                            # compared when graded only: nothing ships
  assert (projects / "01_toy" / ".released" / "01_toy.ipynb").read_text().count("...,") == 3
  again = projects.parent / "again"
  assert main(["release", "--source", str(source), "--target", str(again)]) == 0
  assert (again / "01_toy" / EXPECTED_FILE).read_text() == shipped                        # the same reference, the same bytes
  assert main(["release", "--check", "--source", str(source), "--target", str(projects)]) == 0

@pytest.mark.slow                 # over 4 s: the fast tier stays under 2 minutes (make test runs it)
def test_self_check_and_a_cell_run_by_hand_compare_with_the_shipped_values(course, capsys, tmp_path):
  _, projects = course
  answer(projects, "ans_double", "def double(x):\n    return x + 2")
  assert main(["check", "01", "--projects", str(projects)]) == 1
  assert "failed          test_double (Toy module 1): double(5): expected 10, got 7" in capsys.readouterr().out
  answer(projects, "ans_double", "def double(x):\n    return 2 * x")
  main(["check", "01", "--projects", str(projects)])
  assert "passed          test_double" in capsys.readouterr().out
  answer(projects, "ans_double", "def double(x):\n    return x * x")          # (x * x: the machine-dependent check does not compare)
  nb = nbformat.read(str(notebook(projects)), as_version=4)                               # as JupyterLab runs it: no grader
  run = run_notebook(nb, projects / "01_toy", 30, 60)
  test = next(c for c in nb.cells if grade_id(c) == "test_double")
  errors = [o for o in test.outputs if o.output_type == "error"]
  assert errors and errors[0].ename == "CheckFailed" and "double(5): expected 10, got 25" in errors[0].evalue, run.replies
  nb.cells = [c for c in nb.cells if grade_id(c) in ("setup", "ans_double")] + [new_code_cell("x = 5\ncheck_equal(double(x), ..., name='edited')")]
  run_notebook(nb, projects / "01_toy", 30, 60)
  edited = [o for o in nb.cells[-1].outputs if o.output_type == "error"][0]
  assert edited.ename == "NotShipped" and "cell whose text changed is not known" in edited.evalue

def test_a_missing_file_says_so():
  nb = new_notebook(cells=[new_code_cell("from autograder import check_equal\ncheck_equal(1, ..., name='one')")])
  import tempfile, pathlib
  with tempfile.TemporaryDirectory() as tmp:
    run_notebook(nb, pathlib.Path(tmp), 30, 60)
  error = [o for o in nb.cells[0].outputs if o.output_type == "error"][0]
  assert error.ename == "NotShipped" and EXPECTED_FILE in error.evalue
