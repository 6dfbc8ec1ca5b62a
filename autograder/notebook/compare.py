"""Values as plain data, and the comparisons every check makes on them.

`encode` runs where the value lives (the notebook kernel): it turns tensors, arrays, containers and a few tinygrad
objects into JSON-able data with exact-type dispatch, so an object that lies about itself (an `==` that is always
true, methods that return self) becomes an opaque `{"__object__": ...}` that equals nothing real. `compare` runs on
that data alone (numpy only, nothing is ever unpickled), in the kernel for self-checks and in the grader's own
process for grading: one implementation, so both give the same verdict and the same message.
"""
from __future__ import annotations
import base64, builtins, enum, functools, importlib, json, math, re, sys, types
from typing import Any

MAX_ARRAY_BYTES, MAX_DEPTH, MAX_ITEMS = 64 << 20, 24, 100_000

# ---- encoding (in the kernel) -------------------------------------------------------------------------------------

def dtype_name(value:Any) -> str|None:
  """A dtype spelled the same way for tinygrad, torch and numpy: 'float32', 'int32', 'bool', ..."""
  import numpy as np
  dt = getattr(value, "dtype", None)
  if dt is None: return None
  mod = type(value).__module__
  if mod.startswith("torch"): return str(dt).removeprefix("torch.")
  if type(dt).__module__.startswith("tinygrad"):
    from tinygrad.dtype import _to_np_dtype
    npdt = _to_np_dtype(dt)
    return np.dtype(npdt).name if npdt is not None else getattr(dt, "name", str(dt))
  return np.dtype(dt).name

def to_numpy(value:Any):
  """A tinygrad Tensor, torch tensor, numpy array or nested list as a numpy array (realizing tinygrad tensors)."""
  import numpy as np
  mod = type(value).__module__
  if mod.startswith("torch"): return value.detach().cpu().numpy()
  if mod.startswith("tinygrad") and type(value).__name__ == "Tensor": return value.numpy()
  return np.asarray(value)

def _array(value:Any, dtype:str|None=None) -> dict:
  import numpy as np
  a = np.ascontiguousarray(value)
  if a.dtype == object: return _opaque(value)
  if a.nbytes > MAX_ARRAY_BYTES: return {"__object__": "array", "repr": f"an array of {a.nbytes} bytes (too large to compare)"}
  return {"__array__": {"dtype": dtype or a.dtype.name, "np": a.dtype.str, "shape": list(a.shape),
                        "data": base64.b64encode(a.tobytes()).decode()}}

def _opaque(value:Any) -> dict:
  try: text = repr(value)
  except Exception as e: text = f"<repr failed: {type(e).__name__}>"
  return {"__object__": f"{type(value).__module__}.{type(value).__qualname__}", "repr": " ".join(str(text).split())[:200]}

def _is_tensor(value:Any) -> bool:
  mod, name = type(value).__module__, type(value).__name__
  return (mod.startswith("tinygrad") and name == "Tensor") or (mod.startswith("torch") and name in ("Tensor", "Parameter"))

