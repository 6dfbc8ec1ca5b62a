"""The gradebook of a grading folder, rebuilt from what is in it: each learner's report (feedback/LEARNER/report.json),
the commit time fetch recorded (feedback/LEARNER/fetched.json), the late policy and the instructor's overrides. The
gradebook is a function of these alone, so a regrade, a resumed run and a merge of shards all write the same files.

gradebook.csv / .json, a row per learner and module:
  learner, module, score, max_score, status, flags          score: what the learner gets (raw, overridden, late-reduced)
  raw_score, late_days, late_percent, override              the raw score, days late, percent lost, the override notes
tasks.csv, a row per learner and test: learner, module, task, test, status, score, max_score, message, override
(the learner-facing message only: hidden checks never reveal their expected values, and a message quoting a hidden
test's code was withheld at grading).

overrides.csv (the instructor's, kept beside the roster, never written by the grader): learner, module, test, points,
note. `test` empty: `points` replaces the module's raw score; else it replaces that test's score (its id as tasks.csv
names it). `points` empty: only the note is shown. Overrides are applied after grading and before the late policy."""
from __future__ import annotations
import csv, json
from pathlib import Path
from autograder.classroom.late import Policy, days_late, parse_time, percent_lost

class GradebookError(ValueError): pass

COLUMNS = ["learner", "module", "score", "max_score", "status", "flags", "raw_score", "late_days", "late_percent", "override"]
TASK_COLUMNS = ["learner", "module", "task", "test", "status", "score", "max_score", "message", "override"]

def _cell(v):
  return str(v).lstrip("=+-@") if isinstance(v, str) else v       # no spreadsheet formulas from learner-influenced text

