"""What a regrade changed: two grading folders of the same class compared, learner by learner and test by test, with
the reason when the fingerprints of both gradings (autograder/classroom/fingerprints.py) tell it.

Writes into the new grading folder:

  changes.csv   a row per learner, module and test whose status or points changed: learner, module, task, test,
                old_status, new_status, old_points, new_points, max_points, change, reason (points of a test are its
                score after the instructor's overrides, before the late policy; a row with an empty test is a module
                whose final score changed with no test changing: the late policy or a module override)
  changes.md    the summary an instructor reads in a minute: who gained and lost how much (final scores, late policy
                and overrides applied), per test how many learners gained or lost and why
  changes.json  the same as data (what `merge` joins when the regrade ran in shards)

Reasons, per test: a new or removed test, its points, its visible or hidden code, a new or removed visible or hidden
check, a changed tolerance or threshold (a check's rtol, atol, `at_least` or range bounds); when the test itself is
unchanged: the module's set-up cells, the library versions, the grader. A learner whose fetched commit differs also
gets "the submission changed". Against a gradebook graded before fingerprints were kept, the reason is "unknown"."""
from __future__ import annotations
import json
from collections import Counter
from pathlib import Path
from autograder.classroom import fingerprints
from autograder.classroom.gradebook import GradebookError, read, write_csv
from autograder.core.report import md
from autograder.core.results import ModuleStatus

COLUMNS = ["learner", "module", "task", "test", "old_status", "new_status", "old_points", "new_points", "max_points", "change", "reason"]
UNKNOWN = "unknown"
EPS = 1e-9

def _count(n:int, what:str) -> str: return f"{n} {what}" if n == 1 else f"{n} {what}s"

def _checks(part:str, old:dict, new:dict) -> list[str]:
  a, b = old[part]["checks"], new[part]["checks"]
  if b > a: return [f"{'a new' if b - a == 1 else b - a} {part} check{'s' if b - a > 1 else ''} ({a} → {b})"]
  if b < a: return [f"{'a' if a - b == 1 else a - b} {part} check{'s' if a - b > 1 else ''} removed ({a} → {b})"]
  if old[part]["settings"] != new[part]["settings"]: return [f"a changed tolerance or threshold ({part} checks)"]
  return []

def test_reasons(module:str, test:str, old:dict|None, new:dict|None) -> list[str]:
  """Why a test may grade otherwise, from the fingerprints of the two gradings ([] when the test is the same)."""
  if old is None or new is None: return [UNKNOWN]
  o = old["modules"].get(module, {}).get("tests", {}).get(test)
  n = new["modules"].get(module, {}).get("tests", {}).get(test)
  if module not in old["modules"]: return ["a module the earlier grading did not grade"]
  if o is None: return ["a new test"]
  if n is None: return ["a removed test"]
  out = []
  if o["points"] != n["points"]: out.append(f"its points changed ({o['points']:g} → {n['points']:g})")
  for part in ("visible", "hidden"):
    if o[part]["code"] != n[part]["code"]: out.append(f"the test's {part} code changed")
  return out + _checks("visible", o, n) + _checks("hidden", o, n)

def around_reasons(module:str, old:dict|None, new:dict|None) -> list[str]:
  """What changed around an unchanged test: the module's set-up cells, the libraries, the grader."""
  if old is None or new is None: return [UNKNOWN]
  out = []
  if old["modules"].get(module, {}).get("setup") != new["modules"].get(module, {}).get("setup"): out.append("the module's set-up cells changed")
  libs = [f"{k} {old['libraries'].get(k, '?')} → {new['libraries'].get(k, '?')}" for k in sorted(set(old["libraries"]) | set(new["libraries"]))
          if old["libraries"].get(k) != new["libraries"].get(k)]
  if libs: out.append("libraries changed (" + ", ".join(libs) + ")")
  if old.get("grader") != new.get("grader"): out.append("the grader changed")
  return out

def _commit(folder:Path, learner:str) -> str:
  try: return str(json.loads((Path(folder) / "feedback" / learner / "fetched.json").read_text()).get("commit", ""))
  except (OSError, ValueError, AttributeError): return ""

