"""Learning, not transcribing (issue 23): hints on request, messages that name the cause (the same in self-check and
grading), a check of one task, `progress`, and the self-check saying that grading adds hidden checks. On the toy
course, so it needs no tinygrad."""
import base64, json
import nbformat
import pytest
from autograder.cli import main
from autograder.cells import grade_id, task_titles
from autograder.hints import HINTS_FILE, OPENED_FILE, parse_opened, MAX_OPENED_BYTES
from autograder.release import differences
from autograder.selfcheck import LAST_CHECK
from toy_course import write_toy_course

def notebook(root, module="01_toy"): return root / module / f"{module}.ipynb"

def edit(root, fn, module="01_toy"):
  nb = nbformat.read(str(notebook(root, module)), as_version=4)
  nb.cells = fn(nb.cells)
  nbformat.write(nb, str(notebook(root, module)))

def answer(root, gid, source, module="01_toy"):
  def fn(cells):
    for c in cells:
      if grade_id(c) == gid: c.source = source
    return cells
  edit(root, fn, module)

@pytest.fixture
def course(tmp_path):
  """(solutions, projects) of the toy course with task headings and hint cells, released."""
  source = write_toy_course(tmp_path, hints=True)
  projects = tmp_path / "projects"
  assert main(["release", "--source", str(source), "--target", str(projects)]) == 0
  return source, projects

def test_release_ships_the_hints_apart_from_the_notebook(course):
  source, projects = course
  starter = nbformat.read(str(notebook(projects)), as_version=4)
  assert not any("Hints:" in c.source for c in starter.cells)
  text = (projects / "01_toy" / HINTS_FILE).read_text()
  assert "Add x to itself" not in text and "Add x to itself" in base64.b64decode("".join(text.split())).decode()
  assert (projects / "01_toy" / ".released" / "01_toy.ipynb").read_text().count("Hints:") == 0
  assert differences(["01_toy", "02_toy"], source, projects) == []
  (projects / "01_toy" / HINTS_FILE).write_text("changed\n")
  assert differences(["01_toy"], source, projects) == [f"01_toy/{HINTS_FILE} (differs)"]
  titles = task_titles(nbformat.read(str(notebook(source)), as_version=4))
  assert sorted(set(titles.values())) == ["Task 1.1", "Task 1.2"]          # a hint cell opens no task
  hidden = [c.metadata.get("autograder", {}).get("hidden_checks") for c in starter.cells if grade_id(c) and grade_id(c).startswith("test_")]
  assert hidden == [True, True]

def test_hints_one_level_at_a_time(course, capsys):
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
  assert differences(["01_toy"], course[0], projects) == []                     # the learner's record is not release's business

def test_opened_hints_file_is_untrusted_input():
  assert parse_opened(json.dumps({"opened": {"Task 1.1": 2}})) == {"Task 1.1": 2}
  for bad in ("[", "null", json.dumps({"opened": {"Task 1.1": "2"}}), json.dumps({"opened": {"<script>": 1}}),
              json.dumps({"opened": {"Task 1.1": 10**9}}), json.dumps({"opened": {"Task 1.1": True}}), "[" * 100_000):
    assert parse_opened(bad) == {}
  assert parse_opened(json.dumps({"opened": {"Task 1.1": 1}, "pad": "x" * MAX_OPENED_BYTES})) == {}

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

def test_a_test_that_fails_because_of_another_task_names_it(tmp_path, course, capsys):
  """Task 1.2's square uses Task 1.1's double: a stub there is named, in self-check and in grading alike."""
  source, projects = course
  answer(source, "ans_square", "def square(x):\n    ### BEGIN SOLUTION\n    return double(x) * x // 2\n    ### END SOLUTION")
  answer(projects, "ans_square", "def square(x):\n    return double(x) * x // 2")
  assert main(["check", "01", "--projects", str(projects)]) == 1
  out = capsys.readouterr().out
  assert "not attempted   test_double (Task 1.1): double still raises NotImplementedError" in out
  assert "error           test_square (Task 1.2): depends on Task 1.1, double, which raised NotImplementedError" in out
  report = tmp_path / "r.json"
  assert main(["grade", str(projects), "--source", str(source), "--modules", "01", "--json", str(report), "--quiet"]) == 0
  tests = {t["id"]: t for t in json.loads(report.read_text())["modules"][0]["tests"]}
  assert tests["test_square"]["message"] == "depends on Task 1.1, double, which raised NotImplementedError"
  assert tests["test_double"]["message"].startswith("NotImplementedError: not attempted (double still raises it)")
  answer(projects, "ans_double", "def double(x):\n    return x + 2")               # wrong, but passes its visible check
  assert main(["check", "01", "--projects", str(projects)]) == 1
  assert "it uses double (Task 1.1): a wrong value from there fails this test too" in capsys.readouterr().out
  answer(projects, "ans_double", "def double(x):\n    return x + 1")               # wrong, and its test fails
  assert main(["check", "01", "--projects", str(projects)]) == 1
  assert "it uses double (Task 1.1), whose test fails too: fix that first" in capsys.readouterr().out

