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
import csv, json, unicodedata
from pathlib import Path
from autograder.classroom.late import Policy, days_late, parse_time, percent_lost
from autograder.core import files
from autograder.core.results import ModuleStatus, Report, TestStatus, from_json, is_report

class GradebookError(ValueError): pass

COLUMNS = ["learner", "module", "score", "max_score", "status", "flags", "raw_score", "late_days", "late_percent", "override"]
TASK_COLUMNS = ["learner", "module", "task", "test", "status", "score", "max_score", "message", "override"]

# OWASP's CSV injection list: a cell a spreadsheet would take for a formula starts with = + - @ (or their full-width and
# small forms, which spreadsheets fold to them), or with a tab or carriage return; spaces, no-break spaces and invisible
# format characters before them do not help. Such a cell is quoted (a leading '), never stripped: its text stays whole.
FORMULA_START = set("=+-@\u2212")
BLANK_CATEGORIES = {"Zs", "Zl", "Zp", "Cc", "Cf"}

def formula_like(text:str) -> bool:
  """Whether a spreadsheet could read `text` as a formula (OWASP's list, with the forms that fold to it)."""
  if text[:1] in ("\t", "\r"): return True
  i = 0
  while i < len(text) and (text[i].isspace() or unicodedata.category(text[i]) in BLANK_CATEGORIES): i += 1
  return i < len(text) and (text[i] in FORMULA_START or unicodedata.normalize("NFKC", text[i])[:1] in FORMULA_START)

def spreadsheet_text(v):
  """A value for a CSV cell a person may open in a spreadsheet: text that could start a formula gets a leading
  quote (OWASP); everything else, numbers included, is written as it is."""
  return "'" + v if isinstance(v, str) and formula_like(v) else v

def _cell(v): return spreadsheet_text(v)

def write_csv(path:Path, columns:list[str], rows:list[dict]):
  with open(path, "w", newline="", errors="backslashreplace") as f:      # (a text no file can hold must not end the gradebook)
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

def _overridden(learner:str, report:Report, overrides:list[dict], used:set) -> tuple[dict, dict]:
  """{(module, test): (points|None, note)} and {module: (points|None, note)} for this learner."""
  tests, modules = {}, {}
  for o in overrides:
    if o["learner"] != learner: continue
    for m in report.modules:
      if not _module_matches(o["module"], m.module): continue
      if o["test"]:
        if any(t.id == o["test"] for t in m.tests): tests[(m.module, o["test"])] = (o["points"], o["note"]); used.add(o["line"])
      else: modules[m.module] = (o["points"], o["note"]); used.add(o["line"])
  return tests, modules

def error_row(learner:str, why:str) -> dict:
  """The gradebook row of a learner whose grading or gradebook entry failed: named, scored 0, the reason in `flags`."""
  return {"learner": learner, "module": "", "score": 0, "max_score": 0, "status": ModuleStatus.GRADER_ERROR, "flags": why,
          "raw_score": 0, "late_days": 0, "late_percent": 0, "override": ""}

def lateness(fetched:dict|None, policy:Policy) -> tuple[int, float, str]:
  """(days late, percent lost, a note) from a learner's fetch record. The time judged is `submitted_at` (when the
  server had the commit, from fetch's snapshots) or, for a record without it, the committer date. A time that cannot
  be read proves nothing about being on time: it is counted as late as the policy allows, and the note says so."""
  if not fetched: return 0, 0.0, ""
  when = fetched.get("submitted_at") or fetched.get("committed_at")
  try: late = days_late(parse_time(when, "fetched.json"), parse_time(fetched.get("due"), "fetched.json"))
  except (ValueError, TypeError, OverflowError):
    worst = policy.max_percent if policy.percent_per_day > 0 else 0.0
    what = f"the time {str(when)[:40]!r} cannot be read" if when else "the fetch record holds no time"
    return 0, worst, f"fetch: {what}, so lateness is unknown: counted as {worst:g}% lost (override to change)"
  return late, percent_lost(late, policy), ""

def rows_for(learner:str, report:Report, fetched:dict|None, policy:Policy, overrides:list[dict], used:set) -> tuple[list[dict], list[dict]]:
  """(gradebook rows, task rows) of one learner."""
  if report.error: return [error_row(learner, report.error)], []
  late, lost, late_note = lateness(fetched, policy)
  fetch_note = "; ".join(x for x in (late_note, f"fetch: {fetched['note']}" if fetched and fetched.get("note") else "") if x)
  test_over, module_over = _overridden(learner, report, overrides, used)
  rows, tasks = [], []
  for m in report.modules:
    notes, raw = [], 0.0
    for t in m.tests:
      points, note = test_over.get((m.module, t.id), (None, ""))
      score = min(float(t.max_score), max(0.0, points)) if points is not None else float(t.score)
      if points is not None or note: notes.append(f"{t.id}: " + (f"{score:g} points" if points is not None else "") + (f" ({note})" if note and points is not None else note))
      raw += score
      tasks.append({"learner": learner, "module": m.module, "task": t.task or "", "test": t.id, "status": t.status,
                    "score": score, "max_score": t.max_score, "message": t.message if t.status != TestStatus.PASSED else "",
                    "override": note if points is None else (note or "points set by the instructor")})
    if m.module in module_over:
      points, note = module_over[m.module]
      if points is not None: raw = min(float(m.max_score), max(0.0, points))
      notes.append((f"module: {raw:g} points" if points is not None else "module") + (f" ({note})" if note else ""))
    flags = "; ".join([f"{f.where}: {f.rule}" for f in m.flags or []] + ([fetch_note] if fetch_note else []))
    rows.append({"learner": learner, "module": m.module, "score": round(raw * (1 - lost / 100), 4), "max_score": m.max_score,
                 "status": m.status, "flags": flags, "raw_score": round(raw, 4), "late_days": late, "late_percent": lost,
                 "override": "; ".join(notes)})
  return rows, tasks

