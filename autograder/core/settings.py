"""`metadata.autograder`: the grader's settings in a source notebook, in one place. Each key has a type, a default and
a line of meaning; everything reads settings through `module_settings` (the notebook's) and `cell_setting` (a cell's),
which fall back to the default for a value of the wrong type, and `problems` names every unknown key (`skip_grade`,
say, would otherwise grade a demo cell in silence) and wrong type, for `autograder lint` and `release`. The authoring
page's table of keys is checked against KEYS by a test."""
from __future__ import annotations
import difflib
from dataclasses import dataclass
from typing import Any
from autograder.core.limits import Limits

@dataclass(frozen=True)
class Key:
  name: str
  kind: str                    # "number", "bool", "text", "names" (a list of strings), "limits" (a table of whole numbers)
  default: Any
  level: str                   # "notebook" or "cell"
  meaning: str

KEYS = {k.name: k for k in [
  Key("cell_timeout", "number", 60, "notebook", "seconds one cell may run when graded (the reference run gets twice)"),
  Key("timeout", "number", 120, "notebook", "seconds the whole notebook may run when graded (the reference run gets twice)"),
  Key("limits", "limits", {}, "notebook", "resources of a learner's run: memory_mb, disk_mb, tmp_mb, processes, cpu_seconds"),
  Key("learner_files", "names", [], "notebook", "files of the module folder taken from the learner's (a checkpoint); never released"),
  Key("hide_data", "names", [], "notebook", "files under data/ that a learner's run cannot read and the learner repository leaves out"),
  Key("allow_flags", "names", [], "notebook", "flag rules the module's tasks need, whole (module 07's backend runs clang: 'runs programs') or one finding ('introspection: imports pickle')"),
  Key("forbidden_libraries", "names", [], "notebook", "libraries (import names: 'torch', 'tinygrad.llm.gguf') the answers may not use: a learner's run does not have their files"),
  Key("skip_grading", "bool", False, "cell", "a code cell that only teaches (a chart, a long demo): left out of both grading runs"),
  Key("isolated", "bool", False, "cell", "a test cell graded in a kernel of its own, where no answer cell ran"),
  Key("checker", "bool", False, "cell", "a cell an isolated test needs, run before it in that kernel"),
  Key("needs_libraries", "bool", False, "cell", "a test graded in a kernel of its own where the forbidden_libraries are present (its inputs need one)"),
  Key("hint", "text", "", "cell", "a short pointer a failing test shows (not the method: that goes in hint cells)"),
  Key("hidden_checks", "bool", False, "cell", "written by release on the learner's copy of a test that grading extends with hidden checks"),
]}

def _fits(kind:str, value:Any) -> bool:
  if kind == "number": return type(value) in (int, float) and value > 0
  if kind == "bool": return type(value) is bool
  if kind == "text": return type(value) is str
  if kind == "names": return type(value) is list and all(type(v) is str for v in value)
  if kind == "limits": return isinstance(value, dict) and all(k in Limits.__dataclass_fields__ and type(v) is int and v > 0 for k, v in value.items())
  raise ValueError(kind)

def _own(node:Any) -> dict:
  """The `autograder` table of a notebook's or cell's metadata; {} when there is none or it is not a table."""
  meta = node.get("metadata") if isinstance(node, dict) else None
  own = meta.get("autograder") if isinstance(meta, dict) else None
  return own if isinstance(own, dict) else {}

def _value(own:dict, name:str) -> Any:
  key = KEYS[name]
  value = own.get(name, key.default)
  return value if _fits(key.kind, value) else key.default

def module_settings(nb:Any) -> dict:
  """Every notebook-level setting of a source notebook, with its default where it is not set (or not valid)."""
  own = _own(nb)
  return {k.name: _value(own, k.name) for k in KEYS.values() if k.level == "notebook"}

def cell_setting(cell:Any, name:str) -> Any:
  """One cell-level setting (`isolated`, `skip_grading`, ...), its default where it is not set (or not valid)."""
  assert KEYS[name].level == "cell", name
  return _value(_own(cell), name)

def _check(own:dict, level:str, where:str) -> list[str]:
  out = []
  for name, value in own.items():
    key = KEYS.get(name)
    if key is None or key.level != level:
      close = difflib.get_close_matches(str(name), [k for k, v in KEYS.items() if v.level == level], n=1)
      other = f" (a {key.level} setting, not a {level} one)" if key is not None else f" (did you mean {close[0]!r}?)" if close else ""
      out.append(f"{where}: unknown key {name!r} in metadata.autograder{other}")
    elif not _fits(key.kind, value):
      want = {"number": "a positive number", "bool": "true or false", "text": "a string", "names": "a list of strings",
              "limits": f"a table of positive whole numbers with keys among {', '.join(Limits.__dataclass_fields__)}"}[key.kind]
      out.append(f"{where}: metadata.autograder.{name} must be {want}, not {value!r}")
  return out

def problems(nb:Any) -> list[str]:
  """Every unknown key and wrong type of `metadata.autograder` in a source notebook and its cells, one line each."""
  meta = nb.get("metadata", {}) if isinstance(nb, dict) else {}
  if isinstance(meta, dict) and "autograder" in meta and not isinstance(meta["autograder"], dict):
    return ["notebook: metadata.autograder must be a table"]
  out = _check(_own(nb), "notebook", "notebook")
  for i, cell in enumerate(nb.get("cells", []) if isinstance(nb, dict) else []):
    meta = cell.get("metadata", {}) if isinstance(cell, dict) else {}
    gid = (meta.get("nbgrader") or {}).get("grade_id") if isinstance(meta, dict) and isinstance(meta.get("nbgrader"), dict) else None
    where = f"cell {gid or i + 1}"
    if isinstance(meta, dict) and "autograder" in meta and not isinstance(meta["autograder"], dict):
      out.append(f"{where}: metadata.autograder must be a table"); continue
    out += _check(_own(cell), "cell", where)
  return out
