"""Sealed values: how the expected values a learner's copy ships (`expected.json`) keep the findings a task asks for off
the learner's disk, and still let the self-check judge them.

* An exact value (a count, a name, a table, a choice: the expected value of a check_equal or check_set that holds no
  float) ships **sealed**: a salted SHA-256 of its canonical form, with the same for each item of a list or tuple and
  each entry of a dict, so that a failing self-check can still say which item or key is wrong, and how many items
  there should be. Each item's digest is salted with its place too (an entry's value with its key), so that equal
  items do not show as equal digests: a list of answers must not tell which of them are the same. It never ships the
  value: the self-check compares digests. (A digest of a small count can be
  found by trying every count; it keeps the answer off the page, it does not make it secret. Grading never uses
  shipped values.)
* A float finding of a `close` check (a float, or a short list or tuple of floats) ships sealed by **buckets**: the real
  line is mapped so that the check's tolerance spans at least one unit around any value (`_scale`), cut into
  BUCKETS_PER_UNIT buckets a unit, and the digests of the buckets that meet the tolerance interval around the
  reference's value ship (about 17). The self-check passes a value whose bucket is among them: every value within the
  tolerance, and none further than an eighth of it beyond (grading, against the reference run, draws the exact line).
* A float finding of an `equal` check (or a short list or tuple of them) ships as the digests of the floats within
  SHIPPED_ULPS steps of it (float32's for a float32 number): what the self-check allows a shipped float of an `equal` check.
* Any other float value ships as it is. A large array ships its first rows (compare.prefix) and, added here, the sums
  of its blocks, so that a value wrong only past the first rows fails the self-check as it fails grading.

Canonical forms follow compare.first_difference's idea of equal: an array by its shape and values (not its dtype), a
dict by its entries in any order, a set by its items, 1 and True and 1.0 apart."""
from __future__ import annotations
import hashlib, json, math
from typing import Any
from autograder.notebook.compare import SHIPPED_ULPS, as_array, compare, is_array

BLOCKS = 64           # block sums shipped beside a large float array's first rows
MAX_ITEMS = 256       # a sealed list or dict of up to this many items ships a digest per item (the self-check names the wrong one)

def canonical(e:Any) -> Any|None:
  """The canonical form of an encoded value, or None when it holds a float (not sealed)."""
  if e is None or isinstance(e, (bool, str)): return ["b" if isinstance(e, bool) else "s" if isinstance(e, str) else "n", e]
  if isinstance(e, int): return ["i", e]
  if isinstance(e, float): return None
  if is_array(e):
    a = as_array(e)
    if a is None or a.dtype.kind not in "biu": return None
    return ["a", list(a.shape), [int(x) for x in a.ravel()]]
  if isinstance(e, list): return _items("l", e)
  if isinstance(e, dict):
    if "__tuple__" in e: return _items("t", e["__tuple__"])
    if "__set__" in e:
      items = [canonical(x) for x in e["__set__"]]
      return None if any(x is None for x in items) else ["S", sorted(json.dumps(x, sort_keys=True) for x in items)]
    if "__dict__" in e:
      pairs = [(canonical(k), canonical(v)) for k, v in e["__dict__"]]
      if any(k is None or v is None for k, v in pairs): return None
      return ["d", sorted([json.dumps(k, sort_keys=True), json.dumps(v, sort_keys=True)] for k, v in pairs)]
    if "__int__" in e: return ["i", e["__int__"]]
    if "__dtype__" in e or "__enum__" in e or "__type__" in e: return ["o", json.dumps(e, sort_keys=True)]
  return None

def _items(tag:str, xs:list) -> list|None:
  items = [canonical(x) for x in xs]
  return None if any(x is None for x in items) else [tag, items]

def digest(form:Any, salt:str) -> str:
  return hashlib.sha256((salt + json.dumps(form, sort_keys=True, separators=(",", ":"))).encode()).hexdigest()[:32]

def _at(salt:str, place:Any) -> str: return f"{salt}:{place}"      # an item's salt: the value's and its place (index, key)

def seal(e:Any, salt:str) -> dict|None:
  """The sealed form of an exact encoded value (see the module's doc), or None for a value that holds a float."""
  form = canonical(e)
  if form is None: return None
  out = {"digest": digest(form, salt), "salt": salt, "kind": form[0]}
  if form[0] in ("l", "t") and len(form[1]) <= MAX_ITEMS: out["items"] = [digest(x, _at(salt, i)) for i, x in enumerate(form[1])]
  if form[0] == "d" and len(form[1]) <= MAX_ITEMS: out["entries"] = {digest(json.loads(k), salt): digest(json.loads(v), _at(salt, k)) for k, v in form[1]}
  return {"__sealed__": out}

