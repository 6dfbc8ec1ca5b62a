"""`autograder margins`: how far the reference solution stands from the edge of every check that has a tolerance or a
threshold, read from the reference run's observations (what it observed, what it expected, the check's tolerance).
A threshold the reference meets by 1% is luck: another CPU or compiler (clang's -march=native, half precision done in
hardware on arm64, FMA or not) moves the last bits, and a right answer loses points there.

Every margin is told as the share of the allowance the reference used (`used`; the policy of the authoring page:
at most POLICY):
  close   the largest |actual - expected| / (atol + rtol * |expected|) over the elements
  agree   the reference's share of disagreeing elements / the share the check allows (1 - at_least)
  range   a band (two nonzero bounds within a factor 10, or around 0): 1 - (distance to the nearer bound) / (half the
          width); otherwise lower bound / value and value / upper bound, the larger: the value would have to move by
          a factor 1/used to cross a bound (timings and speed-ups, spread over orders of magnitude); a bound of 0 is a
          sign, no tolerance
A check with no room by its nature is `exact`, not thin: no tolerance (rtol = atol = 0, at_least = 1), an integer on
an integer bound, a value equal to its bound (arithmetic that gives the bound exactly), a sign (a bound of 0 that a
magnitude meets). What remains thin by design (a goal the task sets, a bound that the arithmetic guarantees) is
listed with its reason in tests/margins/NN_name.txt, the reviewed properties, and leaves the count."""
from __future__ import annotations
import math

from autograder.authoring.mutants import load_equivalent
from autograder.core.module import Module
from autograder.core.results import Observation
from autograder.core.runs import reference
from autograder.notebook.compare import as_array, plain_value

POLICY = 0.5           # the share of its allowance a check's reference may use, at most

def _close(actual, expected, opts:dict) -> float|None:
  import numpy as np
  rtol, atol = float(opts.get("rtol") or 0), float(opts.get("atol") or 0)
  a, e = as_array(actual), as_array(expected)
  if rtol == atol == 0 or a is None or e is None or a.shape != e.shape: return None
  a, e = a.astype(np.float64), e.astype(np.float64)
  both = np.isfinite(a) & np.isfinite(e)
  if not both.any(): return None
  return float(np.max(np.abs(a - e)[both] / (atol + rtol * np.abs(e[both]))))

def _agree(actual, expected, opts:dict) -> float|None:
  a, e = as_array(actual), as_array(expected)
  allowed = 1 - float(opts.get("at_least", 1))
  if a is None or e is None or a.shape != e.shape or allowed <= 0: return None
  return float((a != e).mean()) / allowed

def _range(actual, expected) -> float|None:
  v = plain_value(actual)
  low, high = plain_value(expected) if isinstance(plain_value(expected), (list, tuple)) else (None, None)
  finite = lambda b: isinstance(b, (int, float)) and not isinstance(b, bool) and math.isfinite(b)
  low, high = (low if finite(low) else None), (high if finite(high) else None)
  if not finite(v) or (low is None and high is None) or v in (low, high): return None   # no bound, or exactly on it
  if all(isinstance(x, int) for x in (v, low, high) if x is not None): return None      # counts: exact
  if low is not None and high is not None and low != 0 != high and not (0 < low and 10 * low <= high):
    return 1 - min(v - low, high - v) / ((high - low) / 2)                              # a band: a tolerance around a value
  shares = ([abs(low / v)] if low else []) + ([abs(v / high)] if high else [])         # a bound of 0 is a sign
  return max(shares) if shares else None

def used(observation:Observation) -> float|None:
  """The share of its allowance the observation used; None where the check has no tolerance or is exact."""
  kind, opts = observation.kind, observation.opts or {}
  actual, expected = observation.actual, observation.expected
  try:
    if kind == "close": return _close(actual, expected, opts)
    if kind == "agree": return _agree(actual, expected, opts)
    if kind == "range": return _range(actual, expected)
  except (TypeError, ValueError, KeyError): return None
  return None

def describe(observation:Observation) -> str:
  """What the check allows and what the reference observed, in a few words."""
  kind, opts = observation.kind, observation.opts or {}
  if kind == "close": return f"rtol {opts.get('rtol')}, atol {opts.get('atol')}"
  if kind == "agree":
    a, e = as_array(observation.actual), as_array(observation.expected)
    return f"at least {opts.get('at_least')}, observed {float((a == e).mean()):.4f}"
  low, high = plain_value(observation.expected)
  return f"[{low}, {high}], observed {plain_value(observation.actual)!r}"

# {site: reason} of the reviewed properties: the format of the reviewed equivalent mutants, one `site reason` a line
load_reviewed = load_equivalent

def margins(module:Module, reviewed:dict[str, str]|None=None, visible:bool=False) -> list[dict]:
  """Every observation of the module's reference run (`visible`: of its visible run, the learner's copy's checks only)
  with a tolerance or threshold, the worst of each check site first: {test, site, name, kind, allows, used, thin,
  reviewed, hidden}."""
  ref = reference(module, visible=visible)
  worst: dict[str, dict] = {}
  for test, outcome in ref.tests.items():
    for o in outcome.observations:
      u = used(o)
      if u is None: continue
      row = {"test": test, "site": o.site, "name": o.name, "kind": o.kind, "allows": describe(o), "used": round(u, 4), "hidden": o.hidden}
      if o.site not in worst or u > worst[o.site]["used"]: worst[o.site] = row
  rows = sorted(worst.values(), key=lambda r: -r["used"])
  for r in rows:
    r["reviewed"] = (reviewed or {}).get(r["site"], "")
    r["thin"] = r["used"] > POLICY and not r["reviewed"]
  return rows

def table(module:str, rows:list[dict], limit:int|None=None) -> str:
  """The margins as a Markdown table, thinnest first."""
  lines = [f"### {module}: {len(rows)} checks with a tolerance or threshold, {sum(r['thin'] for r in rows)} thin (used > {POLICY})", "",
           "| used | test | check | kind | allows | |", "|---|---|---|---|---|---|"]
  for r in rows[:limit]:
    mark = "**thin**" if r["thin"] else (f"reviewed: {r['reviewed']}" if r["reviewed"] else "")
    lines.append(f"| {r['used']:.3f} | {r['test']} | {r['name'][:70]}{' (hidden)' if r['hidden'] else ''} | {r['kind']} | {r['allows']} | {mark} |")
  return "\n".join(lines) + "\n"
