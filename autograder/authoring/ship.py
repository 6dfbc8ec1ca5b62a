"""What release ships in place of the oracle. The learner's copy of a trusted cell (a test cell, a set-up cell whose
helpers call checks) shows what each check expects, never how the oracle computes it: every `with oracle():` block is
cut out, and every expected argument that computes (a call) or reads what an oracle block computed becomes `...`;
literals, classes and the visible inputs stay as they are. The values those checks expected in the reference run are written beside the notebook
(notebook.shipped.EXPECTED_FILE), keyed by the place of each check in the learner's copy; the checks read them there
(autograder/notebook/shipped.py). The values come from a run of the learner's copy itself with the solution's answers and
the oracle (every hidden region removed), so a hidden input never reaches them. The same run gives the same file,
byte for byte; a run on another CPU may move the last bits of a float, which `release --check` (same_expected) and a
learner's self-check allow as the check that uses the value allows them (compare.SHIPPED_ULPS)."""
from __future__ import annotations
import ast, hashlib, json
from autograder.core.cells import grade_id, is_answer, is_test, without_hidden
from autograder.core.names import binds
from autograder.core.results import Observation, ReferenceRun, to_json
from autograder.notebook.sealed import block_sums, compare_shipped, is_sealed, same_blocks, same_float_seal, seal, seal_exact_floats, seal_floats
from autograder.core.settings import cell_setting
from autograder.core.transform import check_name, expected_slots, is_oracle_block, python_source
from autograder.notebook.compare import SHIPPED_ULPS, compare, first_difference, prefix
from autograder.notebook.shipped import EXPECTED_FILE, cell_hash

def oracle_names(sources:list[str]) -> set[str]:
  """The names the oracle blocks of these cells bind (their helpers, their expected values)."""
  out = set()
  for source in sources:
    for block in [n for n in ast.walk(ast.parse(python_source(source))) if is_oracle_block(n)]:
      out |= set().union(*(binds(s) for s in block.body))
  return out

MAX_SHIPPED_ELEMENTS = 4096      # a larger expected array ships its shape and first rows: the self-check compares those

BUILTIN_CALLS = {"list", "tuple", "dict", "set", "frozenset", "range", "sorted", "len", "int", "float", "str", "bool", "bytes",
                 "abs", "min", "max", "sum", "round", "zip", "enumerate", "reversed"}

def _shown(node:ast.AST, hidden:set[str]) -> bool:
  """An expected argument the learner may see as it is: it reads nothing an oracle block computed and calls nothing but
  Python's builtins (a literal, a class, `list(range(8))`, a visible input such as the shape the test chose)."""
  calls_ok = all(isinstance(n.func, ast.Name) and n.func.id in BUILTIN_CALLS for n in ast.walk(node) if isinstance(n, ast.Call))
  return calls_ok and not any(isinstance(n, ast.Name) and n.id in hidden and not isinstance(getattr(n, "ctx", None), ast.Store)
                              for n in ast.walk(node) if not (isinstance(n, ast.Name) and n.id in BUILTIN_CALLS))

def _calls(tree:ast.AST, skip:set[int]=frozenset()) -> list[ast.Call]:
  """The check calls of a tree outside oracle blocks and outside the lines `skip`, in the order of the text."""
  inside = {id(n) for b in ast.walk(tree) if is_oracle_block(b) for n in ast.walk(b)}
  calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and check_name(n) and id(n) not in inside and n.lineno not in skip]
  return sorted(calls, key=lambda n: (n.lineno, n.col_offset))

def _machine_dependent(tree:ast.AST) -> set[int]:
  """ids of the check calls inside `with machine_dependent(...):` blocks (compared only when graded: nothing ships)."""
  blocks = [n for n in ast.walk(tree) if isinstance(n, ast.With) and any(isinstance(i.context_expr, ast.Call) and
            isinstance(i.context_expr.func, ast.Name) and i.context_expr.func.id == "machine_dependent" for i in n.items)]
  return {id(n) for b in blocks for n in ast.walk(b) if isinstance(n, ast.Call)}

