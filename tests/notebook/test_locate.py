"""notebook/locate.py on its own: code compiled under a cell's file name stands for the notebook, functions of this file
for the library that raised. `culprit` names the learner's function a library frame held when no notebook frame
raised; `install` puts that line before the error's last line in IPython's traceback."""
import sys
import pytest
import IPython
from autograder.notebook import locate
from autograder.notebook.locate import culprit

CELLS = {"<cell-a>": 3, "<cell-b>": 7}
NOTEBOOK = {
  "<cell-a>": "def rule(x):\n  return x + 1\n\nclass Pattern:\n  def method(self, x):\n    return x\n\nadd = lambda x: x\n",
  "<cell-b>": "\n\ndef run(library, *args):\n  return library(*args)\n\ndef broken(x):\n  raise ValueError('in the cell')\n"}

@pytest.fixture(scope="module")
def nb() -> dict:
  names = {}
  for file, text in NOTEBOOK.items(): exec(compile(text, file, "exec"), names)
  return names

def compile_rule(fn):
  """A library that rejects what it is given, holding it as a local (its argument)."""
  raise RuntimeError("closures are not supported in pattern matchers")

def outer(fn, other):
  return inner(other)

def inner(fn):
  raise RuntimeError("deeper")

def traceback_of(call, *args):
  try: call(*args)
  except Exception: return sys.exc_info()[2]
  raise AssertionError("nothing raised")

def test_the_learners_function_the_library_held_is_named(nb):
  tb = traceback_of(nb["run"], compile_rule, nb["rule"])
  assert culprit(tb, CELLS) == "Cell In[3], line 1, in rule (your function, which compile_rule was handling when it raised)"

def test_the_deepest_library_frame_is_asked_first(nb):
  tb = traceback_of(nb["run"], outer, nb["rule"], nb["add"])
  assert culprit(tb, CELLS) == "Cell In[3], line 8, in <lambda> (your function, which inner was handling when it raised)"

def test_a_bound_method_is_named_by_its_function(nb):
  tb = traceback_of(nb["run"], compile_rule, nb["Pattern"]().method)
  assert culprit(tb, CELLS) == "Cell In[3], line 5, in method (your function, which compile_rule was handling when it raised)"

def test_no_line_when_the_cell_raised_or_no_cell_ran_or_the_library_held_none(nb):
  assert culprit(traceback_of(nb["run"], nb["broken"], 1), CELLS) is None               # raised in a cell: IPython shows it
  assert culprit(traceback_of(compile_rule, nb["rule"]), CELLS) is None                 # no notebook frame at all
  assert culprit(traceback_of(nb["run"], compile_rule, len), CELLS) is None             # a builtin, not the learner's
  assert culprit(traceback_of(nb["run"], compile_rule, compile_rule), CELLS) is None    # a function of the library's own
  assert culprit(traceback_of(nb["run"], compile_rule, nb["rule"]), {}) is None         # no cell known
  assert culprit(None, CELLS) is None

class Shell:
  """What `install` uses of IPython's shell: the traceback it would show, its cell file names, the custom handler."""
  def __init__(self, filenames:dict):
    self.compile = type("Compile", (), {"_filename_map": filenames})()
    self.InteractiveTB = type("TB", (), {"structured_traceback": lambda _, etype, value, tb, tb_offset=None: ["head", f"{etype.__name__}: {value}"]})()
    self.shown = []
  def set_custom_exc(self, kinds, handler): self.kinds, self.handler = kinds, handler
  def _showtraceback(self, etype, value, stb): self.shown.append(stb)

def test_install_adds_the_line_before_the_errors_last_line(nb, monkeypatch):
  shell = Shell(CELLS)
  monkeypatch.setattr(IPython, "get_ipython", lambda: shell)
  locate.install()
  assert shell.kinds == (Exception,)
  tb = traceback_of(nb["run"], compile_rule, nb["rule"])
  stb = shell.handler(shell, RuntimeError, RuntimeError("no closures"), tb)
  assert stb == shell.shown[-1] == ["head", "Cell In[3], line 1, in rule (your function, which compile_rule was handling when it raised)",
                                    "RuntimeError: no closures"]
  assert shell.handler(shell, ValueError, ValueError("x"), traceback_of(nb["run"], nb["broken"], 1)) == ["head", "ValueError: x"]
  shell.compile._filename_map = None                                   # culprit fails: the traceback is shown as it is
  assert shell.handler(shell, RuntimeError, RuntimeError("y"), tb) == ["head", "RuntimeError: y"]

def test_install_outside_ipython_does_nothing(monkeypatch):
  monkeypatch.setattr(IPython, "get_ipython", lambda: None)
  assert locate.install() is None
