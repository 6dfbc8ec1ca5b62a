"""Messages that find the cause of a failing test, the same in self-check and grading: another task's function that
raised or that the test uses, the check that failed rather than the error after it, the learner's line behind an
error raised inside a library. On the toy course."""
import pytest
import json
from autograder.cli import main
from autograder.core.cells import grade_id
from toy_course import answer, edit, write_toy_course

@pytest.mark.slow                 # over 4 s: the fast tier stays under 2 minutes (make test runs it)
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

def test_an_empty_cell_does_not_shift_where_an_error_is_located(course, capsys):
  """nbclient does not send an empty cell to the kernel, so it takes no In[n]: the cells after it keep their place."""
  _, projects = course
  answer(projects, "ans_double", "")
  answer(projects, "ans_square", "def square(x):\n    y = x\n    return x * undefined_name")
  assert main(["check", "01", "--projects", str(projects)]) == 1
  assert "in your code at ans_square, line 3: return x * undefined_name" in capsys.readouterr().out

def test_a_loop_variable_does_not_carry_another_tasks_answer_into_a_test():
  """Module 11's GuardedJit test said "it uses memory_report (Task 1.2)": a demo cell had looped with `name` over
  memory_report's rows, and the test's own `for name in ...` rebinds `name` before reading it."""
  from nbformat.v4 import new_notebook, new_code_cell, new_markdown_cell
  from autograder.core.cause import task_uses
  from toy_course import meta
  nb = new_notebook(cells=[
    new_markdown_cell("**Task 1.1**"), new_code_cell("def report(x):\n    return [x]", metadata=meta("ans_report", solution=True)),
    new_code_cell("for name in report(3): print(name)"),                                              # 2 a demo: name comes from report
    new_markdown_cell("**Task 2.1**"), new_code_cell("def guard(f):\n    return f", metadata=meta("ans_guard", solution=True)),
    new_code_cell("check(guard(len)(name) == 1, name)", metadata=meta("test_reads_name", grade=True, points=1)),   # 5 reads the demo's name
    new_code_cell("for name in ['a', 'b']:\n    check(guard(len)(name) == 1, name)", metadata=meta("test_guard", grade=True, points=1))])
  assert task_uses(nb)[5] == {"Task 1.1": "report"} and task_uses(nb)[6] == {}

def test_a_test_is_told_about_the_answers_its_own_function_uses_in_the_learners_code():
  """Module 10's test_plan_formats said "it uses q8_0_dequantize (Task 5.1), dequantize_int8 (Task 4.1)": the
  solution's choose_format, of the same task, calls them, plan_formats does not; and 02's test_my_conv2d named
  as_strided (Task 3.2) because the solution's my_conv2d calls it, a method the learner's own code may not use.
  What a test is told follows the functions it calls, as the learner wrote them."""
  import copy
  from nbformat.v4 import new_notebook, new_code_cell, new_markdown_cell
  from autograder.core.cause import task_uses
  from toy_course import meta
  solution = new_notebook(cells=[
    new_markdown_cell("**Task 1.1**"), new_code_cell("def quantize(x):\n    return round(x)", metadata=meta("ans_quantize", solution=True)),
    new_markdown_cell("**Task 2.1**"), new_code_cell("def choose(x):\n    return quantize(x)", metadata=meta("ans_choose", solution=True)),
    new_code_cell("def plan(t):\n    return sorted(t)", metadata=meta("ans_plan", solution=True)),
    new_code_cell("check(choose(2.4) == 2)", metadata=meta("test_choose", grade=True, points=1)),      # 5
    new_code_cell("check(plan([2, 1]) == [1, 2])", metadata=meta("test_plan", grade=True, points=1))])  # 6
  uses = task_uses(solution)
  assert uses[5] == {"Task 1.1": "quantize"} and uses[6] == {}
  learners = copy.deepcopy(solution)
  learners.cells[3].source = "def choose(x):\n    return int(x + 0.5)\ndef helper_with_a_message_in_its_name(): pass"
  assert task_uses(learners, solution)[5] == {}                  # their choose calls no other task's answer
  learners.cells[4].source = "def plan(t):\n    return sorted(quantize(v) for v in t)"
  assert task_uses(learners, solution)[6] == {"Task 1.1": "quantize"}

def test_a_function_whose_own_test_passes_is_not_blamed_for_another_function_of_its_task():
  """Module 10's 5.3a said "it uses quantize_int8 (Task 4.1), whose test fails too": Task 4.1's Int8Net test had
  failed, quantize_int8's own test had passed, and the cause lay elsewhere. Blame follows the functions the failing
  tests name, not their task."""
  from nbformat.v4 import new_notebook, new_code_cell, new_markdown_cell
  from autograder.core.cause import explain
  from autograder.core.results import TestResult, TestStatus
  from toy_course import meta
  nb = new_notebook(cells=[
    new_markdown_cell("**Task 1.1**"),
    new_code_cell("def quantize(x):\n    return round(x)", metadata=meta("ans_quantize", solution=True)),
    new_code_cell("def net(x):\n    return quantize(x) + 1", metadata=meta("ans_net", solution=True)),
    new_code_cell("check(quantize(2.4) == 2)", metadata=meta("test_quantize", grade=True, points=1)),     # 3
    new_code_cell("check(net(2.4) == 3)", metadata=meta("test_net", grade=True, points=1)),               # 4
    new_markdown_cell("**Task 2.1**"),
    new_code_cell("def choose(x):\n    return quantize(x)", metadata=meta("ans_choose", solution=True)),
    new_code_cell("check(choose(2.4) == 2)", metadata=meta("test_choose", grade=True, points=1))])        # 7
  def results(quantize_passes:bool):
    status = lambda ok: TestStatus.PASSED if ok else TestStatus.FAILED
    return [TestResult(id="test_quantize", task="Task 1.1", max_score=1, status=status(quantize_passes)),
            TestResult(id="test_net", task="Task 1.1", max_score=1, status=status(False)),
            TestResult(id="test_choose", task="Task 2.1", max_score=1, status=status(False), message="CheckFailed: choose(2.4)")]
  tests = results(quantize_passes=True)
  explain(tests, {}, nb)
  assert tests[2].message == "CheckFailed: choose(2.4); it uses quantize (Task 1.1): a wrong value from there fails this test too"
  tests = results(quantize_passes=False)
  explain(tests, {}, nb)
  assert tests[2].message == "CheckFailed: choose(2.4); it uses quantize (Task 1.1), whose test fails too: fix that first"
  tests = results(quantize_passes=True)
  explain(tests, {}, nb, failing_elsewhere={"Task 1.1"})      # a check of one task: the other task's tests are not known
  assert tests[2].message.endswith("it uses quantize (Task 1.1), whose test fails too: fix that first")