def encode(value:Any, _depth:int=0) -> Any:
  """`value` as JSON-able data. Exact types only: a subclass of int or dict is not trusted to behave like one."""
  import numpy as np
  if _depth > MAX_DEPTH: return {"__object__": "nested", "repr": "nested too deeply"}
  t = type(value)
  if value is None or t in (bool, str): return value
  if t is int: return value if abs(value) < 2**53 else {"__int__": str(value)}
  if t is float: return value if math.isfinite(value) else {"__float__": repr(value)}
  if t in (list, tuple, set, frozenset, dict) and len(value) > MAX_ITEMS: return {"__object__": t.__name__, "repr": f"{len(value)} items (too many)"}
  if t is list: return [encode(v, _depth+1) for v in value]
  if t is tuple: return {"__tuple__": [encode(v, _depth+1) for v in value]}
  if t in (set, frozenset): return {"__set__": sorted((encode(v, _depth+1) for v in value), key=lambda e: json.dumps(e, sort_keys=True))}
  if t is dict: return {"__dict__": [[encode(k, _depth+1), encode(v, _depth+1)] for k, v in value.items()]}
  if isinstance(value, np.generic) and t.__module__ == "numpy": return encode(value.item(), _depth+1) if t is not np.float16 else float(value)
  if t is np.ndarray: return _array(value)
  if _is_tensor(value):
    try: return _array(to_numpy(value), dtype_name(value))
    except Exception as e: return {"__object__": "Tensor", "repr": f"could not read its values: {type(e).__name__}: {str(e)[:120]}"}
  if t.__module__.startswith("tinygrad") and t.__name__ == "DType": return {"__dtype__": value.name}
  if isinstance(value, enum.Enum) and t.__module__.startswith(("tinygrad", "enum")): return {"__enum__": f"{t.__name__}.{value.name}"}
  if isinstance(value, type): return {"__type__": type_names(value)}
  return _opaque(value)

def type_names(cls:type) -> list[str]:
  """`module.qualname` of a class and of everything it inherits from."""
  return [f"{c.__module__}.{c.__qualname__}" for c in getattr(cls, "__mro__", (cls,))]

# ---- names a message may show -----------------------------------------------------------------------------------------
# A class name recorded in the learner's kernel is text the learner chose (a class can be given any __qualname__ and
# __module__, of any length): shown in a message, it would carry out whatever the kernel read, hidden tests included.
# A message names a class only when a trusted module (Python's builtins, numpy, torch, tinygrad, the grader's own)
# really defines a class of that module and qualified name, looked up in this process; any other is OWN_CLASS.
TRUSTED_ROOTS = ("builtins", "numpy", "torch", "tinygrad", "autograder")
OWN_CLASS = "a class the answer defines"
OPAQUE_LABELS = {"array", "nested", "Tensor", "list", "tuple", "set", "frozenset", "dict"}     # what encode itself writes
_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")
_BUILTIN_TYPES = {t.__qualname__: t for t in list(vars(builtins).values()) + list(vars(types).values())
                  if isinstance(t, type) and t.__module__ == "builtins"}

@functools.lru_cache(maxsize=4096)
def _trusted_class(full:str) -> str|None:
  if not isinstance(full, str) or len(full) > 200 or not _DOTTED.fullmatch(full): return None
  for i in [i for i, ch in enumerate(full) if ch == "."]:
    module, qual = full[:i], full[i + 1:]
    root = module.split(".")[0]
    if root not in TRUSTED_ROOTS: continue
    if root == "builtins": obj = _BUILTIN_TYPES.get(qual) if module == "builtins" else None
    else:
      if root not in sys.modules:
        try: importlib.import_module(root)                  # only a top-level package we trust; never a name of the learner's
        except Exception: continue
      obj = sys.modules.get(module)
      for part in qual.split("."):
        obj = vars(obj).get(part) if obj is not None and hasattr(obj, "__dict__") else None
    if isinstance(obj, type) and obj.__module__ == module and obj.__qualname__ == qual: return qual.rsplit(".", 1)[-1]
  return None

def class_name(full:Any) -> str:
  """The short name of a class recorded as 'module.qualname' (`ndarray`, `Tensor`, `int`) when a trusted module
  defines it, else OWN_CLASS."""
  return _trusted_class(full) or OWN_CLASS if isinstance(full, str) else OWN_CLASS

_DTYPES = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "bfloat16", "float32",
           "float64", "half", "float", "double", "long", "int", "short", "char", "uchar", "ushort", "uint", "ulong", "complex64", "complex128"}

def dtype_label(name:Any, text:bool=True) -> str:
  """A dtype name as a message may show it: a known dtype's name, or 'another dtype' (the name is the learner's text);
  `text` False (grading): only the names of _DTYPES and tinygrad's fp8 ones."""
  if not isinstance(name, str): return "another dtype"
  if name in _DTYPES or re.fullmatch(r"fp8e[45]m[23]", name): return name
  return name if text and re.fullmatch(r"[a-z]+[0-9]{0,3}", name) and len(name) <= 12 else "another dtype"

