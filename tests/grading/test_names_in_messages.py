"""Issue 33, finding 6: hidden tests leaked through class names and labels. `check_type` and `check_raises` printed the
learner's class `__qualname__` unfiltered, for hidden checks too (one grading recovered 41 of module 10's 51 hidden
statements word for word), and a failing hidden check's label printed hidden inputs. Now a message names a class only
when a trusted module defines it, and a hidden check's label only when the visible code could have produced it. On the
toy course, with a test cell that has hidden type and exception checks."""
import json
import shutil
import nbformat
import numpy as np
from autograder.cli import main
from autograder.core.cells import grade_id
from autograder.notebook.compare import ANOTHER_CLASS, OWN_CLASS, class_name, compare, encode, type_names
from autograder.core.verdict import HIDDEN_LABEL, label
from toy_course import edit, write_toy_course

SECRET = "check_equal(square(-7), 49, name='square(-7)')"           # what a kernel can read from its own history

LEAK = f'''
import sys
_hidden = {SECRET!r} * 20                                          # (in a real attack: read from the kernel's history)
class Leak(Exception): pass
Leak.__qualname__ = _hidden; Leak.__module__ = "numpy"             # a name of any length, claiming a trusted module
Shape = type("Shape", (), {{}}); Shape.__qualname__ = _hidden; Shape.__module__ = "builtins"
def square(x):
    if isinstance(x, str): raise Leak()
    if x == 5: return Shape()
    return x * x
'''

def test_a_class_name_is_shown_only_when_a_trusted_module_defines_it():
  class Mine(Exception): pass
  Mine.__qualname__, Mine.__module__ = SECRET, "numpy"             # any text, claiming a trusted module
  assert class_name(type_names(Mine)[0]) == class_name("numpy.secret" * 30) == class_name("__main__.Anything") == OWN_CLASS
  assert class_name("numpy.ndarray.secret") == class_name("builtins.secret") == class_name("os.PathLike") == OWN_CLASS
  assert [class_name(n) for n in ("numpy.ndarray", "builtins.int", "builtins.NoneType", "builtins.function", "numpy.float32",
                                   "autograder.notebook.checks.CheckFailed")] == ["ndarray", "int", "NoneType", "function", "float32", "CheckFailed"]
  for reveal in (True, False):
    for kind, got, want in (("type", encode(Mine), encode(int)), ("raises", encode(Mine), encode(ValueError)), ("equal", encode(Mine()), encode(3))):
      message = compare(kind, got, want, reveal=reveal)
      assert "square" not in message and (OWN_CLASS in message or kind == "equal" and not reveal), message
  assert compare("type", encode(np.ndarray), encode(int)) == "expected a int, got ndarray"       # (a name numpy chose: at most a choice
  Mine.__qualname__ = "ndarray"                                                                   #  among the trusted names gets out)
  assert compare("type", encode(Mine), encode(int)) == "expected a int, got ndarray"
  assert compare("equal", encode({"a": 1, "x" * 50: 2}), encode({"a": 1}), reveal=False) == "1 unexpected key(s)"
  assert compare("set", encode({"a", "secret"}), encode({"a"}), reveal=False) == "1 unexpected item(s)"

def test_a_hidden_checks_label_is_withheld_unless_the_visible_code_spells_it():
  shown = {"square(3)", "logits"}
  assert label("square(-7)", True, shown) == HIDDEN_LABEL and label("square(-7)", False, shown) == "square(-7)"
  assert label("logits shape", True, shown) == "logits shape" and label("result dtype", True, shown) == "result dtype"
  assert label("batch_size=8: kernels", True, shown) == HIDDEN_LABEL

def test_hidden_checks_show_no_learner_class_name_and_no_hidden_label(tmp_path):
  source = write_toy_course(tmp_path, modules=("01_toy",))
  def hidden_type_checks(cells):
    for c in cells:
      if grade_id(c) == "setup": c.source = "from autograder import *"
      if grade_id(c) == "test_square":
        c.source = ("check_equal(square(3), 9, name='square(3)')\n### BEGIN HIDDEN TESTS\n"
                    "_n = 5\ncheck_type(square(_n), int, name=f'square({_n})')\n"
                    "check_raises(lambda: square('-7'), TypeError, name=\"square('-7') raises\")\n" + SECRET + "\n### END HIDDEN TESTS")
    return cells
  edit(source, hidden_type_checks)
  submission = tmp_path / "submission"; shutil.copytree(source, submission)
  edit(submission, lambda cells: [c if grade_id(c) != "ans_square" else nbformat.v4.new_code_cell(LEAK, metadata=c.metadata) for c in cells])
  assert main(["grade", str(submission), "--source", str(source), "--json", str(tmp_path / "r.json"), "--quiet"]) == 0
  text = (tmp_path / "r.json").read_text()
  square = next(t for t in json.loads(text)["modules"][0]["tests"] if t["id"] == "test_square")
  assert square["status"] == "failed" and square["message"].startswith(HIDDEN_LABEL), square
  assert "square(-7)" not in text and "square(5)" not in text and "'-7'" not in text and "check_equal" not in text
  assert ANOTHER_CLASS in square["message"] and OWN_CLASS not in square["message"]      # grading names no class of the answer's
