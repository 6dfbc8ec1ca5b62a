"""The check vocabulary that every test cell uses.

A check names what it observes (`actual`) and what that should be (`expected`, the oracle). How it judges depends on
the mode the notebook runs in:

* `inline` (self-check, plain nbgrader, any notebook you run yourself): compare here and raise `CheckFailed` with a
  one-line message that says what was expected and what came back.
* `reference` (the grader's run of the trusted solution): the same, and each check is also recorded as an
  observation (actual, expected, kind, tolerance) that the grader reads from the cell's output.
* `learner` (grading a submission): the grader has removed every `expected` argument and every `with oracle():` block
  from the cells, so no expected value exists in this process; each check only records what it observed. The grader
  compares, in its own process, with the reference run's expected values.

In a released notebook the oracle is cut out too: an expected argument that was computed reads `...`, and the check
compares with the value the reference run recorded there, shipped beside the notebook (autograder/notebook/shipped.py),
with the check's own tolerance and a few ulps more for floats (computed on another CPU: compare.SHIPPED_ULPS).

`skip(reason)` raises `CheckSkipped`: the report shows the test as skipped and it earns no points. tinygrad and torch
are imported lazily, so notebooks that need neither stay light.
"""
from __future__ import annotations
import contextlib, json, re, time
from pathlib import Path
from typing import Any, Callable
from autograder.notebook import shipped
from autograder.notebook.timing import ABOVE, BELOW, UNDECIDED, decide
from autograder.notebook.tinygrad_kernels import kernel_dispatch, kernels_during, kernels_run
from autograder.notebook.compare import compare, encode, join, to_numpy, dtype_name
from autograder.notebook.sealed import compare_shipped, is_sealed

class CheckFailed(AssertionError): pass
class CheckSkipped(Exception): pass
class DifferenceFound(CheckFailed): pass

MIME = "application/x.autograder-observation+json"
FORBIDDEN_MIME = "application/x.autograder-forbidden+json"     # the reference run names what forbidden() blocks trap
# The argument of each check that holds the oracle: (position, keyword). The grader strips it from learner runs.
EXPECTED_ARG = {"check_close": (1, "expected"), "check_equal": (1, "expected"), "check_shape": (1, "expected_shape"),
                "check_dtype": (1, "expected"), "check_type": (1, "expected_type"), "check_in": (0, "needle"),
                "check_raises": (1, "exception"), "check_kernel_count": (1, "expected"), "check_range": (1, "low"),
                "check_set": (1, "expected"), "check_agreement": (1, "expected")}
SECOND_EXPECTED_ARG = {"check_range": (2, "high")}
CHECKS = set(EXPECTED_ARG) | {"check", "check_no_kernels", "check_same", "check_ratio", "record_metric"}

_state = {"mode": "inline", "cell": None, "counts": {}, "hidden": False, "answers": None, "machine": 0, "reference": None}

class _Absent:
  """An import hook for the module's forbidden libraries where grading has no sandbox to hide their files (see
  core/sandbox.py, which is the barrier): importing one raises ModuleNotFoundError, as the sandbox's stub does."""
  def __init__(self, names:list[str]): self.names = names
  def find_spec(self, name, path=None, target=None):
    if any(name == n or name.startswith(n + ".") for n in self.names):
      raise ModuleNotFoundError(f"{name} is not available when this module is graded: its answers may not use it (the module's forbidden_libraries)", name=name)
    return None

def configure(mode:str):
  """Set by the grader in the first cell it runs: 'inline', 'reference' or 'learner'."""
  import os, sys
  if mode not in ("inline", "reference", "learner"): raise ValueError(f"unknown mode {mode!r}")
  _state["mode"] = mode
  if mode == "learner" and (names := [n for n in os.environ.get("AUTOGRADER_FORBIDDEN_LIBRARIES", "").split(",") if n]):
    sys.meta_path.insert(0, _Absent(names))

RECORDER = "__autograder_checks"                # the name the grader gives this module in the cells it runs (core/transform.py)
_MARK = re.compile(rf"^\s*{RECORDER}\.hidden\((True|False)\)\s*$")