def compare(old_dir:Path, new_dir:Path, keep=lambda learner: True) -> dict:
  """The changes from the grading folder `old_dir` to `new_dir`, for the learners of `old_dir` that `keep` accepts
  (a shard's) and every learner of `new_dir`."""
  old_rows, old_tasks = read(old_dir)
  new_rows, new_tasks = read(new_dir, allow_empty=True)             # (a shard may hold no learner)
  old_fp, new_fp = fingerprints.read(old_dir), fingerprints.read(new_dir)
  before = {r["learner"] for r in old_rows if keep(r["learner"])}
  after = {r["learner"] for r in new_rows}
  both = sorted(before & after)
  modules = sorted({r["module"] for r in new_rows if r["module"]})
  broken = {r["learner"]: r for rows in (old_rows, new_rows) for r in rows if r["status"] == ModuleStatus.GRADER_ERROR and r["learner"] in both}
  mine = lambda r: r["learner"] in both and r["learner"] not in broken and (r["module"] in modules or not r["module"])
  old_t = {(r["learner"], r["module"], r["test"]): r for r in old_tasks if mine(r)}
  new_t = {(r["learner"], r["module"], r["test"]): r for r in new_tasks if mine(r)}
  submission = {}
  for name in both:
    a, b = _commit(old_dir, name), _commit(new_dir, name)
    if a != b: submission[name] = f"the submission changed (commit {a[:7] or 'none'} → {b[:7] or 'none'})"
  cache, rows = {}, []
  for key in sorted(set(old_t) | set(new_t)):
    o, n = old_t.get(key), new_t.get(key)
    if o and n and o["status"] == n["status"] and abs(o["score"] - n["score"]) < EPS: continue
    learner, module, test = key
    if (module, test) not in cache:
      why = test_reasons(module, test, old_fp, new_fp)
      cache[module, test] = why or around_reasons(module, old_fp, new_fp) or ["no change found in the test, its module, the libraries or the grader"]
    parts = cache[module, test]
    if o and n and o.get("override") != n.get("override"): parts = ["the instructor's override changed"] + [p for p in parts if p != UNKNOWN]
    rows.append(_row(learner, module, test, (n or o)["task"], o, n, (n or o)["max_score"], submission.get(learner, ""), "; ".join(parts)))
  with_tests = {(r["learner"], r["module"]) for r in rows}
  old_gb = {(r["learner"], r["module"]): r for r in old_rows if mine(r)}
  new_gb = {(r["learner"], r["module"]): r for r in new_rows if mine(r)}
  for key in sorted(set(old_gb) | set(new_gb)):
    o, n = old_gb.get(key), new_gb.get(key)
    if key in with_tests or (o and n and o["status"] == n["status"] and abs(o["score"] - n["score"]) < EPS): continue
    why = []
    if o and n and o["late_percent"] != n["late_percent"]: why.append(f"late policy: {o['late_percent']:g}% → {n['late_percent']:g}% lost")
    if o and n and o["override"] != n["override"]: why.append("the instructor's override changed")
    if o and n and o["status"] != n["status"]: why.append(f"the module's status changed ({o['status']} → {n['status']})")
    rows.append(_row(key[0], key[1], "", "", o, n, (n or o)["max_score"], submission.get(key[0], ""), "; ".join(why) or UNKNOWN))
  total = lambda rs, name: sum(r["score"] for r in rs if r["learner"] == name and r["module"] in modules)
  for name in sorted(broken):                      # a grading that did not finish, before or now: one row, no test compared
    o = next((r for r in old_rows if r["learner"] == name and r["status"] == ModuleStatus.GRADER_ERROR), None)
    n = next((r for r in new_rows if r["learner"] == name and r["status"] == ModuleStatus.GRADER_ERROR), None)
    if o and n: continue
    rows.append(_row(name, "", "", "", {"status": ModuleStatus.GRADER_ERROR if o else ModuleStatus.GRADED, "score": total(old_rows, name)},
                     {"status": ModuleStatus.GRADER_ERROR if n else ModuleStatus.GRADED, "score": total(new_rows, name)}, 0.0, submission.get(name, ""),
                     "the grading did not finish " + ("before" if o else "now") + " (see the flags of gradebook.csv)"))
  return {"format": 1, "fingerprints": old_fp is not None, "modules": modules, "learners": both,
          "only_before": sorted(before - after), "only_after": sorted(after - before),
          "totals": {name: [round(total(old_rows, name), 4), round(total(new_rows, name), 4)] for name in both},
          "max_total": max((round(sum(r["max_score"] for r in new_rows if r["learner"] == name and r["module"] in modules), 4) for name in both), default=0.0),
          "rows": sorted(rows, key=lambda r: (r["learner"], r["module"], r["test"]))}

def _row(learner, module, test, task, o, n, max_points, learner_reason:str, test_reason:str) -> dict:
  old_points, new_points = (o["score"] if o else 0.0), (n["score"] if n else 0.0)
  return {"learner": learner, "module": module, "task": task, "test": test, "old_status": o["status"] if o else "",
          "new_status": n["status"] if n else "", "old_points": round(old_points, 4), "new_points": round(new_points, 4),
          "max_points": float(max_points), "change": round(new_points - old_points, 4),
          "reason": "; ".join(x for x in (learner_reason, test_reason) if x), "test_reason": test_reason, "learner_reason": learner_reason}