def _parents(tree:ast.AST) -> dict[int, ast.AST]:
  return {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}

def cut(source:str, hidden:set[str]=frozenset()) -> str:
  """The learner's copy of a trusted cell's (released) source: oracle blocks cut out, expected arguments that call
  something or read a name of `hidden` (see oracle_names) replaced by `...`. Comments and layout elsewhere stay."""
  tree = ast.parse(python_source(source))
  lines = source.splitlines(keepends=True)
  edits = []                                                         # (line, col, end_line, end_col, text), 1-based lines
  parents = _parents(tree)
  for block in [n for n in ast.walk(tree) if is_oracle_block(n)]:
    parent = parents.get(id(block))
    body = next((b for b in ("body", "orelse", "finalbody") if block in getattr(parent, b, [])), None)
    alone = parent is not None and not isinstance(parent, ast.Module) and getattr(parent, body) == [block]
    if alone: edits.append((block.lineno, block.col_offset, block.end_lineno, block.end_col_offset, "pass"))
    else: edits.append((block.lineno, 0, block.end_lineno + 1, 0, ""))   # whole lines, the newline included
  for call in _calls(tree):
    for pos, kw in expected_slots(check_name(call)):
      args = [call.args[pos]] if len(call.args) > pos and not isinstance(call.args[pos], ast.Starred) else []
      args += [k.value for k in call.keywords if k.arg == kw]
      for a in args:
        if not _shown(a, hidden): edits.append((a.lineno, a.col_offset, a.end_lineno, a.end_col_offset, "..."))
  text = "".join(lines)
  offsets = [0]
  for line in lines: offsets.append(offsets[-1] + len(line))
  at = lambda line, col: offsets[line - 1] + len(lines[line - 1].encode()[:col].decode()) if line <= len(lines) else len(text)
  for line, col, end_line, end_col, new in sorted(edits, reverse=True):
    text = text[:at(line, col)] + new + text[at(end_line, end_col):]
  ast.parse(python_source(text))                                     # a cut that does not parse is a bug here
  return text

def _cut(call:ast.Call) -> bool:
  """Whether release replaced an expected argument of this check call by `...`."""
  slots = expected_slots(check_name(call))
  args = [call.args[p] for p, _ in slots if len(call.args) > p] + [k.value for k in call.keywords if k.arg in {kw for _, kw in slots}]
  return any(isinstance(a, ast.Constant) and a.value is ... for a in args)

def _site_ids(source_nb) -> dict[int, str]:
  """The cell id the grading transform gives each trusted code cell (by index in the source notebook)."""
  kept = [i for i, c in enumerate(source_nb.cells) if not cell_setting(c, "skip_grading") or is_answer(c) or is_test(c)]
  return {i: grade_id(source_nb.cells[i]) or f"cell{n}" for n, i in enumerate(kept)}

