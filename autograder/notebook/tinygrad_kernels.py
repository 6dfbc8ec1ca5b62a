"""Counting the kernels tinygrad runs, from inside tinygrad's dispatch (`tinygrad.engine.realize.track_stats`), never
from a counter the learner's code can write: `kernel_dispatch` (a block), `kernels_during` and `kernels_run` (a call).
"Kernel" here is tinygrad's compiled program; the Jupyter kernel a notebook runs in is another thing."""
from __future__ import annotations
import contextlib
from typing import Any, Callable

def _realize_all(value:Any):
  from tinygrad import Tensor
  tensors = [v for v in (value if isinstance(value, (tuple, list)) else (value,)) if isinstance(v, Tensor)]
  if tensors: Tensor.realize(*tensors)

@contextlib.contextmanager
def kernel_dispatch():
  """Counts the kernels tinygrad runs while the block is open, from inside tinygrad's dispatch: for each call its
  runner makes (`tinygrad.engine.realize.track_stats`), what that call adds to GlobalCounters.kernel_count, and the
  kernel's name (`r_16_4`, `E_256`, `copy`). Code that changes the counter itself (`GlobalCounters.kernel_count += 2` in
  an answer) changes nothing here: a counter the learner's code can write is never what a kernel check reads. Yields
  {"count", "names"}, updated as kernels run (a test can read it while the answer runs, e.g. from a scripted clock)."""
  import tinygrad.engine.realize as realize
  from tinygrad import GlobalCounters
  from tinygrad.helpers import ansistrip
  from tinygrad.uop.ops import Ops
  seen = {"count": 0, "names": []}
  original = realize.track_stats
  def track(ctx, call, st, ets):
    before = GlobalCounters.kernel_count
    try: return original(ctx, call, st, ets)
    finally:
      n = GlobalCounters.kernel_count - before
      if n > 0:
        ast = call.src[0]
        name = ansistrip(ast.arg.name) if ast.op is Ops.PROGRAM else "copy" if ast.op is Ops.COPY else str(ast.op).split(".")[-1].lower()
        seen["count"] += n; seen["names"] += [name] * n
  realize.track_stats = track
  try: yield seen
  finally: realize.track_stats = original

def kernels_during(fn:Callable) -> tuple[Any, int, list[str]]:
  """Call `fn()` and return (its result, not realized here; the kernels tinygrad ran during the call; their names in
  the order they ran). Counted inside tinygrad's dispatch, not read from GlobalCounters (see kernel_dispatch)."""
  with kernel_dispatch() as seen: result = fn()
  return result, seen["count"], list(seen["names"])

def kernels_run(fn:Callable) -> tuple[Any, int]:
  """Call `fn()`, realize the tensor(s) it returns, and return (result, kernels tinygrad ran meanwhile), counted inside
  tinygrad's dispatch (see kernel_dispatch). Realize the inputs before calling this: their kernels would be counted too."""
  from tinygrad import GlobalCounters
  GlobalCounters.reset()
  with kernel_dispatch() as seen:
    result = fn()
    _realize_all(result)
  return result, seen["count"]