def _blank_hidden(text:str) -> str:
  """A test cell as the grader sent it, with the statements between the recorder's hidden(True) and hidden(False)
  blanked (line for line)."""
  out, on = [], False
  for line in str(text).split("\n"):
    if (m := _MARK.match(line)): on = m.group(1) == "True"
    out.append("" if on else line)
  return "\n".join(out)

def _scrub(frame):
  """Learner mode, at the start of a test cell: the cell's text where IPython keeps it (In and _ih, the raw history,
  _i<N>, the next cell's _i, the line cache of its code) loses its hidden part, so that an answer the cell calls cannot
  read it back from there. The cell's code object, its frames and the namespace still hold what the hidden part
  computes: that is the learner's process, and what leaves it is judged elsewhere (see grader.md)."""
  import linecache
  from IPython import get_ipython
  ip = get_ipython()
  if ip is None: return
  hm = ip.history_manager
  for kept in (hm.input_hist_parsed, hm.input_hist_raw):
    if kept: kept[-1] = _blank_hidden(kept[-1])
  hm._i00 = _blank_hidden(hm._i00)
  key = f"_i{ip.execution_count}"
  if isinstance(ip.user_ns.get(key), str): ip.user_ns[key] = _blank_hidden(ip.user_ns[key])
  with hm.db_input_cache_lock: hm.db_input_cache[:] = [(n, _blank_hidden(a), _blank_hidden(b)) for n, a, b in hm.db_input_cache]
  name = frame.f_code.co_filename if frame is not None else None
  if (entry := linecache.cache.get(name)) is not None and len(entry) == 4:
    lines = _blank_hidden("".join(entry[2])).split("\n")
    linecache.cache[name] = (entry[0], entry[1], [l + "\n" for l in lines[:len(entry[2])]], entry[3])

def begin(cell:str):
  """Start of a test cell (the grader puts this call first in each one): occurrences are counted per cell; in a
  learner's graded run the cell's hidden part leaves IPython's history (see _scrub)."""
  import sys
  _state.update(cell=cell, counts={}, hidden=False)
  if _state["mode"] == "learner":
    try: _scrub(sys._getframe(1))
    except Exception: pass                                  # (no IPython: nothing keeps the text)

def hidden(on:bool): _state["hidden"] = on

def set_answers(sources:dict[str, str]):
  """Set by the grader in a kernel where no answer cell runs: the source of each function the answers define."""
  _state["answers"] = dict(sources)

def answer_source(name:str) -> str:
  """The source of the answer cell that defines the learner's function `name` (with any helper defined beside it), for
  a test that runs it elsewhere (in a child process): taken from the notebook where it is defined, or, where the
  grader runs the tests apart from the answers, from the grader."""
  if _state["answers"] is not None:
    if name not in _state["answers"]: fail(f"no answer cell defines {name}")
    return _state["answers"][name]
  import inspect, linecache
  from IPython import get_ipython
  ns = get_ipython().user_ns if get_ipython() is not None else {}
  if name not in ns: fail(f"{name} is not defined: run its answer cell first")
  cell = "".join(linecache.getlines(getattr(getattr(ns[name], "__code__", None), "co_filename", "")))
  return cell or inspect.getsource(ns[name])

def stop_at_first_difference(path:str):
  """Mutation sessions only (authoring/mutants.py, where every answer is the author's): the reference run's records
  of each test, read from the JSON file `path`; from now on a learner-mode check whose record differs from the
  reference's raises DifferenceFound at once. A wrong variant then stops at the first check it fails instead of
  running the rest of the test: whether it loses points is the same, only sooner."""
  _state["reference"] = {(test, r["site"], r["k"]): r for test, records in json.loads(Path(path).read_text()).items() for r in records}

def _differs(site:str, k:int, actual:Any) -> str|None:
  ref = _state["reference"].get((_state["cell"], site, k))
  if ref is None: return None
  return compare(ref["kind"], json.loads(json.dumps(actual)), ref.get("expected"), ref.get("opts") or {})   # as the grader reads it

def mode() -> str: return _state["mode"]