def ship(source_nb, released_nb, visible:ReferenceRun) -> tuple[object, str, dict]:
  """(the released notebook with its trusted cells cut, the text of EXPECTED_FILE, the reference's observation behind
  each shipped value, as JSON data: {test: {site: [observation, ...]}} beside the file's "expected", with the check's
  kind, opts and the reference's own answer) from the source notebook, the notebook release wrote (hidden tests and
  solutions cleared) and the module's visible reference run (the solution with every hidden region removed:
  core.runs.reference(visible=True))."""
  ids = _site_ids(source_nb)
  hidden = oracle_names([c.source for c in source_nb.cells if c.cell_type == "code" and not is_answer(c)])
  by_gid = {grade_id(c): i for i, c in enumerate(source_nb.cells) if grade_id(c)}
  places, cells, cut_here = {}, {}, []                               # trusted site -> released site; cell hash -> id
  for cell in released_nb.cells:
    gid = grade_id(cell)
    if cell.cell_type != "code" or is_answer(cell) or gid not in by_gid: continue
    src = source_nb.cells[by_gid[gid]]
    trusted = _calls(ast.parse(python_source(without_hidden(src.source))))
    has_oracle = any(is_oracle_block(n) for n in ast.walk(ast.parse(python_source(cell.source))))
    if not trusted and not has_oracle:
      if is_test(cell): cells[cell_hash(python_source(cell.source))] = gid      # a test that calls checks through a helper
      continue
    cell.source = cut(cell.source, hidden)
    tree = ast.parse(python_source(cell.source))
    mine, local = _calls(tree), _machine_dependent(tree)
    if len(mine) != len(trusted): raise ValueError(f"{gid}: {len(trusted)} visible checks in the source, {len(mine)} in the learner's copy")
    sid = ids[by_gid[gid]]
    places.update({f"{sid}:{a.lineno}:{a.col_offset}": f"{gid}:{b.lineno}:{b.col_offset}" for a, b in zip(trusted, mine)
                   if id(b) not in local and _cut(b)})        # a check that shows its expected value needs nothing shipped
    if is_test(cell): cut_here += [f"{gid}:{b.lineno}:{b.col_offset}" for b in mine if _cut(b) and id(b) not in local]
    cells[cell_hash(python_source(cell.source))] = gid
  expected: dict[str, dict[str, list]] = {}
  observed: dict[str, dict[str, list]] = {}
  for test, outcome in visible.tests.items():
    for o in outcome.observations:
      if o.site not in places: continue
      values = expected.setdefault(test, {}).setdefault(places[o.site], [])
      values.append(shipped_form(o, f"{test}:{places[o.site]}:{len(values)}"))
      observed.setdefault(test, {}).setdefault(places[o.site], []).append(to_json(o))
  shipped = {site for values in expected.values() for site in values}
  if (missing := [s for s in cut_here if s not in shipped]):
    raise ValueError(f"checks whose expected value is cut from the learner's copy but not shipped (they did not run in the "
                     f"solution's visible part): {', '.join(missing)}")
  text = json.dumps({"version": 1, "cells": dict(sorted(cells.items())), "expected": expected}, sort_keys=True, ensure_ascii=False, indent=None,
                    separators=(",", ":")) + "\n"
  return released_nb, text, observed

def _is_prefix(e) -> bool: return isinstance(e, dict) and "__prefix__" in e

SEALED_KINDS = ("equal", "set")                 # checks of exact findings: their value ships sealed (notebook/sealed.py)

def shipped_form(o:Observation, where:str):
  """How a reference observation's expected value ships in EXPECTED_FILE: an exact finding sealed (a salted digest,
  its salt made from `where` so that a release writes the same file twice); a float finding of a `close` check sealed by
  the buckets of its tolerance, of an `equal` check by the floats a few ulps around it; a shape or dtype, and any other
  value holding a float, as it is; a large array as its first rows and its block sums."""
  salt = hashlib.sha256(where.encode()).hexdigest()[:16]
  if o.kind in SEALED_KINDS and not str(o.name).endswith((" shape", " dtype")):
    if (sealed := seal(o.expected, salt)) is not None: return sealed
    if o.kind == "equal" and (sealed := seal_exact_floats(o.expected, salt)) is not None: return sealed
  opts = o.opts or {}
  if o.kind == "close" and (sealed := seal_floats(o.expected, salt, float(opts.get("rtol") or 0), float(opts.get("atol") or 0))) is not None: return sealed
  out = prefix(o.expected, MAX_SHIPPED_ELEMENTS)
  if isinstance(out, dict) and "__prefix__" in out and (blocks := block_sums(o.expected)) is not None: out["__prefix__"]["blocks"] = blocks
  return out

