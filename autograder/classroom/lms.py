"""`autograder export-grades GRADEBOOK_DIR --format canvas|moodle|csv`: the gradebook (the final score of each
learner and module, after overrides and the late policy) as a file the LMS imports, a column per module, the learner
matched through the roster's LMS columns (autograder/classroom/roster.py).

canvas: the Gradebook import CSV. Canvas documents its columns as Student, ID, SIS User ID, SIS Login ID, Section,
  then one column per assignment (a new name creates the assignment), and writes a "Points Possible" row under the
  header in its own exports ("Importing a CSV file to Grades", teaching.resources.osu.edu/toolsets/carmencanvas/
  guides/calculating-final-grades/import-csv-file-carmen-grades; Canvas guide "How do I import grades in the
  Gradebook?"); Canvas's own grades.csv starts with the same five columns (nemogb-dev.github.io/nemogb-r/articles/
  detailed-canvas-export-info.html). Canvas matches a row by ID, SIS User ID or SIS Login ID: each learner needs one.
moodle: the CSV grade import. "The import file format is the same as the corresponding export format"; the
  learner is identified by mapping a column to a user field: "Email address" to useremail, or "ID number" to
  useridnumber; every other column maps to a grade item (docs.moodle.org/311/en/Grade_import). Each learner needs an
  email or an ID number (sis_id) in the roster.
csv: learner, then the modules, total and max_total: for a spreadsheet."""
from __future__ import annotations
import csv
from pathlib import Path
from autograder.classroom.gradebook import GradebookError, read
from autograder.classroom.roster import read_roster

CANVAS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
CANVAS_POINTS = "    Points Possible"          # as Canvas's own export writes it (its import reads the row back)
MOODLE = ["ID number", "Email address"]
FORMATS = ("canvas", "moodle", "csv")

def _table(rows:list[dict]) -> tuple[list[str], dict[str, dict[str, float]], dict[str, float]]:
  modules = sorted({r["module"] for r in rows if r["module"]})
  scores, maxima = {}, {}
  for r in rows:
    scores.setdefault(r["learner"], {})
    if r["module"]: scores[r["learner"]][r["module"]] = r["score"]; maxima[r["module"]] = max(maxima.get(r["module"], 0), r["max_score"])
  return modules, scores, maxima

def _num(x:float|None) -> str: return "" if x is None else f"{x:g}"

def export(folder:Path, fmt:str, roster:Path|None=None, out:Path|None=None) -> Path:
  """Write grades-FORMAT.csv into `folder` (or `out`); returns its path."""
  if fmt not in FORMATS: raise GradebookError(f"--format is one of {', '.join(FORMATS)}, not {fmt!r}")
  rows, _ = read(folder)
  modules, scores, maxima = _table(rows)
  people = {}
  if fmt != "csv":
    if roster is None: raise GradebookError(f"--format {fmt} needs --roster (the roster's LMS columns map learners to {fmt} users)")
    try: people = {r["learner"]: r for r in read_roster(roster, needed=("learner",))}
    except ValueError as e: raise GradebookError(str(e)) from None
  out = Path(out) if out else Path(folder) / f"grades-{fmt}.csv"
  lines = []
  if fmt == "canvas":
    lines.append(CANVAS + modules)
    lines.append([CANVAS_POINTS, "", "", "", ""] + [_num(maxima[m]) for m in modules])
  elif fmt == "moodle": lines.append(MOODLE + modules)
  else: lines.append(["learner"] + modules + ["total", "max_total"])
  for learner in sorted(scores):
    marks = [_num(scores[learner].get(m)) for m in modules]
    if fmt == "csv":
      lines.append([learner] + marks + [_num(sum(scores[learner].values())), _num(sum(maxima.values()))]); continue
    who = people.get(learner)
    if who is None: raise GradebookError(f"learner {learner} is graded but not in {roster}")
    if fmt == "canvas":
      if not (who.get("lms_id") or who.get("sis_id") or who.get("sis_login")):
        raise GradebookError(f"{roster}: learner {learner} needs lms_id, sis_id or sis_login for Canvas to match them")
      lines.append([who.get("name") or learner, who.get("lms_id", ""), who.get("sis_id", ""), who.get("sis_login", ""), who.get("section", "")] + marks)
    else:
      if not (who.get("email") or who.get("sis_id")): raise GradebookError(f"{roster}: learner {learner} needs an email or a sis_id (ID number) for Moodle")
      lines.append([who.get("sis_id", ""), who.get("email", "")] + marks)
  with open(out, "w", newline="", encoding="utf-8") as f:
    csv.writer(f).writerows([[str(c).lstrip("=+-@") for c in line] for line in lines])     # no spreadsheet formulas
  return out
