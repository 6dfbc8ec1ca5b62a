"""Where things are: the modules of a course folder and their notebooks."""
from __future__ import annotations
import re
from pathlib import Path

MODULE_RE = re.compile(r"^\d\d_[a-z0-9_]+$")
PACKAGE = Path(__file__).resolve().parent.parent         # the `autograder` package
REPO = PACKAGE.parent
DATA = REPO / "data"                      # course data (MNIST): kernels see it read-only

def module_names(folder:Path) -> list[str]:
  """The module folders (`NN_name`) directly inside `folder`, in order."""
  return sorted(p.name for p in Path(folder).iterdir() if p.is_dir() and MODULE_RE.match(p.name)) if Path(folder).is_dir() else []

def notebook_path(folder:Path, module:str) -> Path: return Path(folder) / module / f"{module}.ipynb"

class UnknownModule(ValueError): pass

def resolve(wanted:list[str]|None, available:list[str]) -> list[str]:
  """Module arguments ('01', '1', '01_tensor_basics') to folder names; unknown ones raise UnknownModule."""
  if not wanted: return available
  out = []
  for w in wanted:
    hits = [m for m in available if m == w or (w.isdigit() and m[:2] == f"{int(w):02d}")]
    if not hits: raise UnknownModule(f"no module {w!r}; available: {', '.join(available) or 'none'}")
    out += [h for h in hits if h not in out]
  return out