def same_value(kind:str, opts:dict, a, b) -> bool:
  """Whether two shipped values of one check (from reference runs on two CPUs) are the same as far as that check tells:
  each passes the check against the other, with the check's own tolerance (`close`: its rtol and atol; `agree`: its
  share of equal elements) and, for floats, SHIPPED_ULPS units in the last place of their dtype; a value of any other
  kind (`equal`, a range's bounds, a set, a text, a type) as an `equal` check compares it: exactly, but for those ulps
  of a float. What a learner's self-check allows against a shipped value (notebook/checks.py), never a relative
  tolerance alone: an element near zero moves by many of its own ulps and no relative tolerance holds it. A shipped
  prefix of a large array compares its shape, dtype, rows and block sums; a sealed value, its digests."""
  if is_sealed(a) and is_sealed(b) and a["__sealed__"].get("kind") in ("f", "F"): return same_float_seal(a, b)
  if is_sealed(a) or is_sealed(b): return a == b
  if _is_prefix(a) or _is_prefix(b):
    if not (_is_prefix(a) and _is_prefix(b)): return False
    pa, pb = a["__prefix__"], b["__prefix__"]
    if pa.get("shape") != pb.get("shape") or pa.get("dtype") != pb.get("dtype"): return False
    if ("blocks" in pa) != ("blocks" in pb) or ("blocks" in pa and not same_blocks(pa["blocks"], pb["blocks"], float(opts.get("rtol") or 0), float(opts.get("atol") or 0))):
      return False
    a, b = pa.get("rows"), pb.get("rows")
  if kind in ("close", "agree"):
    return compare(kind, a, b, opts, ulps=SHIPPED_ULPS) is None and compare(kind, b, a, opts, ulps=SHIPPED_ULPS) is None
  return first_difference(a, b, ulps=SHIPPED_ULPS) is None

def same_expected(x:dict, y:dict, observed:dict|None) -> bool:
  """Two EXPECTED_FILE texts (as data) ship the same values: everything but the values equal, each value the same as
  the other (same_value) for the check `observed` (ship's third result, for `x`) says it belongs to. Without
  `observed`, the values must be equal."""
  rest = lambda d: {k: v for k, v in d.items() if k != "expected"}
  if not isinstance(x, dict) or not isinstance(y, dict) or rest(x) != rest(y): return False
  ex, ey = x.get("expected"), y.get("expected")
  if observed is None or ex == ey: return ex == ey
  if not isinstance(ex, dict) or not isinstance(ey, dict) or ex.keys() != ey.keys(): return False
  for test, sites in ex.items():
    if not isinstance(sites, dict) or not isinstance(ey[test], dict) or sites.keys() != ey[test].keys(): return False
    for site, values in sites.items():
      others, obs = ey[test][site], observed.get(test, {}).get(site, [])
      if not isinstance(values, list) or not isinstance(others, list) or not len(values) == len(others) == len(obs): return False
      if not all(same_value(o["kind"], o.get("opts") or {}, a, b) for o, a, b in zip(obs, values, others)): return False
  return True

def self_check_misses(observed:dict, shipped:dict) -> list[str]:
  """The shipped values (`shipped`: EXPECTED_FILE as data) that the reference's own answers of `observed` (ship's third
  result, a reference run on this machine) fail, compared as a learner's self-check compares them: `test site
  (occurrence k): message`. A right answer must pass its self-check on any CPU."""
  out = []
  for test, sites in observed.items():
    for site, obs in sites.items():
      values = shipped.get("expected", {}).get(test, {}).get(site, [])
      for k, o in enumerate(obs):
        if k >= len(values): out.append(f"{test} {site} (occurrence {k + 1}): not shipped"); continue
        if (message := compare_shipped(o["kind"], o.get("actual"), values[k], o.get("opts"))) is not None:
          out.append(f"{test} {site} (occurrence {k + 1}): {str(o.get('name', ''))[:80]}: {message[:200]}")
  return out

__all__ = ["EXPECTED_FILE", "cut", "same_expected", "same_value", "self_check_misses", "ship"]