def fail(message:str): raise CheckFailed(message)
def skip(reason:str): raise CheckSkipped(reason)

@contextlib.contextmanager
def oracle():
  """Marks the oracle part of a test: torch references, tinygrad's own figures on a twin computation, values typed
  in. It runs in self-checks and in the reference run; grading removes the block from the learner's run."""
  yield

@contextlib.contextmanager
def machine_dependent(reason:str):
  """Checks whose expected value depends on the machine (a BEAM search's choice, a compiled binary): grading compares
  them with the reference run on the grading machine, whose caches the learner's run shares; a notebook run anywhere
  else (a self-check, JupyterLab) does not compare them, since no value from another machine would be right there.
  `reason` says why, to the learner reading the test."""
  _state["machine"] += 1
  try: yield
  finally: _state["machine"] -= 1

def _beside(name:str, actual:Any, expected:Any):
  """Once a learner's figure passes against a shipped one: theirs beside the course machine's (a number only)."""
  number = lambda v: type(v) in (int, float) and not isinstance(v, bool)
  if number(actual) and (number(expected) or is_sealed(expected)):
    theirs = f"{actual:,}" if isinstance(actual, int) else f"{actual:.6g}"
    same = "the same within the check's tolerance" if is_sealed(expected) and expected["__sealed__"].get("kind") == "f" else "the same"
    print(f"{name}: you {theirs}; the course machine {same if is_sealed(expected) else (f'{expected:,}' if isinstance(expected, int) else f'{expected:.6g}')}")

def _publish(record:dict):
  from IPython.display import publish_display_data
  publish_display_data({MIME: record})

def _judge(kind:str, actual:Any, expected:Any, name:str, site:str|None, **opts):
  """The single place where a check reaches its verdict (inline) or records its observation (reference, learner)."""
  m = _state["mode"]
  enc_actual = encode(actual)
  if m == "learner" and site is not None:
    k = _state["counts"][site] = _state["counts"].get(site, -1) + 1
    _publish({"site": site, "k": k, "kind": kind, "actual": enc_actual, "name": str(name)[:300]})
    if _state["reference"] is not None and (message := _differs(site, k, enc_actual)) is not None: raise DifferenceFound(join(name, message))
    return
  if m == "inline" and _state["machine"]: return           # compared when graded only (see machine_dependent)
  if expected is ...:                                      # cut at release: the reference's value, shipped with the notebook
    if m == "reference": raise ValueError(f"{name}: an expected value written as `...` in the trusted source")
    enc_expected = shipped.lookup()                        # computed on the author's CPU (or sealed): sealed.compare_shipped
    message = compare_shipped(kind, enc_actual, enc_expected, opts)
    if message is None and m == "inline": _beside(name, enc_actual, enc_expected)
  else:
    enc_expected = encode(expected)
    message = compare(kind, enc_actual, enc_expected, opts)
  if m == "reference" and site is not None:
    k = _state["counts"][site] = _state["counts"].get(site, -1) + 1
    _publish({"site": site, "k": k, "kind": kind, "opts": opts, "name": str(name)[:300], "hidden": _state["hidden"],
              "actual": enc_actual, "expected": enc_expected, "ok": message is None})
  if message is not None: fail(name if kind == "true" and actual is not None and enc_actual is False else join(name, message))

# ---- values ----------------------------------------------------------------------------------------------------

def check(condition:bool, message:str, _site:str|None=None):
  """The general form: passes when `condition` is exactly True. Weak when grading (True is easy to guess): pair it
  with a check of a value."""
  _judge("true", condition, True, message, _site)

def check_close(actual:Any, expected:Any=None, rtol:float=1e-5, atol:float=1e-6, name:str="result", dtype:bool=True, _site:str|None=None):
  """`actual` (usually a tinygrad Tensor) equals `expected` (usually the torch result): same shape, same dtype
  (unless dtype=False) and values within atol + rtol*|expected|."""
  _judge("close", actual, expected, name, _site, rtol=rtol, atol=atol, dtype=dtype)

def check_equal(actual:Any, expected:Any=None, name:str="result", _site:str|None=None):
  """Exact equality. Arrays and tensors compare element by element (shape and values), containers item by item, and
  the message names the first key, item or index that differs."""
  _judge("equal", actual, expected, name, _site)