def join(parts:list[dict]) -> dict:
  """The changes of several shards of one regrade as those of one unsharded regrade."""
  if not parts: raise GradebookError("no changes to join")
  rows = sorted((r for p in parts for r in p["rows"]), key=lambda r: (r["learner"], r["module"], r["test"]))
  totals = {k: v for p in parts for k, v in p["totals"].items()}
  return {"format": 1, "fingerprints": all(p["fingerprints"] for p in parts), "modules": sorted({m for p in parts for m in p["modules"]}),
          "learners": sorted(totals), "only_before": sorted({x for p in parts for x in p["only_before"]}),
          "only_after": sorted({x for p in parts for x in p["only_after"]}), "totals": totals,
          "max_total": max(p["max_total"] for p in parts), "rows": rows}

def _signed(x:float) -> str: return f"{x:+g}"

def summary(changes:dict) -> str:
  """changes.md: the regrade's effect in a minute."""
  totals, rows = changes["totals"], changes["rows"]
  delta = {k: round(b - a, 4) for k, (a, b) in totals.items()}
  up = sorted(((d, k) for k, d in delta.items() if d > EPS), reverse=True)
  down = sorted((d, k) for k, d in delta.items() if d < -EPS)
  out = ["# What the regrade changed", "",
         f"{_count(len(totals), 'learner')} compared on {', '.join(changes['modules']) or 'no module'}, final scores (late policy and overrides applied):", ""]
  out.append(f"- **{_count(len(up), 'learner')} gained** points" + (f": {_signed(sum(d for d, _ in up))} in all, the most {md(up[0][1])} {_signed(up[0][0])}" if up else ""))
  out.append(f"- **{_count(len(down), 'learner')} lost** points" + (f": {_signed(sum(d for d, _ in down))} in all, the most {md(down[0][1])} {_signed(down[0][0])}" if down else ""))
  out.append(f"- {len(totals) - len(up) - len(down)} unchanged")
  if changes["only_after"]: out.append(f"- new since the earlier grading (not compared): {', '.join(md(x) for x in changes['only_after'])}")
  if changes["only_before"]: out.append(f"- in the earlier grading but not graded now: {', '.join(md(x) for x in changes['only_before'])}")
  if not changes["fingerprints"]:
    out += ["", "The earlier gradebook kept no record of what it was graded against (fingerprints.json): every reason is \"unknown\"."]
  tests = {}
  for r in rows:
    t = tests.setdefault((r["module"], r["test"]), {"task": r["task"], "up": [], "down": [], "same": 0, "why": Counter(), "submission": 0, "moves": Counter()})
    (t["up"] if r["change"] > EPS else t["down"] if r["change"] < -EPS else []).append(r["change"])
    if abs(r["change"]) <= EPS: t["same"] += 1
    t["why"][r["test_reason"]] += 1
    t["submission"] += bool(r["learner_reason"])
    t["moves"][f"{r['old_status'] or '—'} → {r['new_status'] or '—'}"] += 1
  if tests:
    out += ["", "## Per test", "", "| module | test | task | gained | lost | status | reason |", "|---|---|---|---|---|---|---|"]
    for (module, test), t in sorted(tests.items(), key=lambda kv: (-len(kv[1]["up"]) - len(kv[1]["down"]), kv[0])):
      side = lambda xs: f"{_count(len(xs), 'learner')}, {_signed(sum(xs))}" if xs else ""
      why = "; ".join(w for w, _ in t["why"].most_common()) + (f" (and for {_count(t['submission'], 'learner')}: a new commit)" if t["submission"] else "")
      moves = ", ".join(f"{m} ×{c}" for m, c in t["moves"].most_common(3))
      out.append(f"| {module} | `{test}` | {md(t['task'])} | {side(t['up'])} | {side(t['down'])} | {moves} | {md(why)} |")
  if up or down:
    out += ["", "## Per learner", "", "| learner | before | after | change |", "|---|---|---|---|"]
    for d, name in up + down:
      a, b = totals[name]
      out.append(f"| {md(name)} | {a:g}/{changes['max_total']:g} | {b:g}/{changes['max_total']:g} | {_signed(d)} |")
  out += ["", "Every change, per learner, module and test, with old and new status and points: `changes.csv`.", ""]
  return "\n".join(out)

def write(out:Path, changes:dict):
  out = Path(out)
  (out / "changes.json").write_text(json.dumps(changes, indent=1, sort_keys=True) + "\n")
  write_csv(out / "changes.csv", COLUMNS, changes["rows"])
  (out / "changes.md").write_text(summary(changes))

def load(folder:Path) -> dict|None:
  try: return json.loads((Path(folder) / "changes.json").read_text())
  except (OSError, ValueError): return None
