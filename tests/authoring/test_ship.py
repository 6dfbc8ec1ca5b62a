"""Release ships what a visible check expects, never how the oracle computes it: the learner's copy has no
`with oracle():` block and no computed expected argument (`...` stands there), and the expected values of its visible
checks lie beside the notebook, read by the checks themselves. A self-check and a cell run by hand in JupyterLab say
what they said before (the same messages), and a hidden check's value never ships. On the toy course."""
import json
import nbformat
import pytest
from autograder.notebook.compare import encode
from autograder.notebook.sealed import is_sealed, unseal_problem
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
  found = sorted([[n for n in range(100) if unseal_problem(encode(n), v) is None] for v in vs] for vs in values.values())
  assert found == [[[6], [14]], [[10]]] and "4242" not in shipped                     # every cut visible check (double(2) shows its 4), no hidden one
  assert all(is_sealed(v) for vs in values.values() for v in vs) and '"10"' not in shipped and ":10," not in shipped   # sealed: counts are findings
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
  assert "failed          test_double (Toy module 1): double(5): differs from the course machine's value" in capsys.readouterr().out   # sealed: not shown
  answer(projects, "ans_double", "def double(x):\n    return 2 * x")
  main(["check", "01", "--projects", str(projects)])
  out = capsys.readouterr().out
  assert "passed          test_double" in out and "double(5): you 10; the course machine the same" in out
  answer(projects, "ans_double", "def double(x):\n    return x * x")          # (x * x: the machine-dependent check does not compare)
  nb = nbformat.read(str(notebook(projects)), as_version=4)                               # as JupyterLab runs it: no grader
  run = run_notebook(nb, projects / "01_toy", 30, 60)
  test = next(c for c in nb.cells if grade_id(c) == "test_double")
  errors = [o for o in test.outputs if o.output_type == "error"]
  assert errors and errors[0].ename == "CheckFailed" and "double(5): differs from the course machine's value" in errors[0].evalue, run.replies
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

# ---- a shipped value against one from another CPU (issue 43) ---------------------------------------------------------
# A value the reference computed on the author's CPU may differ in its last bits from the same code on a learner's:
# release --check and the self-check compare it as the check that uses it compares, and a few ulps of its dtype more.
import numpy as np
from autograder.authoring.ship import same_expected, same_value, self_check_misses
from autograder.notebook import checks, shipped
from autograder.notebook.compare import SHIPPED_ULPS, compare, encode

def up(x, n=1, dtype=np.float32):
  """`x` moved `n` ulps up in `dtype`, element by element."""
  x = np.asarray(x, dtype)
  for _ in range(n): x = np.nextafter(x, np.asarray(np.inf, dtype))
  return x

CLOSE = {"rtol": 1e-5, "atol": 1e-6, "dtype": True}
EXACT_CLOSE = {"rtol": 0, "atol": 0, "dtype": True}

def test_a_value_one_ulp_off_is_the_same_for_every_kind_of_check():
  a = np.array([0.55062395, -3.1e-8, 12.5, 1e-30], np.float32)
  for kind, opts in (("equal", {}), ("close", CLOSE), ("close", EXACT_CLOSE), ("agree", {"at_least": 1.0})):
    assert same_value(kind, opts, encode(a), encode(up(a))), kind
    assert same_value(kind, opts, encode(a), encode(up(a, SHIPPED_ULPS))), kind
  assert not same_value("equal", {}, encode(a), encode(up(a, SHIPPED_ULPS + 1)))
  assert not same_value("close", EXACT_CLOSE, encode(a), encode(up(a, SHIPPED_ULPS + 1)))
  x = float(np.float32(0.010624571))                       # a float32 read with .item(): counted in float32 ulps
  assert same_value("equal", {}, x, float(up(x))) and same_value("range", {}, {"__tuple__": [x, 2.0]}, {"__tuple__": [float(up(x, 2)), 2.0]})
  assert not same_value("equal", {}, 0.1, 0.1 + 1e-9)                    # a float64 result: in float64 ulps