def check_same(actual:Any, name:str="result", rtol:float|None=None, atol:float=0.0, _site:str|None=None):
  """`actual` equals what the reference solution's own code gives at this point (close when `rtol` is given). Inline
  (no reference at hand) it checks nothing but that the value can be recorded; use it for figures that have no
  independent oracle, and pair it with checks that do."""
  _judge("close" if rtol is not None else "equal", actual, actual, name, _site, **({"rtol": rtol, "atol": atol, "dtype": True} if rtol is not None else {}))

def check_range(actual:Any, low:float|None=None, high:float|None=None, name:str="result", _site:str|None=None):
  """`low <= actual <= high` (a bound of None is open): for measured figures such as timings and speed-ups."""
  value = actual.item() if hasattr(actual, "item") and type(actual).__module__ == "numpy" else actual
  _judge("range", value, ... if low is ... or high is ... else (low, high), name, _site)

def check_agreement(actual:Any, expected:Any=None, at_least:float=1.0, name:str="result", _site:str|None=None):
  """At least a fraction `at_least` of the elements of `actual` equal those of `expected` (same shape): accuracy of
  predictions against labels, for instance."""
  _judge("agree", actual, expected, name, _site, at_least=at_least)

def check_set(actual:Any, expected:Any=None, name:str="result", _site:str|None=None):
  """The same items in any order (duplicates ignored); the message lists what is missing and what is extra."""
  def freeze(x):
    if isinstance(x, (list, tuple)): return tuple(freeze(v) for v in x)
    return x
  try: got = {freeze(x) for x in actual}
  except TypeError: got = actual
  _judge("set", got, expected if expected is None or expected is ... else {freeze(x) for x in expected}, name, _site)

def check_shape(actual:Any, expected_shape:tuple=None, name:str="result", _site:str|None=None):
  got = getattr(actual, "shape", None)
  got = tuple(int(s) for s in got) if isinstance(got, (tuple, list)) or type(got).__name__ == "Size" else tuple(to_numpy(actual).shape)
  _judge("equal", got, expected_shape if expected_shape is None or expected_shape is ... else tuple(expected_shape), f"{name} shape", _site)

def check_dtype(actual:Any, expected:Any=None, name:str="result", _site:str|None=None):
  """`expected` is a tensor/array whose dtype to match, or a dtype name such as 'float32'."""
  want = expected if isinstance(expected, str) or expected is None or expected is ... else dtype_name(expected)
  _judge("equal", dtype_name(actual), want, f"{name} dtype", _site)

def check_type(actual:Any, expected_type:type|tuple=None, name:str="result", _site:str|None=None):
  _judge("type", type(actual), expected_type, name, _site)

def check_in(needle:str, haystack:str, name:str="text", _site:str|None=None):
  """`needle` (the expected part) occurs in the string `haystack` (what is observed)."""
  _judge("contains", haystack, needle, name, _site)

def check_raises(fn:Callable, exception:type[BaseException]=Exception, name:str="call", _site:str|None=None):
  try:
    fn(); raised = None
  except CheckFailed: raise
  except Exception as e: raised = type(e)
  _judge("raises", raised, exception, name, _site)

# ---- tinygrad kernels: counted inside tinygrad's dispatch (tinygrad_kernels.py) -------------------------------------

def check_kernel_count(fn:Callable, expected:int=None, name:str="computation", _site:str|None=None):
  """`fn()` runs exactly `expected` kernels (COPYs included), as tinygrad's dispatch counts them (GlobalCounters'
  rule). A count is easy to guess: pair it with a check of the values."""
  _, ran = kernels_run(fn)
  _judge("equal", ran, expected, f"{name}: kernels", _site)

def check_no_kernels(fn:Callable, name:str="call", _site:str|None=None):
  """`fn()` runs no kernel at all (nothing is realized inside it; its result is *not* realized here)."""
  from tinygrad import GlobalCounters
  GlobalCounters.reset()
  _, ran, _ = kernels_during(fn)
  _judge("equal", ran, 0, f"{name}: kernels run", _site)

