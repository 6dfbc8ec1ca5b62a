"""Each check helper passes on what it should and fails, with its message, on what it should not."""
import numpy as np, pytest
from tinygrad import Tensor, dtypes
from autograder import (CheckFailed, CheckSkipped, check_close, check_equal, check_kernel_count, check_no_kernels,
  check_shape, check_dtype, check_type, check_in, check_raises, forbidden, kernels_run, require_device, median_time)

def fails(fn, *words):
  with pytest.raises(CheckFailed) as e: fn()
  for w in words: assert w in str(e.value)

def test_check_close_compares_shape_dtype_and_values():
  import torch                          # here, not at the top: torch costs each pytest worker 3 s of collection
  check_close(Tensor([1., 2.]) * 2, torch.tensor([2., 4.]))
  fails(lambda: check_close(Tensor([1., 2.]), torch.tensor([1., 2.5])), "first at index (1,) (got 2.0, expected 2.5)", "1 of 2 element(s)")
  fails(lambda: check_close(Tensor([1., 2.]), torch.tensor([[1., 2.]])), "expected shape (1, 2), got (2,)")
  fails(lambda: check_close(Tensor([1, 2], dtype=dtypes.int32), torch.tensor([1., 2.])), "expected dtype float32, got int32")
  fails(lambda: check_close(None, torch.tensor([1.])), "got None")
  check_close(Tensor([1, 2], dtype=dtypes.int32), torch.tensor([1., 2.]), dtype=False)

def test_exact_and_structural_checks():
  check_equal([1, 2], [1, 2]); check_equal(Tensor([1, 2]), np.array([1, 2]))
  fails(lambda: check_equal(3, 4, name="n"), "n: expected 4, got 3")
  fails(lambda: check_equal(Tensor([1, 2]), np.array([1, 3])), "result[1]: expected 3, got 2")
  fails(lambda: check_shape(Tensor.ones(2, 3), (3, 2)), "result shape: expected (3, 2), got (2, 3)")
  fails(lambda: check_dtype(Tensor.ones(2), "int32"), "result dtype: expected 'int32', got 'float32'")
  fails(lambda: check_type("a", int), "expected a int, got str")
  fails(lambda: check_in("relu", "void E_4() {}"), "'relu'")
  fails(lambda: check_raises(lambda: 1, ValueError), "expected it to raise ValueError")

def test_kernel_checks_use_tinygrads_counters():
  a, b = Tensor.rand(8).realize(), Tensor.rand(8).realize()
  assert kernels_run(lambda: (a + b).relu().sum())[1] == 1
  check_kernel_count(lambda: (a + b).relu().sum(), 1)
  fails(lambda: check_kernel_count(lambda: (a + b).relu().sum(), 3), "computation: kernels: expected 3, got 1")
  check_no_kernels(lambda: a.reshape(2, 4).permute(1, 0))
  fails(lambda: check_no_kernels(lambda: (a * 3).realize()), "call: kernels run: expected 0, got 1")

def test_kernel_checks_count_inside_tinygrads_dispatch():
  """Issue 33, finding 12: a counter the answer can write must not decide a test. The kernel checks count what tinygrad's
  dispatch adds per call, with the kernels' names, whatever else writes GlobalCounters meanwhile."""
  from tinygrad import GlobalCounters
  from autograder import kernels_during
  a, b = Tensor.rand(8, 8).realize(), Tensor.rand(8, 8).realize()
  def lying(): out = (a + b).relu().sum().realize(); GlobalCounters.kernel_count += 2; return out
  def cleared(): out = (a * 3).realize(); GlobalCounters.reset(); return out
  _, count, names = kernels_during(lying)
  assert count == 1 and len(names) == 1 and names[0].startswith("r_")
  assert [n[0] for n in kernels_during(lambda: (a + b).realize().relu().realize().sum().realize())[2]] == ["E", "E", "r"]
  fails(lambda: check_kernel_count(lying, 3), "computation: kernels: expected 3, got 1")
  fails(lambda: check_no_kernels(cleared), "call: kernels run: expected 0, got 1")

def test_kernel_figures_never_read_the_counters():
  """Issue 44: an alias of GlobalCounters whose counters never move (`tinygrad.GlobalCounters = Stuck`) made module 01's
  peek_schedule, which ran kernels, pass check_no_kernels. The figures are computed from each dispatched call: the
  kernels, and the bytes and FLOPs GlobalCounters would add for it."""
  import tinygrad
  from tinygrad import GlobalCounters
  from autograder import kernel_dispatch
  a, b = Tensor.rand(16, 16).realize(), Tensor.rand(16, 16).realize()
  GlobalCounters.reset()
  with kernel_dispatch() as seen: (a @ b).relu().sum().realize()
  assert (seen["count"], seen["ops"], seen["mem"]) == (GlobalCounters.kernel_count, GlobalCounters.global_ops, GlobalCounters.global_mem) and seen["count"] == 1
  class Stuck:
    kernel_count, global_ops, global_mem, time_sum_s = 0, 0, 0, 0.0
    @staticmethod
    def reset(): pass
  real, tinygrad.GlobalCounters = tinygrad.GlobalCounters, Stuck
  try:
    fails(lambda: check_no_kernels(lambda: (a * 3).realize()), "call: kernels run: expected 0, got 1")
    assert kernels_run(lambda: (a + b).sum())[1] == 1
  finally: tinygrad.GlobalCounters = real

def test_forbidden_traps_and_restores():
  a = Tensor.ones(2, 2)
  with forbidden(Tensor, "matmul", "__matmul__"):
    fails(lambda: a @ a, "__matmul__ must not be used")
    fails(lambda: a.matmul(a), "matmul must not be used")
  assert (a @ a).tolist() == [[2., 2.], [2., 2.]]