NAME_NOTE = "the learner's folder name is not UTF-8: shown with \\x escapes"

def _learner(feedback:Path, name:str, policy:Policy, overrides:list[dict], used:set) -> tuple[list[dict], list[dict]]:
  """One learner's rows; whatever their folder holds, an error row that names them rather than an exception. A folder
  name that is not UTF-8 is shown with \\x escapes (files.shown), and its rows say so."""
  rows, tasks = _rows(feedback, name, files.shown(name), policy, overrides, used)
  if files.shown(name) != name:
    for r in rows: r["flags"] = "; ".join(x for x in (r["flags"], NAME_NOTE) if x)
  return rows, tasks

def _rows(feedback:Path, name:str, who:str, policy:Policy, overrides:list[dict], used:set) -> tuple[list[dict], list[dict]]:
  try: data = json.loads((feedback / name / "report.json").read_text())
  except (OSError, ValueError): return [error_row(who, "no readable report.json (was this learner graded?)")], []
  if not is_report(data): return [error_row(who, "report.json is not a grading report")], []
  report = from_json(Report, data)
  try: fetched = json.loads((feedback / name / "fetched.json").read_text()) if (feedback / name / "fetched.json").is_file() else None
  except (OSError, ValueError): fetched = {"note": "fetched.json cannot be read"}
  if fetched is not None and not isinstance(fetched, dict): fetched = {"note": "fetched.json is not a table"}
  mine = set()
  try: rows, tasks = rows_for(who, report, fetched, policy, overrides, mine)
  except Exception as e: return [error_row(who, f"its report could not be read into the gradebook ({type(e).__name__})")], []
  used |= mine
  return rows, tasks

def rebuild(out:Path, learners:list[str]|None=None, policy:Policy=Policy(), overrides:list[dict]=()) -> dict:
  """Write gradebook.csv, gradebook.json and tasks.csv of `out` for `learners` (default: every folder of
  out/feedback); returns {"learners", "rows", "unused_overrides" (override lines that matched nothing here), "errors"
  (learners with a grader_error row, learner-wide or in a module)}. One learner's unreadable folder is that learner's
  error row, never the end of the gradebook."""
  feedback = Path(out) / "feedback"
  names = sorted(learners if learners is not None else [p.name for p in feedback.iterdir() if p.is_dir()] if feedback.is_dir() else [])
  rows, tasks, used = [], [], set()
  for name in names:
    r, t = _learner(feedback, name, policy, list(overrides), used)
    rows += r; tasks += t
  rows.sort(key=lambda r: (r["learner"], r["module"]))
  (Path(out) / "gradebook.json").write_text(json.dumps(rows, indent=1) + "\n")
  write_csv(Path(out) / "gradebook.csv", COLUMNS, rows)
  write_csv(Path(out) / "tasks.csv", TASK_COLUMNS, tasks)
  errors = sorted({r["learner"] for r in rows if r["status"] == ModuleStatus.GRADER_ERROR})
  return {"learners": len(names), "rows": len(rows), "unused_overrides": [o["line"] for o in overrides if o["line"] not in used], "errors": errors}

def read(out:Path, allow_empty:bool=False) -> tuple[list[dict], list[dict]]:
  """(gradebook rows, task rows) of a grading folder, numbers as floats (an empty gradebook is an error unless `allow_empty`)."""
  out = Path(out)
  if not out.is_dir(): raise GradebookError(f"{out}: no such folder")
  if not (out / "gradebook.csv").is_file(): raise GradebookError(f"{out}: no gradebook.csv there (run grade-all or merge first)")
  def load(name):
    if not (out / name).is_file(): return []
    with open(out / name, newline="") as f: rows = list(csv.DictReader(f))
    for r in rows:
      for k in list(r):
        if r[k] is None or k is None: r.pop(k) if k is None else r.__setitem__(k, "")     # a short or long line
      for k in ("score", "max_score", "raw_score", "late_percent"):
        if k in r:
          try: r[k] = float(r[k] or 0)
          except ValueError: r[k], r["status"] = 0.0, ModuleStatus.GRADER_ERROR                       # one bad row, not a failed command
    return rows
  rows = load("gradebook.csv")
  if not rows and not allow_empty: raise GradebookError(f"{out}: the gradebook is empty (no learner was graded)")
  return rows, load("tasks.csv")