def _targets(obj:Any, attr:str) -> tuple[set, set]:
  """(code objects, builtin callables) behind `obj.<attr>`: a function's code, a method's, a property's accessors',
  and for a wrapper the code of what it wraps (not its own)."""
  import inspect
  codes, natives, todo, seen = set(), set(), [inspect.getattr_static(obj, attr, None)], set()
  while todo:
    v = todo.pop()
    if v is None or id(v) in seen: continue
    seen.add(id(v))
    if isinstance(v, (staticmethod, classmethod)): todo.append(v.__func__); continue
    if isinstance(v, property): todo += [v.fget, v.fset, v.fdel]; continue
    if hasattr(v, "__wrapped__"): todo.append(v.__wrapped__); continue    # a wrapper's code is shared (tinygrad wraps every method in one)
    if hasattr(v, "__func__"): todo.append(v.__func__)
    if hasattr(v, "__code__"): codes.add(v.__code__)
    elif callable(v): natives.add(v)
  return codes, natives

_trap = {"codes": {}, "natives": {}, "tripped": set(), "saved": None, "open": [], "cells": {}}   # natives: by id (the block keeps the object)

def _cell_code(code) -> bool:
  """Whether a code object was compiled from a notebook cell (IPython's names for cells); remembered per code object
  (the profile hook asks on every call)."""
  known = _trap["cells"].get(code)
  if known is None:
    name = code.co_filename
    known = _trap["cells"][code] = name.startswith("<ipython-input") or "ipykernel_" in name
  return known

def _profile(frame, event, arg, codes=_trap["codes"], natives=_trap["natives"], tripped=_trap["tripped"], opened=_trap["open"]):
  """Runs on every call while a forbidden() block is open: notes a call of a forbidden function however it was
  reached, and (reference run) the functions of the notebook's cells that ran inside the block. It never raises (an
  exception here would switch profiling off); the block's end fails instead. Every Python and C call of the block
  passes through here (tinygrad's rewrites make millions), so it does as little as it can: the tables are bound once
  and a C function is looked up by id."""
  if event == "call":
    if frame.f_code in codes: tripped.add(frame.f_code)
    if opened and _cell_code(frame.f_code):
      for called in opened: called.add(frame.f_code.co_name)
  elif event == "c_call" and id(arg) in natives: tripped.add(id(arg))

@contextlib.contextmanager
def forbidden(obj:Any, *attributes:str):
  """Within the block, using `obj.<attribute>` for each name fails the test, e.g.
  `with forbidden(Tensor, "matmul", "dot", "__matmul__"): my_matmul(a, b)`. Reading the attribute raises CheckFailed
  at once; calling the function behind it in any other way (a reference taken before the block, `getattr`, an alias,
  a copy of the method on another class) is noticed by a profile hook on its code and fails the test when the block
  ends. `obj` must be a class or a module: an attribute set on a function or an instance does not change what calling
  it does (tinygrad 0.14's `TinyJit`, say, is a function that returns a `_TinyJit`: trap `type(TinyJit(f))` instead)."""
  import sys, threading, types
  if not isinstance(obj, (type, types.ModuleType)): raise TypeError(f"forbidden() needs a class or a module, not {type(obj).__name__}")
  saved = {a: obj.__dict__[a] for a in attributes if a in getattr(obj, "__dict__", {})}
  trapped, natives_by_id, tripped, opened = _profile.__defaults__   # the hook's own tables, whatever _trap names
  called = set()                                           # reference run: the cells' functions that run inside the block
  if _state["mode"] == "reference": opened.append(called)
  mine = {}
  for a in attributes:
    codes, natives = _targets(obj, a)
    mine.update({c: a for c in codes}); mine.update({id(n): a for n in natives})
    for c in codes: trapped[c] = trapped.get(c, 0) + 1
    for n in natives: natives_by_id[id(n)] = natives_by_id.get(id(n), 0) + 1
  def make(attr):
    def trap(*args, **kwargs): fail(f"{attr} must not be used here")
    return trap
  outer = _trap["saved"] is not None
  if not outer: _trap["saved"] = (sys.getprofile(),)
  sys.setprofile(_profile); threading.setprofile(_profile)
  try:
    for a in attributes: setattr(obj, a, make(a))
    yield
    if sys.getprofile() is not _profile: fail("the profile hook that watches forbidden functions was removed")
    if (hit := sorted({mine[t] for t in tripped if t in mine})): fail(f"{', '.join(hit)} must not be used here (called through another name)")
  finally:
    for a in attributes:
      if a in saved: setattr(obj, a, saved[a])
      else: delattr(obj, a)
    for table in (trapped, natives_by_id):
      for key in [k for k in table if k in mine]:
        table[key] -= 1
        if not table[key]: del table[key]
    tripped -= set(mine)
    if _state["mode"] == "reference":                      # for the flags: answers that mention these are reviewed
      opened.remove(called)
      from IPython.display import publish_display_data
      publish_display_data({FORBIDDEN_MIME: {"names": list(attributes), "called": sorted(called)}})
    if not outer:
      previous = _trap["saved"][0]; _trap["saved"] = None
      sys.setprofile(previous); threading.setprofile(previous)
    else: sys.setprofile(_profile)