# ---- a float finding, sealed by the buckets of its tolerance -------------------------------------------------------

BUCKETS_PER_UNIT = 8   # an eighth of the tolerance: how far past its edge a sealed float's self-check may pass a value
MAX_FLOATS = 16        # a list or tuple of up to this many floats ships sealed item by item
MAX_BUCKETS = 64

def _scale(v:float, rtol:float, atol:float) -> float:
  """A monotone map of the real line on which atol + rtol*|v| around any v spans at least one unit: v/atol near zero,
  log|v|/rtol far from it, joined by asinh (its slope 1/sqrt(atol^2 + (rtol*v)^2) is at least 1/(atol + rtol*|v|))."""
  if rtol <= 0: return v / atol
  a = max(atol, 1e-300)
  x = abs(v) * rtol / a
  t = math.asinh(x) if x < 1e8 else math.log(2) + math.log(abs(v)) + math.log(rtol) - math.log(a)
  return math.copysign(t / rtol, v)

def _interval(ref:float, rtol:float, atol:float) -> tuple[float, float]:
  tol = atol + rtol * abs(ref) + SHIPPED_ULPS * abs(ref) * 2.0 ** -23       # and a few float32 ulps: made on another CPU
  return ref - tol, ref + tol

def _bucket(v:float, rtol:float, atol:float) -> int: return math.floor(_scale(v, rtol, atol) * BUCKETS_PER_UNIT)

def _float_buckets(ref:float, rtol:float, atol:float, salt:str) -> list[str]|None:
  lo, hi = (_bucket(x, rtol, atol) for x in _interval(ref, rtol, atol))
  if hi - lo + 1 > MAX_BUCKETS: return None
  return sorted(digest(["f", b], salt) for b in range(lo, hi + 1))

def _plain_float(e:Any) -> bool: return type(e) is float and math.isfinite(e)

def _plain(e:Any, ints:bool) -> bool: return type(e) is int if ints else _plain_float(e)

def _shape(e:Any) -> str|None:
  """How a float finding is held: "list", "tuple" or None (one number)."""
  return "list" if isinstance(e, list) else "tuple" if isinstance(e, dict) and list(e) == ["__tuple__"] else None

def _numbers(e:Any, shape:str|None) -> list|None:
  """The numbers of an encoded value held as `shape`, or None when it is held otherwise."""
  if shape is None: return [e]
  if shape == "list": return e if isinstance(e, list) else None
  return e["__tuple__"] if isinstance(e, dict) and "__tuple__" in e else None

def seal_floats(e:Any, salt:str, rtol:float, atol:float) -> dict|None:
  """The sealed form of a float finding of a `close` check (see the module's doc), or None for a value it does not seal
  (not a finite float, an int, or a short list or tuple of floats or of ints, or a check with no tolerance). Ints seal
  as floats do, and the self-check then wants ints."""
  if not (rtol > 0 or atol > 0): return None
  shape = _shape(e)
  xs = _numbers(e, shape)
  ints = bool(xs) and all(type(x) is int for x in xs)        # a count compared with a tolerance (06's flops): sealed alike
  if not xs or len(xs) > MAX_FLOATS or not all(_plain(x, ints) for x in xs): return None
  items = [_float_buckets(float(x), rtol, atol, _at(salt, i)) for i, x in enumerate(xs)]
  if any(b is None for b in items): return None
  return {"__sealed__": {"kind": "f", "salt": salt, "shape": shape, "rtol": rtol, "atol": atol, "buckets": items, **({"ints": True} if ints else {})}}

def _neighbours(x:float) -> list[float]:
  """x and the floats up to SHIPPED_ULPS steps either side of it: float32's steps where x is a float32 number (a float32
  result read with .item(): compare.unit_dtype), float64's otherwise."""
  import numpy as np
  with np.errstate(over="ignore"): f32 = float(np.float32(x)) == x
  step = (lambda v, to: float(np.nextafter(np.float32(v), np.float32(to)))) if f32 else math.nextafter
  out, lo, hi = [x], x, x
  for _ in range(SHIPPED_ULPS): lo, hi = step(lo, -math.inf), step(hi, math.inf); out += [lo, hi]
  return out