def test_grading_explains_a_wrong_value_as_the_self_check_does(tmp_path, capsys):
  """A test that indexes what a check just observed: self-check stops at the check; grading, where checks only
  record, must not report the IndexError that follows but the same check."""
  source = write_toy_course(tmp_path, modules=("01_toy",))
  def doctor(cells):
    for c in cells:
      if grade_id(c) == "ans_double": c.source = "def calls(n):\n    ### BEGIN SOLUTION\n    return ['add'] * n\n    ### END SOLUTION"
      if grade_id(c) == "test_double":
        c.source = "got = calls(2)\ncheck_equal(got, ['add', 'add'], name='the kinds of the calls')\ncheck_equal(got[1], 'add', name='the second')"
    return cells
  edit(source, doctor)
  projects = tmp_path / "projects"
  assert main(["release", "--source", str(source), "--target", str(projects)]) == 0
  answer(projects, "ans_double", "def calls(n):\n    return []")
  assert main(["check", "01", "--projects", str(projects)]) == 1
  said = "the kinds of the calls: expected ['add', 'add'], got []"
  assert said in capsys.readouterr().out
  report = tmp_path / "r.json"
  assert main(["grade", str(projects), "--source", str(source), "--json", str(report), "--quiet"]) == 0
  test = json.loads(report.read_text())["modules"][0]["tests"][0]
  assert test["status"] == "failed" and test["message"] == said

def test_an_error_raised_in_a_library_points_at_the_learners_function(tmp_path, capsys):
  """A library that refuses a function of the learner's (tinygrad: "closures are not supported in pattern
  matchers") raises with no frame of the learner's in the traceback: the self-check still names its line."""
  source = write_toy_course(tmp_path, modules=("01_toy",))
  (source / "01_toy" / "rules.py").write_text("def compile_rule(fn):\n    assert fn.__closure__ is None, 'closures are not supported'\n    return fn\n")
  def doctor(cells):
    for c in cells:
      if grade_id(c) == "ans_double": c.source = "def make_rule(k):\n    ### BEGIN SOLUTION\n    def rule(x): return x * 2\n    return rule\n    ### END SOLUTION"
      if grade_id(c) == "test_double": c.source = "from rules import compile_rule\ncheck_equal(compile_rule(make_rule(2))(3), 6, name='rule(3)')"
    return cells
  edit(source, doctor)
  projects = tmp_path / "projects"
  assert main(["release", "--source", str(source), "--target", str(projects)]) == 0
  answer(projects, "ans_double", "def make_rule(k):\n    def rule(x):\n        return x * k\n    return rule")
  assert main(["check", "01", "--projects", str(projects)]) == 1
  out = capsys.readouterr().out
  assert "AssertionError: closures are not supported" in out
  assert "in your code at ans_double, line 2: def rule(x):" in out

def test_check_of_one_task_and_progress(course, capsys):
  _, projects = course
  answer(projects, "ans_double", "def double(x):\n    return 2 * x")
  p = ["--projects", str(projects)]
  assert main(["progress", *p]) == 0
  assert "01_toy                   never checked" in capsys.readouterr().out
  assert main(["check", "01", "--task", "1.1", *p]) == 0
  out = capsys.readouterr().out
  assert "passed          test_double" in out and "test_square" not in out and "1/1 visible checks passed" in out
  assert main(["check", "01", "--task", "4.2", *p]) == 2
  assert "its tasks: 1.1, 1.2" in capsys.readouterr().err
  assert main(["check", "01", *p]) == 1
  answer(projects, "ans_square", "def square(x):\n    return x * x")
  assert main(["check", "01", "--task", "Task 1.2", *p]) == 0               # updates Task 1.2, keeps Task 1.1's result
  capsys.readouterr()
  last = json.loads((projects / "01_toy" / LAST_CHECK).read_text())
  assert {k: v["status"] for k, v in last["tests"].items()} == {"test_double": "passed", "test_square": "passed"}
  assert main(["progress", "01", *p]) == 0
  out = capsys.readouterr().out
  assert "01_toy                   2/2 visible checks passed (5/5 points before hidden checks)" in out
  assert "Task 1.1   ok       [hints opened: 0 of 2]" in out and "02_toy" not in out

def test_check_of_one_task_runs_only_the_cells_it_needs():
  from nbformat.v4 import new_notebook, new_code_cell, new_markdown_cell
  from toy_course import meta
  from autograder.selfcheck import task_cells
  nb = new_notebook(cells=[
    new_code_cell("import os\nos.environ.setdefault('X', '1')", metadata=meta("setup")),              # 0 set-up: acts
    new_markdown_cell("**Task 1.1**"), new_code_cell("def f(x):\n    return x", metadata=meta("ans_f", solution=True)),
    new_code_cell("data = [f(i) for i in range(3)]"),                                              # 3 needed by 2.1's test
    new_code_cell("slow_demo = sum(range(10**8))"),                                                # 4 not needed
    new_code_cell("check(f(1) == 1, 'f')", metadata=meta("test_f", grade=True, points=1)),         # 5 another task's test
    new_markdown_cell("**Task 2.1**"), new_code_cell("def g(x):\n    return x", metadata=meta("ans_g", solution=True)),
    new_code_cell("check(g(data) == data, 'g')", metadata=meta("test_g", grade=True, points=1)),   # 8
    new_code_cell("after = g(1)")])
  nb.cells.insert(1, new_code_cell("for k in range(3): print(k)"))                                   # 1 a demo before the answers
  assert list(task_cells(nb, "Task 2.1")) == [0, 3, 4, 8, 9]
  assert list(task_cells(nb, "Task 1.1")) == [0, 3, 6]