# ---- decoding and comparing (anywhere; numpy only) -------------------------------------------------------------------

def decode_array(node:dict):
  import numpy as np
  a = node["__array__"]
  return np.frombuffer(base64.b64decode(a["data"]), dtype=np.dtype(a["np"])).reshape(a["shape"])

def is_array(e:Any) -> bool: return isinstance(e, dict) and "__array__" in e
def _dtype_of(e:Any) -> str|None: return e["__array__"]["dtype"] if is_array(e) else None

def as_array(e:Any):
  """An encoded value as a numpy array, or None when it is not numbers (strings, objects, ...)."""
  import numpy as np
  if is_array(e): return decode_array(e)
  plain = plain_value(e)
  try:
    a = np.asarray(plain)
    return a if a.dtype != object and a.dtype.kind in "biuf" else None
  except Exception: return None

def plain_value(e:Any) -> Any:
  """Encoded data back into Python values for display and arithmetic (arrays become lists, objects their repr)."""
  if isinstance(e, list): return [plain_value(v) for v in e]
  if not isinstance(e, dict): return e
  if "__tuple__" in e: return tuple(plain_value(v) for v in e["__tuple__"])
  if "__set__" in e: return [plain_value(v) for v in e["__set__"]]
  if "__dict__" in e: return {_key(k): plain_value(v) for k, v in e["__dict__"]}
  if "__array__" in e: return decode_array(e).tolist()
  if "__int__" in e: return int(e["__int__"])
  if "__float__" in e: return float(e["__float__"])
  if "__dtype__" in e: return f"dtypes.{e['__dtype__']}"
  if "__enum__" in e: return e["__enum__"]
  if "__type__" in e: return class_name((e["__type__"] or [""])[0]) if isinstance(e["__type__"], list) else OWN_CLASS
  label = e.get("__object__", "object")
  return f"<{label if label in OPAQUE_LABELS else class_name(label)}: {e.get('repr', '')}>"

def _key(k:Any) -> Any:
  v = plain_value(k)
  return tuple(v) if isinstance(v, list) else v

def join(name:str, message:str) -> str:
  """A check's name and its message: `result[1]: expected 3, got 2`, `result: expected shape (2,), got (3,)`."""
  return f"{name}{message}" if message.startswith("[") else f"{name}: {message}"

def short(value:Any, limit:int=80) -> str:
  text = " ".join(repr(value).split())
  return text if len(text) <= limit else text[:limit-3] + "..."

def show(e:Any, limit:int=80) -> str: return short(plain_value(e), limit)

def same_scalar(a:Any, b:Any, ulps:int=0) -> bool:
  """Equal and of the same type: True, 1 and 1.0 are three different answers (decoded JSON keeps bool, int and float
  apart). Two floats may be `ulps` units in the last place apart (see SHIPPED_ULPS)."""
  if type(a) is float and type(b) is float and ulps:
    import numpy as np
    return bool(ulps_apart(a, b, ulps, unit_dtype(None, np.asarray(a), np.asarray(b))))
  return type(a) is type(b) and a == b

