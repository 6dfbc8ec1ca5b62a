"""The expected values a released notebook's visible checks compare with. Release cuts the oracle out of the learner's
copy: each `with oracle():` block goes, and each expected argument that was computed (not a literal) becomes `...`.
What those checks expected in the reference run is shipped beside the notebook in EXPECTED_FILE, keyed as the
verdict keys observations: the test cell, the check's place (cell, line, column) and its occurrence k.

At run time a check whose expected argument is `...` finds its own place from the stack: the cells of the notebook are
known by a hash of their text (IPython keeps each cell's code in `linecache`), the innermost frame in a known cell is
where the check was called, the outermost is the test cell that runs. A cell whose text changed is not known: the
check then says so rather than compare with nothing."""
from __future__ import annotations
import hashlib, json, linecache, sys
from pathlib import Path
from typing import Any

EXPECTED_FILE = "expected.json"
_loaded: dict[str, Any] = {"path": None, "data": None}
_seen: dict[tuple, int] = {}

def normalized(text:str) -> str:
  """A cell's code as it is hashed: lines stripped on the right, blank lines at either end dropped."""
  return "\n".join(line.rstrip() for line in text.splitlines()).strip("\n")

def cell_hash(text:str) -> str: return hashlib.sha256(normalized(text).encode()).hexdigest()[:16]

class NotShipped(LookupError): pass

def _data() -> dict:
  path = Path.cwd() / EXPECTED_FILE
  if _loaded["path"] != path:
    try: data = json.loads(path.read_text())
    except (OSError, ValueError): data = None
    _loaded.update(path=path, data=data if isinstance(data, dict) else None)
  if _loaded["data"] is None:
    raise NotShipped(f"no {EXPECTED_FILE} beside this notebook: its checks written with `...` compare with the values shipped there")
  return _loaded["data"]

def _cell_of(frame, cells:dict) -> str|None:
  lines = linecache.getlines(frame.f_code.co_filename)
  return cells.get(cell_hash("".join(lines))) if lines else None

def _position(frame) -> tuple[int, int]:
  import inspect
  pos = inspect.getframeinfo(frame, context=0).positions
  return (pos.lineno, pos.col_offset) if pos is not None and pos.lineno is not None else (frame.f_lineno, 0)

def _execution() -> int:
  try:
    from IPython import get_ipython
    shell = get_ipython()
    return shell.execution_count if shell is not None else 0
  except Exception: return 0

def lookup() -> Any:
  """The shipped expected value (encoded, as the reference run recorded it) of the check being called: the frame two
  levels up is the check's caller (`check_...` -> `_judge` -> here)."""
  data = _data()
  cells = data.get("cells", {})
  frame, site, test = sys._getframe(3), None, None
  while frame is not None:
    if (cell := _cell_of(frame, cells)) is not None:
      if site is None:
        line, col = _position(frame)
        site = f"{cell}:{line}:{col}"
      test = cell
    frame = frame.f_back
  if site is None and _execution() == 0:
    raise NotShipped("this check compares with a value shipped for the cells of the released notebook, and it ran outside "
                     "a notebook (a script, a console): run the test cell in the notebook, or `autograder check NN`")
  if site is None:
    raise NotShipped("this check was not called from a cell of the released notebook (a cell whose text changed is not "
                     "known: `autograder check` runs the released cells)")
  key = (_execution(), test, site)
  k = _seen[key] = _seen.get(key, -1) + 1
  values = data.get("expected", {}).get(test, {}).get(site)
  if not isinstance(values, list) or k >= len(values):
    raise NotShipped(f"no shipped expected value for this check ({site}, occurrence {k + 1}) in {EXPECTED_FILE}")
  return values[k]