def seal_exact_floats(e:Any, salt:str) -> dict|None:
  """An `equal` check's float finding (02's exp2 constant as the kernel computes with it, a float32 rounding away from
  log2(e)), or a short list or tuple of them, sealed by the digests of every float within SHIPPED_ULPS steps (see
  _neighbours): what the self-check allowed such a shipped float (compare.same_scalar), about; the unrounded float64
  constant is no float32 number and fails, as it fails grading."""
  shape = _shape(e)
  xs = _numbers(e, shape)
  if not xs or len(xs) > MAX_FLOATS or not all(_plain_float(x) for x in xs): return None
  items = [sorted({digest(["F", (y + 0.0).hex()], _at(salt, i)) for y in _neighbours(x)}) for i, x in enumerate(xs)]
  return {"__sealed__": {"kind": "F", "salt": salt, "shape": shape, "digests": items}}

def _exact_float_problem(actual:Any, s:dict) -> str|None:
  shape, items = s.get("shape"), s["digests"]
  xs = _numbers(actual, shape)
  if xs is None: return f"expected a {shape} of floats"
  if len(xs) != len(items): return f"expected {len(items)} items, got {len(xs)}"
  wrong = [i for i, (x, d) in enumerate(zip(xs, items)) if not (_plain_float(x) and digest(["F", (x + 0.0).hex()], _at(s["salt"], i)) in d)]
  if not wrong: return None
  say = "differs from the course machine's value (shipped sealed)"
  return say if shape is None else f"[{wrong[0]}] {say}" + (f" ({len(wrong)} of {len(xs)} items differ)" if len(wrong) > 1 else "")

def _float_problem(actual:Any, s:dict) -> str|None:
  shape, items = s.get("shape"), s["buckets"]
  xs = _numbers(actual, shape)
  number = "int" if s.get("ints") else "float"
  if xs is None: return f"expected a {shape} of {number}s"
  if len(xs) != len(items): return f"expected {len(items)} items, got {len(xs)}"
  wrong = [i for i, (x, b) in enumerate(zip(xs, items)) if not (_plain(x, bool(s.get("ints"))) and digest(["f", _bucket(float(x), s["rtol"], s["atol"])], _at(s["salt"], i)) in b)]
  if not wrong: return None
  say = "differs from the course machine's value by more than the check's tolerance (shipped sealed)"
  return say if shape is None else f"[{wrong[0]}] {say}" + (f" ({len(wrong)} of {len(xs)} items differ)" if len(wrong) > 1 else "")

def same_float_seal(a:dict, b:dict) -> bool:
  """Two sealed float findings (reference runs on two CPUs) agree: the same items, each's buckets shifted by at most one
  at either end (values a few ulps apart); of an `equal` check, at most SHIPPED_ULPS steps apart."""
  x, y = a["__sealed__"], b["__sealed__"]
  if x.get("kind") == y.get("kind") == "F":          # exact floats at most SHIPPED_ULPS steps apart: their neighbours overlap
    return x.get("shape") == y.get("shape") and len(x["digests"]) == len(y["digests"]) and \
           all(len(set(p) & set(q)) >= SHIPPED_ULPS + 1 for p, q in zip(x["digests"], y["digests"]))
  if x.get("kind") != "f" or y.get("kind") != "f" or x.get("shape") != y.get("shape") or len(x["buckets"]) != len(y["buckets"]): return False
  return all(len(set(p) & set(q)) >= max(len(p), len(q)) - 2 for p, q in zip(x["buckets"], y["buckets"]))

KINDS = {"b": "a bool", "s": "a string", "n": "None", "i": "an int", "a": "an array", "l": "a list", "t": "a tuple", "S": "a set", "d": "a dict", "o": "a dtype or type"}

def is_sealed(e:Any) -> bool: return isinstance(e, dict) and "__sealed__" in e

