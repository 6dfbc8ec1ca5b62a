"""Issue 44, item 3: a failing check of a graded run shows the learner's value only as numbers and shapes the grader
formats itself (notebook/compare.py, `figure`), at a bounded precision: never a learner object's repr, str, key or
class name. And the hidden part of the running test cell is not in the kernel's history (In, _ih, _i<N>, the raw
history, linecache) while the learner's code runs. Before: a Tensor subclass's repr carried 58 of 77 hidden numbers of
module 12 out through visible checks (tests/grading/test_attacks_on_the_barriers.py grades that attack)."""
import json, shutil
import numpy as np
import nbformat
import pytest
from autograder.cli import main
from autograder.core.cells import grade_id
from autograder.core.sandbox import available
from autograder.notebook.checks import _blank_hidden
from autograder.notebook.compare import ANOTHER_CLASS, compare, encode
from toy_course import edit, write_toy_course

class Leaky:
  def __repr__(self): return "2101 0.5 500000.0 the hidden inputs"

@pytest.mark.parametrize("actual, expected", [
  (Leaky(), np.ones(3, np.float32)), ("the hidden inputs 2101", "x"), (["the", "hidden", 2101], [1, 2, 3]),
  ({"2101 hidden": 1}, {"a": 1}), ({"2101 hidden"}, {"a"}), (Leaky, int),
])
def test_a_graded_message_shows_no_text_of_the_learners(actual, expected):
  for kind in ("equal", "close", "type", "set", "contains", "true", "range"):
    exp = encode(expected) if kind != "range" else encode((0, 1))
    try: message = compare(kind, encode(actual), exp, {}, reveal=True, text=False)
    except Exception: continue
    assert message is None or ("hidden" not in message and "2101" not in message and "Leaky" not in message), (kind, message)

def test_numbers_are_shown_at_a_bounded_precision():
  assert compare("equal", encode(0.123456789012), encode(0.5), text=False) == "expected 0.5, got 0.123457"
  assert compare("equal", encode(123456789012), encode(5), text=False) == "expected 5, got 1.23457e+11"
  assert "0.123457" in compare("close", encode(np.array([0.123456789012])), encode(np.array([0.5])), {"rtol": 0, "atol": 0}, text=False)
  assert compare("equal", encode([1, 2.0, None]), encode([1, 2, 3]), text=False).endswith("got [1, 2, None]")
  assert compare("type", encode(np.ndarray), encode(int), text=False) == f"expected a int, got {ANOTHER_CLASS}"
  assert compare("equal", encode(np.zeros((2, 3))), encode("x"), text=False).endswith("got an array of shape (2, 3)")
  assert compare("equal", encode("a secret"), encode("b"), text=False) == "expected 'b', got a string of 8 characters"
  assert compare("equal", encode("a secret"), encode("b")) == "expected 'b', got 'a secret'"     # a self-check shows it

def test_the_hidden_statements_are_blanked_line_for_line():
  cell = ("import autograder.notebook.checks as __autograder_checks\n__autograder_checks.begin('t')\ncheck_equal(f(2), 4)\n"
          "__autograder_checks.hidden(True)\n_secret = 987654\ncheck_equal(f(_secret), 1)\n__autograder_checks.hidden(False)\nprint(1)")
  out = _blank_hidden(cell).split("\n")
  assert len(out) == len(cell.split("\n")) and "987654" not in "\n".join(out) and out[-1] == "print(1)" and out[2] == "check_equal(f(2), 4)"

READER = '''
import linecache, re, sys
def double(x):
    shell = get_ipython()
    texts = [shell.user_ns["In"][-1], shell.user_ns["_ih"][-1], shell.user_ns.get(f"_i{shell.execution_count}", ""),
             shell.history_manager.input_hist_raw[-1], "".join(linecache.getlines(sys._getframe(1).f_code.co_filename))]
    found = [int(m.group(1)) for t in texts for m in [re.search(r"_secret = (\\d+)", t)] if m]
    return found[0] if found else 2 * x
'''

@pytest.mark.skipif(not available()[0], reason="grading runs in the sandbox")
def test_the_hidden_part_of_a_running_test_is_not_in_the_kernels_history(tmp_path):
  source = write_toy_course(tmp_path, modules=("01_toy",))
  def secret(cells):
    for c in cells:
      if grade_id(c) == "test_double":
        c.source = "check_equal(double(2), 4, name='double(2)')\n### BEGIN HIDDEN TESTS\n_secret = 987654\ncheck_equal(double(21), 42, name='double(21)')\n### END HIDDEN TESTS"
    return cells
  edit(source, secret)
  submission = tmp_path / "submission"
  shutil.copytree(source, submission)
  edit(submission, lambda cells: [c if grade_id(c) != "ans_double" else nbformat.v4.new_code_cell(READER, metadata=c.metadata) for c in cells])
  assert main(["grade", str(submission), "--source", str(source), "--json", str(tmp_path / "r.json"), "--quiet"]) == 0
  result = json.loads((tmp_path / "r.json").read_text())["modules"][0]
  double = next(t for t in result["tests"] if t["id"] == "test_double")
  assert double["status"] == "passed" and "987654" not in json.dumps(result), double       # it found no secret to return