# ---- a value shipped from another CPU ----------------------------------------------------------------------------------
# A value the reference run computed on the author's CPU (shipped beside a released notebook, autograder/notebook/
# shipped.py) may differ from what the same code computes on the learner's in the last bits of a float: PyTorch picks
# its kernels by instruction set, a compiler contracts a*b+c into one rounding or not. A comparison with such a value
# allows SHIPPED_ULPS units in the last place of the value's dtype on top of the check's own tolerance; that is also
# what an `equal` check allows there, for floats only (integers, strings, booleans and dtypes stay exact). Measured on
# the course's shipped values (made on an AMD EPYC) against an Intel Xeon and clang's x86-64-v3 target: no value of an
# exact check moved (tinygrad's own kernels, exact arithmetic), values of `close` checks moved by 1 or 2 ulps and, near
# zero or computed by PyTorch's kernels, by hundreds of their own ulps, which only the check's atol and rtol hold. 4
# ulps cover a multiply-add fused or not and a few roundings of that kind; more is the check's tolerance to give.
# Grading compares with the reference run on the grading machine itself: exactly.
SHIPPED_ULPS = 4
BFLOAT16_SPACING = 2.0 ** 16        # numpy has no bfloat16: its values arrive as float32, whose ulp is 2^16 times finer

def ulp_units(big, dtype:str):
  """One unit in the last place at magnitude `big` (a number or a numpy array) in the float dtype named `dtype`, as
  float64; 0 where `dtype` is not a float."""
  import numpy as np
  big = np.asarray(big, np.float64)
  with np.errstate(over="ignore", invalid="ignore"):
    if dtype == "bfloat16": return np.spacing(big.astype(np.float32)).astype(np.float64) * BFLOAT16_SPACING
    try: dt = np.dtype(dtype)
    except TypeError: dt = np.dtype(np.int64)
    return np.spacing(big.astype(dt)).astype(np.float64) if dt.kind == "f" else np.zeros_like(big)

def unit_dtype(encoded:Any, a, b) -> str:
  """The dtype whose ulps count when `a` and `b` (numpy arrays) are compared: the encoded array's own (`encoded`, the
  expected side); for Python numbers, float32 where every value on both sides is a float32 number (a float32 result
  read with .item() or .tolist()), else float64."""
  import numpy as np
  if (name := _dtype_of(encoded)) is not None: return name
  with np.errstate(over="ignore", invalid="ignore"):
    f32 = all(x.dtype.kind == "f" and bool(np.all((x.astype(np.float32) == x) | np.isnan(x))) for x in (a, b))
  return "float32" if f32 else b.dtype.name

def ulps_apart(a, b, ulps:int, dtype:str):
  """Elementwise: `a` and `b` (floats, numpy arrays of one shape) are equal, both NaN, or at most `ulps` units in the
  last place of `dtype` apart, counted at the larger magnitude of the two."""
  import numpy as np
  x, y = np.asarray(a, np.float64), np.asarray(b, np.float64)
  with np.errstate(invalid="ignore"):
    return (x == y) | (np.isnan(x) & np.isnan(y)) | (np.abs(x - y) <= ulps * ulp_units(np.maximum(np.abs(x), np.abs(y)), dtype))

DIGITS = 6                       # significant digits of a learner's number in a graded message

def number(v:Any) -> str:
  """A number of the learner's as a graded message shows it, formatted here at a bounded precision: an int of more than
  DIGITS digits and every float as `%.6g` (a message cannot carry a long number out digit by digit)."""
  if v is None or type(v) is bool: return repr(v)
  if type(v) is int: return str(v) if abs(v) < 10 ** DIGITS else f"{v:.{DIGITS - 1}e}"
  if type(v) is float: return f"{v:.{DIGITS}g}"
  return "a number"

def figure(e:Any) -> str:
  """The learner's value (encoded) as the grader describes it in a graded message: numbers at a bounded precision, a
  short list of numbers, or what kind of value it is with its shape or length. Never text the learner's code made: no
  string, no key, no repr, no class name (any of those can spell what the learner's process read, hidden tests
  included)."""
  if is_array(e):
    a = e["__array__"]
    return f"an array of shape {tuple(int(x) for x in a.get('shape', []))}" if isinstance(a, dict) and isinstance(a.get("shape"), list) else "an array"
  if isinstance(e, dict) and any(tag in e for tag in ("__object__", "__type__", "__enum__", "__dtype__")): return "a value of another kind"
  plain = plain_value(e)
  if plain is None or type(plain) in (bool, int, float): return number(plain)
  if type(plain) in (list, tuple) and len(plain) <= 8 and all(x is None or type(x) in (bool, int, float) for x in plain):
    body = ", ".join(number(x) for x in plain)
    return f"[{body}]" if type(plain) is list else f"({body}{',' if len(plain) == 1 else ''})"
  if isinstance(plain, str): return f"a string of {len(plain)} characters"
  if type(plain) in (list, tuple, dict): return f"a {type(plain).__name__} of {len(plain)} items"
  return "a value of another kind"