def test_the_check_tolerance_decides_and_an_element_near_zero_does_not():
  """Issue 43: `release --check` compared with a relative 1e-5 and atol=0, so an element near zero that moved by 4e-8
  made the whole file differ although the check (atol 1e-6) cannot tell the two values apart."""
  ref = np.array([0.5, 2.3283064e-08, -0.12], np.float32)
  moved = np.array([0.5000001, -1.3038516e-08, -0.12], np.float32)
  assert same_value("close", CLOSE, encode(ref), encode(moved))
  assert not same_value("equal", {}, encode(ref), encode(moved))         # an exact check: only ulps of each element
  off = ref.copy(); off[2] = -0.1201                                        # 8e-4 relative: outside rtol 1e-5
  assert not same_value("close", CLOSE, encode(ref), encode(off))
  assert not same_value("close", {"rtol": 1e-3, "atol": 0, "dtype": True}, encode(np.float32([1.0])), encode(np.float32([1.002])))
  assert same_value("close", {"rtol": 1e-3, "atol": 0, "dtype": True}, encode(np.float32([1.0])), encode(np.float32([1.0005])))
  assert not same_value("close", CLOSE, encode(ref), encode(ref.astype(np.float64)))   # the check compares dtypes

def test_integers_and_other_values_must_be_equal():
  i = np.array([1, 2, 3], np.int32)
  assert same_value("equal", {}, encode(i), encode(i.copy()))
  assert not same_value("equal", {}, encode(i), encode(i + np.array([0, 0, 1], np.int32)))
  assert not same_value("close", EXACT_CLOSE, encode(i), encode(i + np.array([0, 0, 1], np.int32)))
  assert not same_value("agree", {"at_least": 1.0}, encode(i), encode(i + np.array([0, 0, 1], np.int32)))
  assert not same_value("equal", {}, 3, 4) and not same_value("equal", {}, 1, 1.0) and not same_value("equal", {}, True, 1)
  assert not same_value("equal", {}, 2**24, 2**24 + 2)                   # a count is no float, however large
  assert not same_value("contains", {}, "relu(", "relu") and same_value("type", {}, {"__type__": ["builtins.int"]}, {"__type__": ["builtins.int"]})

def test_half_precision_counts_in_its_own_ulps():
  h = np.array([0.3333, -4.375e-05, 9.33], np.float16)
  assert same_value("equal", {}, encode(h), encode(up(h, 1, np.float16)))    # 2^-11 relative: thousands of float32 ulps
  assert not same_value("equal", {}, encode(h), encode(up(h, SHIPPED_ULPS + 1, np.float16)))
  assert not same_value("equal", {}, encode(h.astype(np.float32)), encode(up(h, 1, np.float16).astype(np.float32)))
  bf = {"__array__": {**encode(np.float32([1.0]))["__array__"], "dtype": "bfloat16"}}     # numpy has no bfloat16
  bf_up = {"__array__": {**encode(np.float32([1.0 + 2**-7]))["__array__"], "dtype": "bfloat16"}}
  assert same_value("equal", {}, bf, bf_up) and not same_value("equal", {}, encode(np.float32([1.0])), encode(np.float32([1.0 + 2**-7])))

def test_nested_containers_and_nan():
  a = np.array([1.5, np.nan, -2.0], np.float32)
  nested = lambda x, f: {"__dict__": [["logits", [encode(x), {"__tuple__": [f, 3]}]], ["name", "relu"]]}
  assert same_value("equal", {}, nested(a, 0.25), nested(up(a), float(up(0.25))))
  assert not same_value("equal", {}, nested(a, 0.25), nested(up(a), 0.75))
  assert not same_value("equal", {}, nested(a, 0.25), {"__dict__": [["logits", [encode(a), {"__tuple__": [0.25, 4]}]], ["name", "relu"]]})
  assert same_value("close", CLOSE, encode(a), encode(a.copy()))          # NaN where the other has NaN
  b = a.copy(); b[1] = 0.0
  for kind, opts in (("equal", {}), ("close", CLOSE)): assert not same_value(kind, opts, encode(a), encode(b)), kind
  assert same_value("equal", {}, {"__float__": "nan"}, {"__float__": "nan"}) and not same_value("equal", {}, {"__float__": "nan"}, 1.0)

def test_a_shipped_prefix_compares_its_shape_dtype_and_rows():
  from autograder.notebook.compare import prefix
  big = np.linspace(-1, 1, 8192, dtype=np.float32).reshape(64, 128)
  assert same_value("close", EXACT_CLOSE, prefix(encode(big), 4096), prefix(encode(up(big)), 4096))
  assert not same_value("close", EXACT_CLOSE, prefix(encode(big), 4096), prefix(encode(big.reshape(128, 64)), 4096))
  assert not same_value("close", EXACT_CLOSE, prefix(encode(big), 4096), encode(big))

