"""The check vocabulary that every test cell uses.

A check either returns quietly or raises `CheckFailed` (an AssertionError) with a one-line message that says what
was expected and what came back. `skip(reason)` raises `CheckSkipped`: the report shows the test as skipped and it
earns no points. tinygrad and torch are imported lazily, so notebooks that need neither stay light.
"""
from __future__ import annotations
import contextlib, time
from typing import Any, Callable

class CheckFailed(AssertionError): pass
class CheckSkipped(Exception): pass

def fail(message:str): raise CheckFailed(message)
def skip(reason:str): raise CheckSkipped(reason)

def check(condition:bool, message:str):
  """The general form: passes when `condition` is true, otherwise fails with `message`."""
  if not condition: fail(message)

def _short(value:Any, limit:int=80) -> str:
  text = " ".join(repr(value).split())
  return text if len(text) <= limit else text[:limit-3] + "..."

# ---- values ----------------------------------------------------------------------------------------------------

def to_numpy(value:Any):
  """A tinygrad Tensor, torch tensor, numpy array or nested list as a numpy array (realizing tinygrad tensors)."""
  import numpy as np
  if type(value).__module__.startswith("torch"): return value.detach().cpu().numpy()
  if hasattr(value, "numpy") and type(value).__name__ == "Tensor": return value.numpy()
  return np.asarray(value)

def _dtype_name(value:Any) -> str|None:
  """A dtype spelled the same way for tinygrad, torch and numpy: 'float32', 'int32', 'bool', ..."""
  import numpy as np
  dt = getattr(value, "dtype", None)
  if dt is None: return None
  if type(value).__module__.startswith("torch"): return str(dt).removeprefix("torch.")
  if hasattr(dt, "fmt") or type(dt).__module__.startswith("tinygrad"):    # tinygrad DType
    from tinygrad.dtype import _to_np_dtype
    npdt = _to_np_dtype(dt)
    return np.dtype(npdt).name if npdt is not None else str(dt)
  return np.dtype(dt).name

def check_shape(actual:Any, expected_shape:tuple, name:str="result"):
  got = tuple(getattr(actual, "shape", to_numpy(actual).shape))
  check(got == tuple(expected_shape), f"{name}: expected shape {tuple(expected_shape)}, got {got}")

def check_dtype(actual:Any, expected:Any, name:str="result"):
  """`expected` is a tensor/array whose dtype to match, or a dtype name such as 'float32'."""
  want = expected if isinstance(expected, str) else _dtype_name(expected)
  got = _dtype_name(actual)
  check(got == want, f"{name}: expected dtype {want}, got {got}")

def check_close(actual:Any, expected:Any, rtol:float=1e-5, atol:float=1e-6, name:str="result", dtype:bool=True):
  """`actual` (usually a tinygrad Tensor) equals `expected` (usually the torch result): same shape, same dtype
  (unless dtype=False) and values within atol + rtol*|expected|."""
  import numpy as np
  if actual is None: fail(f"{name}: expected a tensor, got None (did the function return its result?)")
  exp = to_numpy(expected)
  check_shape(actual, exp.shape, name)
  if dtype: check_dtype(actual, expected, name)
  got = to_numpy(actual)
  if not np.allclose(got.astype(np.float64), exp.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True):
    diff = np.abs(got.astype(np.float64) - exp.astype(np.float64))
    worst = np.unravel_index(np.nanargmax(diff), diff.shape) if diff.size else ()
    fail(f"{name}: values differ from the reference; largest difference {float(np.nanmax(diff)):.3g} at index "
         f"{tuple(int(i) for i in worst)} (got {got[worst].item()!r}, expected {exp[worst].item()!r}; rtol={rtol}, atol={atol})")

def check_equal(actual:Any, expected:Any, name:str="result"):
  """Exact equality. Arrays and tensors compare element by element, everything else with ==."""
  import numpy as np
  if hasattr(expected, "shape") or hasattr(actual, "shape"):
    a, e = to_numpy(actual), to_numpy(expected)
    check(a.shape == e.shape, f"{name}: expected shape {e.shape}, got {a.shape}")
    check(bool(np.array_equal(a, e)), f"{name}: expected {_short(e.tolist())}, got {_short(a.tolist())}")
  else:
    check(actual == expected, f"{name}: expected {_short(expected)}, got {_short(actual)}")