def test_check_of_one_task_cuts_the_set_up_cell_to_what_it_needs():
  """A set-up statement that stores only names no kept cell reads becomes an empty line (line numbers stay); what acts,
  `import *`, and what a kept statement reads stay."""
  from nbformat.v4 import new_notebook, new_code_cell, new_markdown_cell
  from toy_course import meta
  from autograder.selfcheck import task_cells
  setup = ("import os\nos.environ.setdefault('X', '1')\nimport torch\nimport numpy as np\nfrom math import *\n"
           "try:\n    import json\nexcept ImportError:\n    json = None\nif True:\n    os.environ['Y'] = '2'\n"
           "def helper(x):\n    return np.asarray(x)\nunused = helper(1)\n%matplotlib inline\n"
           "@contextlib.contextmanager\ndef unused_block():\n    yield")
  nb = new_notebook(cells=[new_code_cell(setup, metadata=meta("setup")), new_markdown_cell("**Task 1.1**"),
                           new_code_cell("def f(x):\n    return helper(x)", metadata=meta("ans_f", solution=True)),
                           new_code_cell("check(f(1) == 1, 'f')", metadata=meta("test_f", grade=True, points=1))])
  cut = task_cells(nb, "Task 1.1")[0].splitlines()
  assert len(cut) == len(setup.splitlines())
  kept = {line for line in cut if line}
  assert kept == {"import os", "os.environ.setdefault('X', '1')", "import numpy as np", "from math import *", "if True:",
                  "    os.environ['Y'] = '2'", "def helper(x):", "    return np.asarray(x)"}, kept

def test_dependency_audit_finds_a_hidden_test_that_needs_another_task(tmp_path):
  """scripts/dependency_audit.py: a hidden check of Task 1.2 that calls Task 1.1's double, where the visible check
  does not, is found by stubbing double."""
  import sys
  sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent.parent / "scripts"))
  from dependency_audit import audit
  source = write_toy_course(tmp_path, modules=("01_toy",), hints=True)
  answer(source, "test_square", "check_equal(square(3), 9, name='square(3)')\n### BEGIN HIDDEN TESTS\n"
                                "check_equal(square(double(2)), 16, name='square(4)')\n### END HIDDEN TESTS")
  found = audit("01_toy", source, log=lambda *a: None)
  assert len(found) == 1 and found[0].startswith("test_square (Task 1.2) fails in grading") and "with ans_double (Task 1.1) a stub" in found[0]

from autograder.course import REPO, module_names, notebook_path
@pytest.mark.parametrize("module", module_names(REPO / "solutions"))
def test_hint_cells_are_well_formed_and_do_not_hold_the_answer(module):
  """Each hint cell names a task that has a test, has at least two levels, and quotes no line of a solution (the last
  level is close to the method, not the answer). Reads the source notebooks only: no run."""
  from autograder.assemble import read_notebook
  from autograder.cells import BEGIN_SOLUTION, END_SOLUTION, is_answer
  from autograder.hints import hint_task, levels
  nb = read_notebook(notebook_path(REPO / "solutions", module))
  tasks = set(task_titles(nb).values())
  solution_lines, on = set(), False
  for c in nb.cells:
    if not is_answer(c): continue
    for line in c.source.splitlines():
      if BEGIN_SOLUTION in line: on = True
      elif END_SOLUTION in line: on = False
      elif on and len(line.strip()) >= 25 and not line.strip().startswith("#"): solution_lines.add(line.strip())
  for c in nb.cells:
    if (task := hint_task(c)) is None: continue
    assert task in tasks, f"{module}: hints for {task}, which has no test cell"
    assert len(levels(c)) >= 2, f"{module}: {task} has {len(levels(c))} hint level(s); write at least two"
    quoted = [line for line in c.source.splitlines() if line.strip() in solution_lines]
    assert not quoted, f"{module}: the hints of {task} quote the solution: {quoted[:2]}"

def test_an_empty_cell_does_not_shift_where_an_error_is_located(course, capsys):
  """nbclient does not send an empty cell to the kernel, so it takes no In[n]: the cells after it keep their place."""
  _, projects = course
  answer(projects, "ans_double", "")
  answer(projects, "ans_square", "def square(x):\n    y = x\n    return x * undefined_name")
  assert main(["check", "01", "--projects", str(projects)]) == 1
  assert "in your code at ans_square, line 3: return x * undefined_name" in capsys.readouterr().out
