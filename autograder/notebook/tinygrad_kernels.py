"""Counting the kernels tinygrad runs (and the bytes, FLOPs and kernel time GlobalCounters would add), from inside
tinygrad's dispatch (`tinygrad.engine.realize.track_stats`), computed from each dispatched call, never read from a
counter the learner's code can write: `kernel_dispatch` (a block), `kernels_during` and `kernels_run` (a call).
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
  """Counts what tinygrad runs while the block is open, from inside its dispatch: for each call its runner makes
  (`tinygrad.engine.realize.track_stats`), what that call is (GlobalCounters' rule, computed from the call itself: its
  kernels, and n times its estimates of FLOPs and bytes, where the runner keeps statistics), the kernel's name
  (`r_16_4`, `E_256`, `copy`) and the kernel time the runner measured. No counter is read: an answer that writes
  GlobalCounters (`GlobalCounters.kernel_count += 2`), or rebinds it (`tinygrad.GlobalCounters = Stuck`), changes
  nothing here. Yields {"count", "names", "ops", "mem", "time"} (kernels, their names, FLOPs, bytes moved, seconds),
  updated as kernels run (a test can read it while the answer runs, e.g. from a scripted clock)."""
  import tinygrad.engine.realize as realize
  from tinygrad.helpers import ansistrip
  from tinygrad.uop.ops import Ops, sym_infer
  seen = {"count": 0, "names": [], "ops": 0, "mem": 0, "time": 0.0}
  original, kernels_of, estimate = realize.track_stats, realize.get_call_kernels, realize.estimate_uop
  def track(ctx, call, st, ets):
    out = original(ctx, call, st, ets)
    if ctx.update_stats:
      ast = call.src[0]
      hcq = ast.op is Ops.CUSTOM_FUNCTION and ast.arg == "hcq"
      n = 1 if hcq else len(kernels_of(call))
      count = len(call.arg.aux.kernels) if hcq else n
      if count > 0:
        est = estimate(call)
        name = ansistrip(ast.arg.name) if ast.op is Ops.PROGRAM else "copy" if ast.op is Ops.COPY else str(ast.op).split(".")[-1].lower()
        seen["count"] += count; seen["names"] += [name] * count
        seen["ops"] += n * sym_infer(est.ops, ctx.var_vals); seen["mem"] += n * sym_infer(est.mem, ctx.var_vals)
        seen["time"] += sum(et for et in ets if et is not None)
    return out
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
  tinygrad's dispatch (see kernel_dispatch). GlobalCounters is reset first, as it always was (a figure read from it
  afterwards covers the call). Realize the inputs before calling this: their kernels would be counted too."""
  from tinygrad import GlobalCounters
  GlobalCounters.reset()                                   # (code after the call reads its figures there: theirs to trust)
  with kernel_dispatch() as seen:
    result = fn()
    _realize_all(result)
  return result, seen["count"]