def shown(e:Any, reveal:bool=True, limit:int=80, text:bool=True) -> str:
  """The learner's value in a message: whole when `reveal` and `text` (a self-check: the learner's own machine); for a
  hidden check only numbers, booleans and None (text or an object's repr could carry anything out); in grading
  (`text` False) only what `figure` says of it."""
  if not text: return figure(e)
  if reveal: return show(e, limit)
  plain = plain_value(e)
  ok = lambda v: v is None or type(v) in (bool, int, float) or (type(v) in (list, tuple) and len(v) <= 8 and all(ok(x) for x in v))
  return show(e, limit) if ok(plain) else f"a value of another kind ({type(plain).__name__})"

def _index(idx) -> str: return "[" + ", ".join(str(int(i)) for i in idx) + "]"

def first_difference(actual:Any, expected:Any, path:str="", reveal:bool=True, ulps:int=0, text:bool=True) -> str|None:
  """Where two encoded values first differ, as `path: expected X, got Y` (without X when not `reveal`; Y as `figure`
  gives it when not `text`); None if equal. `ulps`: floats that many units in the last place apart are equal (a value
  shipped from another CPU, SHIPPED_ULPS)."""
  exp = lambda x: f"expected {x}, " if reveal else ""
  at = lambda p: f"{p}: " if p else ""
  if is_array(actual) or is_array(expected):
    import numpy as np
    a, b = as_array(actual), as_array(expected)
    if a is None or b is None: return f"{at(path)}{exp(show(expected))}got {shown(actual, reveal, text=text)}"
    if a.shape != b.shape: return f"{at(path)}{exp(f'shape {b.shape}')}got shape {a.shape}"
    diff = ~ulps_apart(a, b, ulps, unit_dtype(expected, a, b)) if ulps and a.dtype.kind == b.dtype.kind == "f" else a != b
    if diff.any():
      idx = tuple(int(i) for i in np.argwhere(diff)[0]) if a.ndim else ()
      where = f"{path}{_index(idx)}" if a.ndim else path
      got = repr(a[idx].item()) if text else number(a[idx].item())
      return f"{at(where)}{exp(repr(b[idx].item()))}got {got} ({int(diff.sum())} of {diff.size} elements differ)"
    return None
  ta, tb = _kind(actual), _kind(expected)
  if ta != tb or ta == "scalar":
    if ta == tb == "scalar" and same_scalar(actual, expected, ulps): return None
    return f"{at(path)}{exp(show(expected))}got {shown(actual, reveal, text=text)}"
  if ta in ("list", "tuple"):
    la, lb = (actual, expected) if ta == "list" else (actual["__tuple__"], expected["__tuple__"])
    if all(_kind(x) == "scalar" for x in la + lb) and len(show(actual)) + len(show(expected)) < 100:
      same = len(la) == len(lb) and all(same_scalar(x, y, ulps) for x, y in zip(la, lb))
      return None if same else f"{at(path)}{exp(show(expected))}got {shown(actual, reveal, text=text)}"     # short: show both whole
    for i, (x, y) in enumerate(zip(la, lb)):
      if (d := first_difference(x, y, f"{path}[{i}]", reveal, ulps, text)): return d
    if len(la) != len(lb): return f"{at(path)}{exp(f'{len(lb)} items')}got {len(la)}"
    return None
  if ta == "dict":
    da, db = {json.dumps(k, sort_keys=True): (k, v) for k, v in actual["__dict__"]}, {json.dumps(k, sort_keys=True): (k, v) for k, v in expected["__dict__"]}
    missing, extra = [db[k][0] for k in db if k not in da], [da[k][0] for k in da if k not in db]
    if missing or extra:
      parts = ([f"missing keys {show(missing)}"] if missing and reveal else ["keys differ from the reference" if missing else ""]) + \
              ([f"unexpected keys {show(extra)}" if reveal and text else f"{len(extra)} unexpected key(s)"] if extra else [])
      return at(path) + "; ".join(p for p in parts if p)
    for k, (key, vb) in db.items():
      if (d := first_difference(da[k][1], vb, f"{path}[{show(key, 60)}]", reveal, ulps, text)): return d
    return None
  if ta == "set":
    sa, sb = {json.dumps(x, sort_keys=True) for x in actual["__set__"]}, {json.dumps(x, sort_keys=True) for x in expected["__set__"]}
    return None if sa == sb else f"{at(path)}{exp(show(expected))}got {shown(actual, reveal, text=text)}"
  return None if actual == expected else f"{at(path)}{exp(show(expected))}got {shown(actual, reveal, text=text)}"