def check_type(actual:Any, expected_type:type|tuple, name:str="result"):
  names = " or ".join(t.__name__ for t in (expected_type if isinstance(expected_type, tuple) else (expected_type,)))
  check(isinstance(actual, expected_type), f"{name}: expected a {names}, got {type(actual).__name__}")

def check_in(needle:str, haystack:str, name:str="text"):
  check(isinstance(haystack, str), f"{name}: expected a string, got {type(haystack).__name__}")
  check(needle in haystack, f"{name}: expected to find {needle!r} in it")

def check_raises(fn:Callable, exception:type[BaseException]=Exception, name:str="call"):
  try: fn()
  except exception: return
  fail(f"{name}: expected it to raise {exception.__name__}, but it returned normally")

# ---- kernels: tinygrad's own counters are the oracle --------------------------------------------------------------

def _realize_all(value:Any):
  from tinygrad import Tensor
  tensors = [v for v in (value if isinstance(value, (tuple, list)) else (value,)) if isinstance(v, Tensor)]
  if tensors: Tensor.realize(*tensors)

def kernels_run(fn:Callable) -> tuple[Any, int]:
  """Call `fn()`, realize the tensor(s) it returns, and return (result, kernels tinygrad ran meanwhile).
  Realize the inputs before calling this: their kernels would be counted too."""
  from tinygrad import GlobalCounters
  GlobalCounters.reset()
  result = fn()
  _realize_all(result)
  return result, GlobalCounters.kernel_count

def check_kernel_count(fn:Callable, expected:int, name:str="computation"):
  """`fn()` runs exactly `expected` kernels (COPYs included), counted by tinygrad's GlobalCounters."""
  _, ran = kernels_run(fn)
  check(ran == expected, f"{name}: expected {expected} kernel(s), tinygrad ran {ran}")

def check_no_kernels(fn:Callable, name:str="call"):
  """`fn()` runs no kernel at all (nothing is realized inside it; its result is *not* realized here)."""
  from tinygrad import GlobalCounters
  GlobalCounters.reset()
  fn()
  check(GlobalCounters.kernel_count == 0, f"{name}: expected to run no kernel, but tinygrad ran {GlobalCounters.kernel_count}")

@contextlib.contextmanager
def forbidden(obj:Any, *attributes:str):
  """Within the block, reading `obj.<attribute>` for each name raises CheckFailed, e.g.
  `with forbidden(Tensor, "matmul", "dot", "__matmul__"): my_matmul(a, b)`."""
  saved = {a: obj.__dict__[a] for a in attributes if a in getattr(obj, "__dict__", {})}
  def make(attr):
    def trap(*args, **kwargs): fail(f"{attr} must not be used here")
    return trap
  try:
    for a in attributes: setattr(obj, a, make(a))
    yield
  finally:
    for a in attributes:
      if a in saved: setattr(obj, a, saved[a])
      else: delattr(obj, a)

# ---- devices and timing -------------------------------------------------------------------------------------------

def has_device(name:str) -> bool:
  """Whether tinygrad can open device `name` here (any failure to open means no)."""
  from tinygrad import Device
  try: Device[name]; return True
  except Exception: return False

def require_device(name:str):
  """Skip the rest of the test (reported as skipped, no points) when `name` cannot be opened here."""
  if not has_device(name): skip(f"no {name} device on this machine")

def median_time(fn:Callable, warmup:int=2, repeats:int=7) -> float:
  """A fair timing: `warmup` untimed calls, then the median of `repeats` timed calls, in seconds."""
  for _ in range(warmup): fn()
  times = []
  for _ in range(repeats):
    st = time.perf_counter(); fn(); times.append(time.perf_counter() - st)
  return sorted(times)[len(times)//2]
