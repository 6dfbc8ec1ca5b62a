"""`autograder lint` on small cells: what a test borrows from an earlier test, what only the oracle may compute."""
import re
import pytest
from nbformat.v4 import new_code_cell, new_notebook
from autograder.authoring import lint as lint_module
from autograder.authoring.lint import borrowed_names, lint, lint_notebook, parse

def cells(*sources): return [parse(f"test_{i}", s, True) for i, s in enumerate(sources)]

def test_a_name_bound_after_a_check_of_an_earlier_test_is_borrowed():
  problems = borrowed_names(cells("check_equal(f(1), 2, 'f')\nSTEP = f(2)", "check_equal(g(STEP), 3, 'g')"))
  assert len(problems) == 1 and "test_1: reads `STEP`, which only the test test_0 binds" in problems[0]

def test_what_a_set_up_cell_an_answer_or_the_test_itself_binds_is_not_borrowed():
  setup = [parse("setup", "STEP = 1")]
  assert borrowed_names(setup + cells("check_equal(f(1), 2, 'f')\nSTEP = f(2)", "check_equal(g(STEP), 3, 'g')")) == []
  assert borrowed_names(cells("check_equal(f(1), 2, 'f')\nSTEP = f(2)", "check_equal(g(STEP), 3, 'g')"), answers=[parse("answer", "STEP = 4")]) == []
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

@pytest.mark.parametrize("source, answer, found", [   # found: the names of the problems, as `name` (kind)
  # names of another scope, which the lint once took for the cell's own:
  ("for i in range(3): step()\ncheck_equal(got, [i * i for i in range(3)], 'squares')", "", []),   # the comprehension's i is its own
  ("class K:\n    W = 1\ncheck_equal(got, W, 'w')", "", []),                                      # K.W is not the W the check reads
  ("W = f(1)\nsquare = lambda W: W * W\ncheck_equal(got, W, 'w')", "", ["W expected"]),             # nor is the lambda's parameter
  ("ref = REFERENCE['matmul']\ncheck_range(x, ref['lo'], ref['hi'], 'r')",                        # 08's test_gap_cuda: an answer's
   "def sweep():\n    ref = run()\n    return ref", ["ref expected"]),                            # local ref is not this one
  ("with oracle():\n    e = f(1)\ntry:\n    risky()\nexcept ValueError as e:\n    print(e)", "", []),  # the learner's run binds its own e
  # what the lint found before and still finds:
  ("with oracle():\n    want = f(1)\ncheck_equal(got, want + 1, 'w')\nprint(want)", "", ["want oracle"]),
  ("total = 0\nfor v in xs: total += v\ncheck_equal(got, total, 't')", "", ["total expected"]),       # += only changes total
  ("def fill():\n    global G\n    G = 1\nfill()\ncheck_equal(got, G, 'g')", "", ["G expected"]),     # fill sets the module's G
  ("total = 0\nfor v in xs: total += v\ncheck_equal(got, total, 't')", "print(total)", []),         # an answer reads it
])
def test_what_only_the_oracle_computes_or_uses(source, answer, found):
  label = lambda p: re.search(r"`(\w+)`", p).group(1) + (" expected" if "only used as an expected value" in p else " oracle" if "computed inside" in p else p)
  assert [label(p) for p in lint(cells(source), [parse("answer", answer)])] == found

def test_each_cell_is_parsed_once(monkeypatch):
  calls = []
  monkeypatch.setattr(lint_module, "python_source", lambda s: calls.append(s) or s)
  nb = new_notebook(cells=[new_code_cell("import math"), new_code_cell("with oracle():\n    want = math.pi\ncheck_close(got, want, name='pi')"),
                           new_code_cell("x = (")])
  problems, notes = lint_notebook(nb)
  assert len(calls) == 3 and notes == [] and problems == ["cell 3: does not parse ('(' was never closed, line 1)",
    "cell 1: `math` is only needed by the oracle (inside `with oracle():` or in an expected argument): define it inside `with oracle():`, or the learner's copy shows it"]
