"""`autograder leaderboard GRADEBOOK_DIR`: the figures learners' code reached in grading (a speed-up against the
reference measured in the same run, recorded by a test with `record_metric`), ranked, for an instructor who chooses to
show them. Scores are not involved: a metric earns and loses nothing, and a learner whose test failed is listed with
the test's status (a fast wrong decoder is not a winner). Reads each learner's feedback/LEARNER/report.json; writes
leaderboard.csv and leaderboard.md into the folder, names replaced by stable pseudonyms with `anonymous`."""
from __future__ import annotations
import hashlib, json
from pathlib import Path
from autograder.classroom.gradebook import GradebookError, write_csv
from autograder.core.report import md
from autograder.core.results import Report, TestStatus, from_json, is_report

COLUMNS = ["rank", "learner", "module", "test", "metric", "value", "status"]

def pseudonym(name:str) -> str: return "learner-" + hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:8]

def entries(folder:Path) -> list[dict]:
  """Every recorded metric of every learner's report in a grading folder (unreadable reports are left out)."""
  out = []
  for path in sorted((Path(folder) / "feedback").glob("*/report.json")):
    try: data = json.loads(path.read_text())
    except (OSError, ValueError): continue
    if not is_report(data): continue
    for m in from_json(Report, data).modules:
      for t in m.tests:
        for metric, value in (t.metrics or {}).items():
          out.append({"learner": path.parent.name, "module": m.module, "test": t.id, "metric": metric, "value": value, "status": t.status})
  return out

def board(rows:list[dict], module:str|None=None, metric:str|None=None, anonymous:bool=False) -> list[dict]:
  """The rows of one leaderboard per (module, metric): passed tests first, by value (higher first), then the others."""
  rows = [r for r in rows if (module is None or r["module"] == module or r["module"][:2] == module.zfill(2)) and (metric is None or r["metric"] == metric)]
  out = []
  for key in sorted({(r["module"], r["metric"]) for r in rows}):
    mine = sorted((r for r in rows if (r["module"], r["metric"]) == key),
                  key=lambda r: (r["status"] != TestStatus.PASSED, -r["value"], r["learner"]))
    for rank, r in enumerate(mine, 1):
      out.append({**r, "rank": rank if r["status"] == TestStatus.PASSED else "", "learner": pseudonym(r["learner"]) if anonymous else r["learner"],
                  "value": round(r["value"], 4)})
  return out

def markdown(rows:list[dict]) -> str:
  lines = ["# Leaderboard", "", "Figures the learners' code reached in grading, higher is better; a test that did not pass has no rank.", ""]
  for key in dict.fromkeys((r["module"], r["metric"]) for r in rows):
    lines += [f"## {key[0]}: {md(key[1])}", "", "| rank | learner | test | value | status |", "|---|---|---|---|---|"]
    lines += [f"| {r['rank']} | {md(r['learner'])} | `{r['test']}` | {r['value']:g} | {r['status']} |" for r in rows if (r["module"], r["metric"]) == key]
    lines.append("")
  return "\n".join(lines)

def leaderboard(folder:Path, module:str|None=None, metric:str|None=None, anonymous:bool=False) -> list[dict]:
  if not (Path(folder) / "feedback").is_dir(): raise GradebookError(f"{folder}: no feedback/ folder (grade the class with grade-all first)")
  rows = board(entries(folder), module, metric, anonymous)
  write_csv(Path(folder) / "leaderboard.csv", COLUMNS, rows)
  (Path(folder) / "leaderboard.md").write_text(markdown(rows))
  return rows
