"""Each check helper passes on what it should and fails, with its message, on what it should not."""
import numpy as np, torch, pytest
from tinygrad import Tensor, dtypes
from autograder import (CheckFailed, CheckSkipped, check_close, check_equal, check_kernel_count, check_no_kernels,
  check_shape, check_dtype, check_type, check_in, check_raises, forbidden, kernels_run, require_device, median_time)

def fails(fn, *words):
  with pytest.raises(CheckFailed) as e: fn()
  for w in words: assert w in str(e.value)

def test_check_close_compares_shape_dtype_and_values():
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