def write_csv(path:Path, columns:list[str], rows:list[dict]):
  with open(path, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
    w.writeheader()
    for r in rows: w.writerow({k: _cell(r.get(k, "")) for k in columns})

def read_overrides(path:Path|str|None) -> list[dict]:
  if path is None or not Path(path).is_file(): return []
  with open(path, newline="", encoding="utf-8-sig") as f:
    reader = csv.DictReader(f)
    missing = [k for k in ("learner", "module", "test", "points", "note") if k not in (reader.fieldnames or [])]
    if missing: raise GradebookError(f"{path}: overrides need the columns learner, module, test, points, note; missing {', '.join(missing)}")
    rows = []
    for i, r in enumerate(reader, 2):
      if not r["learner"] or not r["module"]: raise GradebookError(f"{path}, line {i}: learner and module are required")
      try: r["points"] = float(r["points"]) if (r["points"] or "").strip() else None
      except ValueError: raise GradebookError(f"{path}, line {i}: points {r['points']!r} is not a number") from None
      rows.append({**r, "line": i})
  return rows

def _module_matches(name:str, module:str) -> bool:
  return name == module or (name.isdigit() and module.split("_")[0] == name)

def _overridden(learner:str, report:dict, overrides:list[dict], used:set) -> tuple[dict, dict]:
  """{(module, test): (points|None, note)} and {module: (points|None, note)} for this learner."""
  tests, modules = {}, {}
  for o in overrides:
    if o["learner"] != learner: continue
    for m in report.get("modules", []):
      if not _module_matches(o["module"], m["module"]): continue
      if o["test"]:
        if any(t["id"] == o["test"] for t in m["tests"]): tests[(m["module"], o["test"])] = (o["points"], o["note"]); used.add(o["line"])
      else: modules[m["module"]] = (o["points"], o["note"]); used.add(o["line"])
  return tests, modules

def rows_for(learner:str, report:dict, fetched:dict|None, policy:Policy, overrides:list[dict], used:set) -> tuple[list[dict], list[dict]]:
  """(gradebook rows, task rows) of one learner."""
  if report.get("error"):
    return [{"learner": learner, "module": "", "score": 0, "max_score": 0, "status": "grader_error", "flags": report["error"],
             "raw_score": 0, "late_days": 0, "late_percent": 0, "override": ""}], []
  late = days_late(parse_time(fetched["committed_at"], "fetched.json"), parse_time(fetched["due"], "fetched.json")) if fetched else 0
  lost = percent_lost(late, policy)
  test_over, module_over = _overridden(learner, report, overrides, used)
  rows, tasks = [], []
  for m in report["modules"]:
    notes, raw = [], 0.0
    for t in m["tests"]:
      points, note = test_over.get((m["module"], t["id"]), (None, ""))
      score = min(float(t["max_score"]), max(0.0, points)) if points is not None else float(t["score"])
      if points is not None or note: notes.append(f"{t['id']}: " + (f"{score:g} points" if points is not None else "") + (f" ({note})" if note and points is not None else note))
      raw += score
      tasks.append({"learner": learner, "module": m["module"], "task": t.get("task", ""), "test": t["id"], "status": t["status"],
                    "score": score, "max_score": t["max_score"], "message": t["message"] if t["status"] != "passed" else "",
                    "override": note if points is None else (note or "points set by the instructor")})
    if m["module"] in module_over:
      points, note = module_over[m["module"]]
      if points is not None: raw = min(float(m["max_score"]), max(0.0, points))
      notes.append((f"module: {raw:g} points" if points is not None else "module") + (f" ({note})" if note else ""))
    rows.append({"learner": learner, "module": m["module"], "score": round(raw * (1 - lost / 100), 4), "max_score": m["max_score"],
                 "status": m["status"], "flags": "; ".join(f"{f['where']}: {f['rule']}" for f in m.get("flags", [])),
                 "raw_score": round(raw, 4), "late_days": late, "late_percent": lost, "override": "; ".join(notes)})
  return rows, tasks

def rebuild(out:Path, learners:list[str]|None=None, policy:Policy=Policy(), overrides:list[dict]=()) -> dict:
  """Write gradebook.csv, gradebook.json and tasks.csv of `out` for `learners` (default: every folder of
  out/feedback); returns {"learners", "rows", "unused_overrides"} (override lines that matched nothing here)."""
  feedback = Path(out) / "feedback"
  names = sorted(learners if learners is not None else [p.name for p in feedback.iterdir() if p.is_dir()] if feedback.is_dir() else [])
  rows, tasks, used = [], [], set()
  for name in names:
    try: report = json.loads((feedback / name / "report.json").read_text())
    except (OSError, ValueError): raise GradebookError(f"{feedback / name}: no readable report.json (was this learner graded?)") from None
    fetched = feedback / name / "fetched.json"
    r, t = rows_for(name, report, json.loads(fetched.read_text()) if fetched.is_file() else None, policy, list(overrides), used)
    rows += r; tasks += t
  rows.sort(key=lambda r: (r["learner"], r["module"]))
  (Path(out) / "gradebook.json").write_text(json.dumps(rows, indent=1) + "\n")
  write_csv(Path(out) / "gradebook.csv", COLUMNS, rows)
  write_csv(Path(out) / "tasks.csv", TASK_COLUMNS, tasks)
  return {"learners": len(names), "rows": len(rows), "unused_overrides": [o["line"] for o in overrides if o["line"] not in used]}

def read(out:Path, allow_empty:bool=False) -> tuple[list[dict], list[dict]]:
  """(gradebook rows, task rows) of a grading folder, numbers as floats (an empty gradebook is an error unless `allow_empty`)."""
  out = Path(out)
  if not out.is_dir(): raise GradebookError(f"{out}: no such folder")
  if not (out / "gradebook.csv").is_file(): raise GradebookError(f"{out}: no gradebook.csv there (run grade-all or merge first)")
  def load(name):
    if not (out / name).is_file(): return []
    with open(out / name, newline="") as f: rows = list(csv.DictReader(f))
    for r in rows:
      for k in ("score", "max_score", "raw_score", "late_percent"):
        if k in r: r[k] = float(r[k] or 0)
    return rows
  rows = load("gradebook.csv")
  if not rows and not allow_empty: raise GradebookError(f"{out}: the gradebook is empty (no learner was graded)")
  return rows, load("tasks.csv")
