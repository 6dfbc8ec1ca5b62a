"""`autograder lint` on small cells: what a test borrows from an earlier test."""
from autograder.authoring.lint import borrowed_names

def cells(*sources): return [(f"test_{i}", s, True) for i, s in enumerate(sources)]

def test_a_name_bound_after_a_check_of_an_earlier_test_is_borrowed():
  problems = borrowed_names(cells("check_equal(f(1), 2, 'f')\nSTEP = f(2)", "check_equal(g(STEP), 3, 'g')"))
  assert len(problems) == 1 and "test_1: reads `STEP`, which only the test test_0 binds" in problems[0]

def test_what_a_set_up_cell_an_answer_or_the_test_itself_binds_is_not_borrowed():
  setup = [("setup", "STEP = 1", False)]
  assert borrowed_names(setup + cells("check_equal(f(1), 2, 'f')\nSTEP = f(2)", "check_equal(g(STEP), 3, 'g')")) == []
  assert borrowed_names(cells("check_equal(f(1), 2, 'f')\nSTEP = f(2)", "check_equal(g(STEP), 3, 'g')"), answers=["STEP = 4"]) == []
  assert borrowed_names(cells("check_equal(f(1), 2, 'f')\nSTEP = f(2)", "STEP = f(3)\ncheck_equal(g(STEP), 3, 'g')")) == []

def test_a_helper_defined_before_anything_that_can_stop_its_test_is_not_borrowed():
  first = "def helper(x):\n    return f(x) + 1\nLIMIT = 3\ncheck_equal(helper(1), 2, 'helper')\nLATE = f(4)"
  assert borrowed_names(cells(first, "check_equal(helper(LIMIT), 4, 'again')")) == []
  assert len(borrowed_names(cells(first, "check_equal(LATE, 4, 'late')"))) == 1

def test_an_oracle_block_is_not_a_read_of_the_learners_run():
  assert borrowed_names(cells("check_equal(f(1), 2, 'f')\nTWIN = f(2)", "with oracle():\n    want = TWIN\ncheck_equal(g(1), want, 'g')")) == []

def test_a_test_may_declare_what_it_borrows_on_purpose():
  first, second = "check_equal(f(1), 2, 'f')\nRUN = f(2)", "check_equal(RUN, 3, 'run')"
  assert len(borrowed_names(cells(first, second))) == 1
  assert borrowed_names(cells(first, "# borrows: RUN (one expensive run for both)\n" + second)) == []
