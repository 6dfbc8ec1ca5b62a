"""An answer that carries a large constant table (the public test labels, a dump of expected values) is flagged for
the instructor (issue 17, item 6); the reference answers carry none."""
import pytest
from autograder.core.assemble import read_notebook
from autograder.core.cells import grade_id, is_answer
from autograder.core.course import REPO, module_names, notebook_path
from autograder.grading.flags import scan

LABELS = "[" + ", ".join(str(i % 10) for i in range(10000)) + "]"

@pytest.mark.parametrize("source, what", [
    (f"def predict(x):\n    table = {LABELS}\n    return table[:len(x)]", "a literal list of 10,000 items"),
    (f"TABLE = {'7' * 10000!r}", "a str literal of 10,000 characters"),
    (f"TABLE = {bytes(5000)!r}", "a bytes literal of 5,000 characters"),
    ("TABLE = {" + ", ".join(f"{i}: {i % 10}" for i in range(2000)) + "}", "a literal dict of 2,000 items"),
])
def test_a_large_constant_table_is_flagged(source, what):
  assert {(f.rule, f.what) for f in scan(source, "ans_x")} >= {("large constant table", what)}

def test_a_short_literal_is_not_flagged():
  assert not [f for f in scan("SIZES = [(1, 2), (3, 4)] * 3\nNAMES = 'abc' * 100", "ans_x") if f.rule == "large constant table"]

@pytest.mark.parametrize("module", module_names(REPO / "solutions"))
def test_no_reference_answer_carries_a_table(module):
  nb = read_notebook(notebook_path(REPO / "solutions", module))
  flagged = [f for c in nb.cells if is_answer(c) for f in scan(c.source, grade_id(c) or "") if f.rule == "large constant table"]
  assert not flagged, flagged

DYNAMIC_CODE = {   # issue 33, finding 9: a classmate's answers as base64 marshal code run with builtins.exec earned 46/46, no flag
  "builtins.exec": "import base64, marshal, builtins\nbuiltins.exec(marshal.loads(base64.b64decode(PAYLOAD)))",
  "an alias": "import builtins as b\nb.exec(source)",
  "from builtins, renamed": "from builtins import exec as run\nrun(source)",
  "getattr with a computed name": "import builtins\ngetattr(builtins, 'ex' + 'ec')(source)",
  "getattr on __builtins__": "getattr(__builtins__, name)(source)",
  "importlib": "import importlib\nloads = importlib.import_module('mar' + 'shal').loads",
  "__import__": "m = __import__('marshal')",
  "types.FunctionType": "import types\nf = types.FunctionType(code, globals())",
  "a code object": "f = type(lambda: 0)(g.__code__, {})",
  "from marshal": "from marshal import loads as l",
  "a string that names it": "run = vars(__import__('buil' + 'tins'))['ex' + 'ec']",
}

@pytest.mark.parametrize("source", DYNAMIC_CODE.values(), ids=list(DYNAMIC_CODE))
def test_running_code_however_it_is_reached_is_flagged(source):
  assert "dynamic code" in {f.rule for f in scan(source, "ans_x")}, scan(source, "ans_x")

def test_honest_compiles_and_evals_are_not_flagged():
  assert not [f for f in scan("import re\np = re.compile('a+')\nmodel.eval()\nfast = torch.compile(step)\nout = prg.compile(src)", "ans_x")
              if f.rule == "dynamic code"]

@pytest.mark.parametrize("module", module_names(REPO / "solutions"))
def test_no_reference_answer_runs_dynamic_code(module):
  nb = read_notebook(notebook_path(REPO / "solutions", module))
  flagged = [f for c in nb.cells if is_answer(c) for f in scan(c.source, grade_id(c) or "") if f.rule == "dynamic code"]
  assert not flagged, flagged
