"""BEAM search results shipped with the module, so that grading never searches.

`beam_cache.json` maps each kernel that BEAM optimised (its device, BEAM width and AST key) to the opts the search
chose. Inside `shipped_beam()`, tinygrad compiles with BEAM as usual, but its search (`beam_search`) is replaced by
a lookup in that file: a kernel found there gets the searched opts at once; a kernel not found gets tinygrad's
default hand-coded opts (it is counted as a miss). With `search=True` (or the environment variable
`INFER_BEAM=search`) a miss is searched for real and written to the file: that is how the file was made.
"""
from __future__ import annotations
import contextlib, json, os
from pathlib import Path
import tinygrad.codegen.opt.search as search
from tinygrad.codegen.opt import Opt, OptOps
from tinygrad.codegen.opt.heuristic import hand_coded_optimizations
from tinygrad.helpers import Context

BEAM_CACHE = Path(__file__).resolve().parent / "beam_cache.json"

def _to_json(opts) -> list: return [[o.op.name, o.axis, list(o.arg) if isinstance(o.arg, tuple) else o.arg] for o in opts]
def _from_json(js) -> tuple: return tuple(Opt(OptOps[op], axis, tuple(arg) if isinstance(arg, list) else arg) for op, axis, arg in js)

@contextlib.contextmanager
def shipped_beam(amt:int=2, path:Path|str=BEAM_CACHE, search_missing:bool|None=None):
  """Compile with BEAM=amt inside this block, taking the opts from `path`. Yields a dict that counts the kernels
  served from the file ("hits"), given default opts ("misses") and searched now ("searched")."""
  path = Path(path)
  cache = json.loads(path.read_text()) if path.exists() else {}
  if search_missing is None: search_missing = os.environ.get("INFER_BEAM") == "search"
  stats = {"hits": 0, "misses": 0, "searched": 0}
  real_search = search.beam_search
  def lookup(s, rawbufs, var_vals, amt, allow_test_size=True, disable_cache=False):
    key = f"{s.ren.target.device}:{amt}:{s.ast.key.hex()}"
    if key in cache:
      stats["hits"] += 1
      ret = s.copy()
      for o in _from_json(cache[key]): ret.apply_opt(o)
      return ret
    if search_missing:
      stats["searched"] += 1
      ret = real_search(s, rawbufs, var_vals, amt, allow_test_size, disable_cache=True)
      cache[key] = _to_json(ret.applied_opts)
      path.write_text(json.dumps(cache, indent=1, sort_keys=True) + "\n")
      return ret
    stats["misses"] += 1
    return hand_coded_optimizations(s)
  search.beam_search = lookup
  try:
    with Context(BEAM=amt): yield stats
  finally: search.beam_search = real_search