def _kind(e:Any) -> str:
  if isinstance(e, list): return "list"
  if isinstance(e, dict):
    for tag in ("__tuple__", "__dict__", "__set__"):
      if tag in e: return tag.strip("_")
    return "tagged"
  return "scalar"

def _close(actual:Any, expected:Any, opts:dict, reveal:bool, ulps:int=0, text:bool=True) -> str|None:
  import numpy as np
  if actual is None: return "expected a tensor, got None"
  b = as_array(expected)
  a = as_array(actual)
  if a is None: return f"expected numbers, got {shown(actual, reveal, text=text)}"
  if b is None: return "the reference is not numbers"                     # an authoring error; the reference run says so
  if a.shape != b.shape: return f"expected shape {tuple(b.shape)}, got {tuple(a.shape)}" if reveal else f"shape {tuple(a.shape)} differs from the reference's"
  if opts.get("dtype", True):
    da, db = _dtype_of(actual) or a.dtype.name, _dtype_of(expected) or b.dtype.name
    if da != db: return f"expected dtype {db}, got {dtype_label(da, text)}" if reveal else f"dtype {dtype_label(da, text)} differs from the reference's"
  rtol, atol = float(opts.get("rtol", 1e-5)), float(opts.get("atol", 1e-6))
  a64, b64 = a.astype(np.float64), b.astype(np.float64)
  ok = np.isclose(a64, b64, rtol=rtol, atol=atol, equal_nan=True)
  if ulps:                                                # a shipped value: the check's tolerance and a few ulps of its dtype
    with np.errstate(invalid="ignore"):
      units = ulp_units(np.maximum(np.abs(a64), np.abs(b64)), unit_dtype(expected, a, b))
      ok |= np.abs(a64 - b64) <= atol + rtol * np.abs(b64) + ulps * units
  if ok.all(): return None
  idx = tuple(int(i) for i in np.argwhere(~ok)[0]) if a.ndim else ()
  bad = int((~ok).sum())
  where = f"index {idx}" if a.ndim else "the value"
  want = f", expected {b[idx].item()!r}" if reveal else ""
  got = repr(a[idx].item()) if text else number(a[idx].item())
  return (f"values differ from the reference; first at {where} (got {got}{want}); "
          f"{bad} of {ok.size} element(s) outside rtol={rtol}, atol={atol}" + (f" (and {ulps} ulps)" if ulps else ""))

def _types(e:Any) -> list[str]:
  """The classes an expected type (or tuple of types) names: each class itself, not what it inherits from."""
  if isinstance(e, dict) and "__type__" in e: return e["__type__"][:1]
  if isinstance(e, dict) and "__tuple__" in e: return [t for x in e["__tuple__"] for t in _types(x)]
  return []

ANOTHER_CLASS = "a value of another class"

