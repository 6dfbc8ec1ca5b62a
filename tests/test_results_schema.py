"""The report's schema holds every status word (autograder/core/results.py): a status spelled as a string anywhere else
in the package is a second place to keep in step, and this test fails on it. A word is allowed where it names a field
(a dict key, a subscript, the key of `.get`), not where it is a value: compared, returned, assigned, passed."""
import ast, json
from pathlib import Path
import pytest
import autograder
from autograder.core import results as R

PACKAGE = Path(autograder.__file__).parent
WORDS = {m.value for e in (R.TestStatus, R.RunStatus, R.ModuleStatus, R.CellState, R.CanaryStatus) for m in e}
KEY_TAKERS = {"get", "pop", "setdefault", "Key", "getattr", "hasattr"}       # functions whose text argument names a field

def value_literals(tree:ast.AST) -> list[tuple[int, str]]:
  """(line, word) of each status word used as a value in `tree`."""
  out, parents = [], {}
  for node in ast.walk(tree):
    for child in ast.iter_child_nodes(node): parents[child] = node
  for node in ast.walk(tree):
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in WORDS): continue
    up, child = parents.get(node), node
    while isinstance(up, (ast.Tuple, ast.List, ast.Set)): up, child = parents.get(up), up       # a word inside a collection
    if isinstance(up, ast.Dict) and child in up.keys: continue
    if isinstance(up, ast.Subscript) and child is up.slice: continue
    if isinstance(up, ast.Call) and child in up.args and up.args and child is up.args[0]:
      name = up.func.attr if isinstance(up.func, ast.Attribute) else up.func.id if isinstance(up.func, ast.Name) else ""
      if name in KEY_TAKERS: continue
    if isinstance(up, ast.Assign) and isinstance(parents.get(up), ast.Module): continue          # a named constant
    if isinstance(up, ast.Expr): continue                                                       # a docstring
    out.append((node.lineno, node.value))
  return out

def test_no_status_word_is_spelled_outside_the_schema():
  code = sorted(PACKAGE.rglob("*.py")) + sorted((PACKAGE.parent / "scripts").glob("*.py"))
  found = [f"{p.relative_to(PACKAGE.parent)}:{line}: {word!r}" for p in code if p != PACKAGE / "core" / "results.py"
           for line, word in value_literals(ast.parse(p.read_text()))]
  assert not found, "status words outside autograder/core/results.py (use its enums):\n" + "\n".join(found)

@pytest.mark.parametrize("code", ['if t["status"] == "passed": pass', 'def f(): return "failed"', 'x = {"status": "graded"}',
                                  'def f(): s = ("ran", "timeout")', 'f(status="skipped")', 'done("error", "why")'])
def test_the_rule_sees_a_status_word_as_a_value(code):
  assert value_literals(ast.parse(code)), code

@pytest.mark.parametrize("code", ['x = t["error"]', 'x = t.get("timeout", 1)', 'x = {"errors": 1}', 'REPLY_ERROR = "error"', 'Key("timeout", 1)'])
def test_the_rule_lets_a_field_name_be(code):
  assert not value_literals(ast.parse(code)), code

def test_json_round_trips_and_leaves_out_what_is_not_said():
  t = R.TestResult("test_a", "Task 1.1", 2.0, R.TestStatus.FAILED, 0.0, "x: expected 1, got 2", forged="why")
  m = R.ModuleResult("01_x", R.ModuleStatus.GRADED, "", "bubblewrap", [R.Flag("ans, line 1", "frame access", "uses ._getframe")],
                     score=0.0, max_score=2.0, seconds=1.5, tests=[t])
  data = R.to_json(R.Report.of([m]))
  assert list(data["modules"][0]["tests"][0]) == ["id", "task", "max_score", "status", "score", "message"]        # no hint, no forged
  assert json.dumps(data).startswith('{"score": 0.0, "max_score": 2.0, "modules": [{"module": "01_x", "status": "graded"')
  back = R.from_json(R.Report, json.loads(json.dumps(data)))
  assert back.modules[0].tests[0].status is R.TestStatus.FAILED and back.modules[0].flags[0].rule == "frame access"
  assert R.to_json(back) == data

def test_reading_takes_defaults_for_what_is_missing_or_of_the_wrong_type():
  back = R.from_json(R.Report, {"modules": [{"module": "01_x", "status": "no such status", "score": "7", "tests": [{"id": 3}, "junk"]}]})
  m = back.modules[0]
  assert (m.status, m.score, m.tests[0].id, len(m.tests)) == (R.ModuleStatus.GRADED, 0.0, None, 1)
  assert not R.is_report({"modules": [{"module": "01_x"}]}) and R.is_report({"modules": []})

def test_a_learners_observation_record_is_read_only_when_well_formed():
  assert R.Observation.of_record({"site": "c:1:2", "k": 0, "kind": "equal", "actual": 3}).actual == 3
  assert R.Observation.of_record({"site": "c:1:2", "k": True}) is None and R.Observation.of_record(["x"]) is None
  assert R.Observation.of_record({"site": "c:1:2", "k": 0, "hidden": "yes"}).hidden is False