def test_same_expected_reads_each_value_with_its_check():
  obs = lambda kind, opts: {"kind": kind, "opts": opts}
  x = {"version": 1, "cells": {"h": "t"}, "expected": {"t": {"t:1:0": [encode(np.float32([0.5, 1e-9])), 7], "t:2:0": [encode(np.float32([2.0]))]}}}
  y = json.loads(json.dumps(x)); y["expected"]["t"]["t:1:0"][0] = encode(np.float32([0.5, -2e-9]))
  observed = {"t": {"t:1:0": [obs("close", CLOSE), obs("equal", {})], "t:2:0": [obs("equal", {})]}}
  assert same_expected(x, y, observed) and not same_expected(x, y, None)
  observed["t"]["t:1:0"][0] = obs("equal", {})                            # the same values under an exact check: differ
  assert not same_expected(x, y, observed)
  observed["t"]["t:1:0"][0] = obs("close", CLOSE)
  for edit in (lambda d: d["cells"].update(h="u"), lambda d: d["expected"]["t"].pop("t:2:0"), lambda d: d["expected"]["t"]["t:1:0"].pop(),
               lambda d: d["expected"]["t"]["t:1:0"].__setitem__(1, 8)):
    z = json.loads(json.dumps(y)); edit(z)
    assert not same_expected(x, z, observed)

def test_the_self_check_allows_ulps_of_a_shipped_value_and_grading_does_not(monkeypatch):
  """A check whose expected argument is `...` compares with the shipped value (computed on the author's CPU) with its
  own tolerance and SHIPPED_ULPS more; grading compares with the reference run on its own machine, exactly."""
  value = np.array([0.55062395, 3.1e-8], np.float32)
  monkeypatch.setattr(shipped, "lookup", lambda: encode(up(value)))
  monkeypatch.setitem(checks._state, "mode", "inline")
  checks.check_equal(value, ..., name="logits")
  checks.check_close(value, ..., rtol=0, atol=0, name="logits")
  checks.check_agreement(value, ..., at_least=1.0, name="logits")
  assert compare("equal", encode(value), encode(up(value))) is not None                 # grading: exact
  monkeypatch.setattr(shipped, "lookup", lambda: encode(up(value, SHIPPED_ULPS + 1)))
  with pytest.raises(checks.CheckFailed, match="logits"): checks.check_equal(value, ..., name="logits")
  with pytest.raises(checks.CheckFailed, match=r"outside rtol=0.0, atol=0.0 \(and 4 ulps\)"): checks.check_close(value, ..., rtol=0, atol=0, name="logits")
  monkeypatch.setattr(shipped, "lookup", lambda: encode(np.array([1, 2], np.int64)))
  with pytest.raises(checks.CheckFailed, match=r"logits\[1\]: expected 2, got 3"): checks.check_equal(np.array([1, 3]), ..., name="logits")

def test_self_check_misses_names_a_shipped_value_the_references_answer_fails():
  ref = np.float32([0.5, 2.0])
  observed = {"t": {"t:1:0": [{"kind": "equal", "opts": {}, "actual": encode(up(ref)), "name": "x"},
                              {"kind": "close", "opts": CLOSE, "actual": encode(ref * 1.01), "name": "y"}]}}
  data = {"expected": {"t": {"t:1:0": [encode(ref), encode(ref)]}}}
  misses = self_check_misses(observed, data)
  assert len(misses) == 1 and misses[0].startswith("t t:1:0 (occurrence 2): y: values differ")
  assert self_check_misses(observed, {"expected": {}}) == ["t t:1:0 (occurrence 1): not shipped", "t t:1:0 (occurrence 2): not shipped"]

def test_a_check_run_outside_a_notebook_says_so(tmp_path, monkeypatch):
  """Issue 46 item 6: a test cell's check with a shipped value, run from a script or a console, says to run it in the
  notebook (not that its cell's text changed)."""
  from autograder.notebook import checks, shipped
  monkeypatch.chdir(tmp_path)
  (tmp_path / EXPECTED_FILE).write_text(json.dumps({"version": 1, "cells": {}, "expected": {}}))
  monkeypatch.setattr(shipped, "_loaded", {"path": None, "data": None})
  with pytest.raises(shipped.NotShipped, match="ran outside a notebook"): checks.check_equal(1, ..., name="x")