def unseal_problem(actual:Any, sealed:dict) -> str|None:
  """What differs between an encoded value and a sealed one, said without the sealed value; None when they match."""
  s = sealed["__sealed__"]
  if s.get("kind") == "f": return _float_problem(actual, s)
  if s.get("kind") == "F": return _exact_float_problem(actual, s)
  form = canonical(actual)
  if form is not None and digest(form, s["salt"]) == s["digest"]: return None
  if form is not None and form[0] != s.get("kind"): return f"expected {KINDS.get(s.get('kind'), 'another kind of value')}, got {KINDS.get(form[0], 'another kind of value')}"
  if "items" in s and form is not None and form[0] in ("l", "t"):
    if len(form[1]) != len(s["items"]): return f"expected {len(s['items'])} items, got {len(form[1])}"
    wrong = [i for i, (x, d) in enumerate(zip(form[1], s["items"])) if digest(x, _at(s["salt"], i)) != d]
    return f"[{wrong[0]}] differs from the course machine's value" + (f" ({len(wrong)} of {len(form[1])} items differ)" if len(wrong) > 1 else "")
  if "entries" in s and form is not None and form[0] == "d":
    mine = {digest(json.loads(k), s["salt"]): (json.loads(k), json.loads(v), k) for k, v in form[1]}
    extra = [k for k in mine if k not in s["entries"]]
    missing = len([k for k in s["entries"] if k not in mine])
    if extra or missing: return f"{len(extra)} unexpected key(s), {missing} missing key(s)"
    wrong = [mine[k][0] for k in mine if digest(mine[k][1], _at(s["salt"], mine[k][2])) != s["entries"][k]]
    return f"the value of key {_short(wrong[0])} differs from the course machine's" + (f" ({len(wrong)} keys differ)" if len(wrong) > 1 else "")
  return "differs from the course machine's value (shipped sealed: the self-check compares digests)"

def _short(form:Any) -> str: return json.dumps(form[1] if isinstance(form, list) and len(form) == 2 else form)[:60]

# ---- block sums of a large float array ----------------------------------------------------------------------------

def block_sums(e:Any, blocks:int=BLOCKS) -> dict|None:
  """{"sums", "abs"}: the float64 sums, and sums of absolute values, of up to `blocks` equal runs of the flattened
  array (None for a small or non-float array)."""
  a = as_array(e)
  if a is None or a.dtype.kind != "f" or a.size <= blocks: return None
  import numpy as np
  parts = np.array_split(a.astype(np.float64).ravel(), blocks)
  return {"size": int(a.size), "sums": [float(p.sum()) for p in parts], "abs": [float(np.abs(p).sum()) for p in parts]}

def blocks_problem(actual:Any, want:dict, rtol:float, atol:float) -> str|None:
  """Whether an array's block sums match shipped ones within the check's tolerance, summed over each block (and a
  few ulps of each element more: the sums were made on another CPU)."""
  a = as_array(actual)
  if a is None: return None
  got = block_sums(actual, len(want["sums"]))
  if got is None: return None
  import numpy as np
  n = [len(p) for p in np.array_split(np.empty(a.size), len(want["sums"]))]
  for i, (g, w, m, size) in enumerate(zip(got["sums"], want["sums"], want["abs"], n)):
    if not math.isfinite(g) or abs(g - w) > atol * size + (rtol + 1e-5) * m + 1e-30:
      return f"the values past the first rows differ (block {i + 1} of {len(n)}: sum {g:.6g}, expected about {w:.6g})"
  return None

def same_blocks(a:dict, b:dict, rtol:float, atol:float) -> bool:
  """Two shipped block sums (reference runs on two CPUs) agree within the check's tolerance."""
  if len(a["sums"]) != len(b["sums"]): return False
  size = a.get("size", 1) / max(1, len(a["sums"]))
  return all(abs(x - y) <= atol * size + (rtol + 1e-5) * max(m, n) + 1e-30 for x, y, m, n in zip(a["sums"], b["sums"], a["abs"], b["abs"]))

# ---- a check against a shipped value --------------------------------------------------------------------------------

def compare_shipped(kind:str, actual:Any, expected:Any, opts:dict|None=None) -> str|None:
  """A learner's value against a shipped one, as the self-check judges it: a sealed value by its digests, any other
  with the check's own comparison (and SHIPPED_ULPS: it was computed on another CPU), a large array's first rows and
  then its block sums."""
  if is_sealed(expected): return unseal_problem(actual, expected)
  message = compare(kind, actual, expected, opts or {}, ulps=SHIPPED_ULPS)
  blocks = expected["__prefix__"].get("blocks") if isinstance(expected, dict) and "__prefix__" in expected else None
  if message is None and blocks: message = blocks_problem(actual, blocks, float((opts or {}).get("rtol") or 0), float((opts or {}).get("atol") or 0))
  return message