def test_skip_and_timing():
  with pytest.raises(CheckSkipped): require_device("NO_SUCH_DEVICE")
  calls = []
  assert median_time(lambda: calls.append(1), warmup=2, repeats=5) >= 0 and len(calls) == 7

# ---- the comparison on plain data: one implementation for self-checks and for the grader --------------------------

from autograder.notebook.compare import encode, compare, strong
from autograder.core.verdict import error_text, clean, Redactor

def test_messages_name_the_first_difference():
  msg = lambda a, e: compare("equal", encode(a), encode(e))
  assert msg({"kernels": 1, "buffers": [("CPU", 256, "float")]}, {"kernels": 1, "buffers": [("CPU", 255, "float")]}) \
    == "['buffers'][0]: expected ('CPU', 255, 'float'), got ('CPU', 256, 'float')"
  assert msg({"a": 1}, {"a": 1, "b": 2}) == "missing keys ['b']"
  assert msg(list(range(100)), list(range(40)) + [0] + list(range(41, 100))) == "[40]: expected 0, got 40"
  assert msg(np.arange(12).reshape(3, 4), np.arange(12).reshape(3, 4) * (np.arange(12).reshape(3, 4) != 6)) \
    == "[1, 2]: expected 0, got 6 (1 of 12 elements differ)"
  assert msg((1, 2), [1, 2]) == "expected [1, 2], got (1, 2)"            # a tuple is not a list, as in Python
  hidden = compare("equal", encode([1, 2, 3]), encode([1, 2, 4]), reveal=False)
  assert hidden == "got [1, 2, 3]" and "4" not in hidden

def test_lying_objects_become_opaque_and_match_nothing():
  class Anything:
    def __eq__(self, other): return True
    def __getattr__(self, name): return self
    def __call__(self, *a, **k): return self
  assert compare("equal", encode(Anything()), encode(3)) is not None
  assert compare("close", encode(Anything()), encode(np.ones(3))) is not None
  class Int(int): pass
  assert encode(Int(3))["__object__"].endswith("Int")                  # a subclass is not trusted to behave like int

def test_strong_observations_are_hard_to_guess():
  assert strong("close", encode(np.linspace(0, 1, 9))) and strong("equal", encode("void r_16_4(float* restrict data0) { ... }"))
  assert not strong("equal", encode(3)) and not strong("true", encode(True)) and not strong("equal", encode("CPU"))
  assert strong("equal", encode(12_582_912)) and not strong("equal", encode(True))

def test_errors_keep_tinygrads_help_line_and_reports_stay_inert():
  assert error_text("RuntimeError", "no usable devices\n  detail\nhelp: set DEV=CPU") == "RuntimeError: no usable devices (help: set DEV=CPU)"
  assert clean("\x1b[31mred\x1b[0m <b>bold</b>\x07") == "red ‹b›bold‹/b›"
  redact = Redactor({"check_equal(double(21), 42, name='double(21)')"})
  assert "withheld" in redact("ValueError: check_equal(double(21), 42, name='double(21)')") and redact("ok") == "ok"

def test_a_mutation_session_stops_a_test_at_its_first_difference_from_the_reference(monkeypatch, tmp_path):
  """checks.stop_at_first_difference: a learner-mode check whose record differs from the reference run's raises at
  once (a wrong variant stops there); a matching record, or a site the reference never recorded, goes on."""
  import json
  import autograder.notebook.checks as c
  published = []
  monkeypatch.setattr(c, "_publish", published.append)
  records = tmp_path / "records.json"
  records.write_text(json.dumps({"test_x": [{"site": "test_x:1:0", "k": 0, "kind": "equal", "expected": 4, "opts": {}},
                                            {"site": "test_x:1:0", "k": 1, "kind": "close", "expected": [1.0, 2.0], "opts": {"rtol": 0, "atol": 0.1}}]}))
  c.configure("learner"); c.begin("test_x")
  try:
    c.stop_at_first_difference(str(records))
    c.check_equal(4, None, name="n", _site="test_x:1:0")
    c.check_equal(7, None, name="m", _site="test_x:9:0")                  # no reference record there: nothing to compare
    with pytest.raises(c.DifferenceFound, match="y"): c.check_close(np.array([1.0, 2.5]), None, name="y", _site="test_x:1:0")
    c.begin("test_y")
    c.check_equal(5, None, name="n", _site="test_x:1:0")                  # records are per test cell
  finally: c.configure("inline"); c._state["reference"] = None
  assert [p["k"] for p in published] == [0, 0, 1, 0]                     # the difference was still published

def test_modes_learner_records_only_what_it_observed(monkeypatch):
  import autograder.notebook.checks as c
  published = []
  monkeypatch.setattr(c, "_publish", published.append)
  c.configure("learner"); c.begin("test_x")
  try:
    c.check_close(Tensor([1., 2.]), None, name="y", _site="test_x:1:0")   # the grader has replaced `expected` with None
    c.check_close(Tensor([1., 2.]), None, name="y", _site="test_x:1:0")
  finally: c.configure("inline")
  assert [(p["site"], p["k"], p["kind"]) for p in published] == [("test_x:1:0", 0, "close"), ("test_x:1:0", 1, "close")]
  assert all("expected" not in p for p in published)
  c.configure("reference"); c.begin("test_x"); published.clear()
  try:
    with pytest.raises(CheckFailed): c.check_equal(3, 4, name="n", _site="test_x:2:0")
  finally: c.configure("inline")
  assert published[0]["expected"] == 4 and published[0]["ok"] is False