# ---- devices and timing -------------------------------------------------------------------------------------------

def has_device(name:str) -> bool:
  """Whether tinygrad can open device `name` here (any failure to open means no)."""
  from tinygrad import Device
  try: Device[name]; return True
  except Exception: return False

def require_device(name:str):
  """Skip the rest of the test (reported as skipped, no points) when `name` cannot be opened here."""
  if not has_device(name): skip(f"no {name} device on this machine")

def check_ratio(candidate:Callable, baseline:Callable, at_most:float|None=None, at_least:float|None=None, name:str="time ratio",
                retries:int=1, _site:str|None=None, **timing):
  """time(candidate()) / time(baseline()) is at most `at_most` (or at least `at_least`), decided as timing.decide
  decides (interleaved rounds, a confidence interval of the median ratio that must clear the bound), tried again up to
  `retries` times while undecided. Observes the verdict ('below', 'above' or 'undecided'), the same on any machine
  and load for code whose ratio lies far from the bound; returns the last timing.Decision (its ratio for a message or
  a proxy: a test that must decide anyway checks a count when the verdict is undecided)."""
  if (at_most is None) == (at_least is None): raise ValueError("check_ratio takes one of at_most and at_least")
  bound, want = (at_most, BELOW) if at_most is not None else (at_least, ABOVE)
  for _ in range(1 + retries):
    got = decide(candidate, baseline, bound, **timing)
    if got.verdict != UNDECIDED: break
  _judge("equal", got.verdict, want, f"{name} {'at most' if want == BELOW else 'at least'} {bound:g}", _site)
  return got

def record_metric(value:float, name:str, _site:str|None=None):
  """A figure for the class leaderboard, higher is better (the speed-up the learner's code reached against the
  reference's, measured in the same run, say): kept in the grading report beside the test, never compared (it earns
  and loses nothing), listed by `autograder leaderboard` for an instructor who asks for it."""
  _judge("metric", float(value) if isinstance(value, (int, float)) else value, None, name, _site)

def median_time(fn:Callable, warmup:int=2, repeats:int=7, clock:Callable[[], float]=time.perf_counter) -> float:
  """A fair timing: `warmup` untimed calls, then the median of `repeats` timed calls, in seconds."""
  for _ in range(warmup): fn()
  times = []
  for _ in range(repeats):
    st = clock(); fn(); times.append(clock() - st)
  return sorted(times)[len(times)//2]

__all__ = ["CheckFailed", "CheckSkipped", "fail", "skip", "oracle", "machine_dependent", "answer_source", "check", "check_close", "check_equal", "check_same",
           "check_range", "check_set", "check_agreement", "check_shape", "check_dtype", "check_type", "check_in", "check_raises",
           "kernels_run", "kernels_during", "kernel_dispatch", "check_kernel_count", "check_no_kernels", "forbidden", "has_device", "require_device",
           "check_ratio", "record_metric", "median_time", "to_numpy"]