def _got_class(got:Any, actual:Any, reveal:bool, text:bool=True) -> str:
  """The learner's class in a message: its name when a trusted module defines it (see class_name); in grading (`text`
  False) no name at all (which trusted class an answer returns is still its choice)."""
  if not text: return ANOTHER_CLASS
  return class_name(got[0]) if isinstance(got, list) and got else shown(actual, reveal)

def _a(name:str) -> str: return name if name == OWN_CLASS or name.startswith("a value") else f"a {name}"

def prefix(e:Any, limit:int) -> Any:
  """A large encoded array as its shape, dtype and first rows (at most `limit` elements, at least one row), for a file a
  learner's copy carries; anything else as it is."""
  if not is_array(e) or math.prod(e["__array__"]["shape"]) <= limit: return e
  a = decode_array(e)
  rows = max(1, limit // max(1, math.prod(a.shape[1:]))) if a.ndim else 1
  return {"__prefix__": {"shape": list(a.shape), "dtype": e["__array__"]["dtype"], "rows": _array(a[:rows], e["__array__"]["dtype"])}}

def _prefix_of(actual:Any, expected:dict, text:bool=True) -> tuple[Any, Any, str|None]:
  """(actual cut to the rows the expected prefix holds, those rows, or a message when shape or dtype differ)."""
  want = expected["__prefix__"]
  a = as_array(actual)
  if a is None: return actual, want["rows"], f"expected an array of shape {tuple(want['shape'])}, got {shown(actual, text=text)}"
  if list(a.shape) != want["shape"]: return actual, want["rows"], f"expected shape {tuple(want['shape'])}, got {tuple(a.shape)}"
  rows = want["rows"]["__array__"]["shape"][0] if want["rows"]["__array__"]["shape"] else 1
  return _array(a[:rows], _dtype_of(actual)), want["rows"], None

def compare(kind:str, actual:Any, expected:Any, opts:dict|None=None, reveal:bool=True, ulps:int=0, text:bool=True) -> str|None:
  """The message of a failed check, or None when `actual` passes. Both values are encoded data. An expected value
  shipped as a prefix (see `prefix`: a learner's copy of a large array) compares the shape and those rows. `reveal`
  False: a hidden check (no expected value, type, exception or shape). `ulps`: the expected value was computed on
  another CPU (shipped): floats may also be that many units in the last place of their dtype apart, in `close`,
  `equal` and `agree` (see SHIPPED_ULPS); 0 when grading. `text` False (grading, in the grader's process): the
  learner's value is shown only as `figure` describes it, never as text the learner's code made."""
  opts = opts or {}
  if isinstance(expected, dict) and "__prefix__" in expected:
    actual, expected, problem = _prefix_of(actual, expected, text)
    if problem: return problem
  if kind == "metric": return None                         # a leaderboard figure (checks.record_metric): never a verdict
  if kind == "close": return _close(actual, expected, opts, reveal, ulps, text)
  if kind == "equal": return first_difference(actual, expected, reveal=reveal, ulps=ulps, text=text)
  if kind == "true":
    return None if actual is True else ("the condition is false" if actual is False else f"the condition is not a bool but {shown(actual, reveal, text=text)}")
  if kind == "contains":
    if not isinstance(actual, str): return f"expected a string, got {shown(actual, reveal, text=text)}"
    return None if isinstance(expected, str) and expected in actual else (f"expected to find {expected!r} in it" if reveal else "a part the reference has is missing")
  if kind == "type":
    want = _types(expected)
    got = actual["__type__"] if isinstance(actual, dict) and "__type__" in actual else []
    if any(w in got for w in want): return None
    names = " or ".join(w.rsplit(".", 1)[-1] for w in want)                # the reference's: trusted
    mine = _got_class(got, actual, reveal, text)
    return f"expected a {names}, got {mine}" if reveal else f"{_a(mine)} is not the type the reference expects"
  if kind == "raises":
    want = _types(expected)
    names = " or ".join(w.rsplit(".", 1)[-1] for w in want)
    if actual is None: return f"expected it to raise {names}, but it returned normally" if reveal else "it returned normally; the reference expects an exception"
    got = actual.get("__type__", []) if isinstance(actual, dict) else []
    if any(w in got for w in want): return None
    mine = _got_class(got, actual, reveal, text)
    return f"expected {names}, it raised {mine}" if reveal else f"it raised {mine}, not the exception the reference expects"
  if kind == "range":
    low, high = (plain_value(x) for x in plain_value(expected)) if isinstance(plain_value(expected), (list, tuple)) else (None, None)
    a = plain_value(actual)
    if type(a) not in (int, float) or isinstance(a, bool) or (isinstance(a, float) and math.isnan(a)): return f"expected a number, got {shown(actual, reveal, text=text)}"
    inside = (low is None or a >= low) and (high is None or a <= high)
    got = repr(a) if text else number(a)
    return None if inside else (f"expected a value in [{low}, {high}], got {got}" if reveal else f"{got} is outside the range the reference allows")
  if kind == "agree":
    a, b = as_array(actual), as_array(expected)
    if a is None: return f"expected numbers, got {shown(actual, reveal, text=text)}"
    if b is None: return "the reference is not numbers"
    if a.shape != b.shape: return f"expected shape {tuple(b.shape)}, got {tuple(a.shape)}" if reveal else f"shape {tuple(a.shape)} differs from the reference's"
    same = ulps_apart(a, b, ulps, unit_dtype(expected, a, b)) if ulps and a.dtype.kind == b.dtype.kind == "f" else a == b
    frac = float(same.mean()) if a.size else 1.0
    need = float(opts.get("at_least", 1.0))
    return None if frac >= need else f"{frac:.2%} of the {a.size} elements agree with the reference; at least {need:.2%} needed"
  if kind == "set":
    sa, sb = actual.get("__set__") if isinstance(actual, dict) else None, expected.get("__set__") if isinstance(expected, dict) else None
    if sa is None: return f"expected a collection, got {shown(actual, reveal, text=text)}"
    ka, kb = {json.dumps(x, sort_keys=True): x for x in sa}, {json.dumps(x, sort_keys=True): x for x in sb or []}
    missing, extra = [kb[k] for k in kb if k not in ka], [ka[k] for k in ka if k not in kb]
    if not missing and not extra: return None
    parts = ([f"missing {show(missing)}" if reveal else f"{len(missing)} item(s) missing"] if missing else []) + \
            ([f"unexpected {show(extra)}" if reveal and text else f"{len(extra)} unexpected item(s)"] if extra else [])
    return "; ".join(parts)
  return f"unknown comparison {kind!r}"

def strong(kind:str, expected:Any) -> bool:
  """Whether a value is hard to guess: a non-integral float, an integer of five or more digits (a byte count), a
  number array of 8+ elements, a string of 40+ characters, or a container holding one. Booleans, small counts and
  short names are weak."""
  if kind in ("true", "type", "raises", "range", "metric"): return False     # a value inside a range is easy to forge; a metric is never judged
  if isinstance(expected, bool): return False
  if isinstance(expected, int): return abs(expected) >= 10_000
  if isinstance(expected, float): return not expected.is_integer()
  if isinstance(expected, str): return len(expected) >= 40
  if is_array(expected):
    a = decode_array(expected)
    return a.size >= 8 or (a.dtype.kind == "f" and any(not float(x).is_integer() for x in a.ravel()[:8]))
  if isinstance(expected, list): return sum(1 for x in expected if isinstance(x, (int, float)) and not isinstance(x, bool)) >= 8 or any(strong(kind, x) for x in expected)
  if isinstance(expected, dict):
    for tag in ("__tuple__", "__set__"):
      if tag in expected: return strong(kind, expected[tag])
    if "__dict__" in expected: return any(strong(kind, v) for _, v in expected["__dict__"])
  return False
