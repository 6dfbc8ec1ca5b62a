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
csv: learner, then the modules, total and max_total: for a spreadsheet.

Text a spreadsheet could take for a formula (OWASP's list: a leading = + - @, tab or carriage return, their full-width
forms, and spaces before them) is quoted with a leading ', never stripped; identifiers (ID, SIS User ID, SIS Login ID,
ID number, email, learner) are written exactly as the roster has them, since the LMS matches them character for
character (an SIS login `-ada` stays `-ada`; stripping it made it `ada`, another user's). A learner who cannot be
exported (not in the roster, no identifier the LMS matches on, an identifier another learner has too) is left out
and named in the returned problems; the others are written."""
from __future__ import annotations
import csv
from pathlib import Path
from autograder.classroom.gradebook import GradebookError, formula_like, read, spreadsheet_text
from autograder.classroom.roster import read_roster

CANVAS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
CANVAS_POINTS = "    Points Possible"          # as Canvas's own export writes it (its import reads the row back)
MOODLE = ["ID number", "Email address"]
IDENTIFIERS = {"ID", "SIS User ID", "SIS Login ID", "ID number", "Email address", "learner"}   # matched exactly by the LMS: never changed
FORMATS = ("canvas", "moodle", "csv")

def _table(rows:list[dict]) -> tuple[list[str], dict[str, dict[str, float]], dict[str, float]]:
  modules = sorted({r["module"] for r in rows if r["module"]})
  scores, maxima = {}, {}
  for r in rows:
    scores.setdefault(r["learner"], {})
    if r["module"]: scores[r["learner"]][r["module"]] = r["score"]; maxima[r["module"]] = max(maxima.get(r["module"], 0), r["max_score"])
  return modules, scores, maxima

def _num(x:float|None) -> str: return "" if x is None else f"{x:g}"

def export(folder:Path, fmt:str, roster:Path|None=None, out:Path|None=None) -> tuple[Path, list[str]]:
  """Write grades-FORMAT.csv into `folder` (or `out`); returns (its path, a line per learner left out or worth a look).
  GradebookError when nobody can be exported."""
  if fmt not in FORMATS: raise GradebookError(f"--format is one of {', '.join(FORMATS)}, not {fmt!r}")
  rows, _ = read(folder)
  modules, scores, maxima = _table(rows)
  people = {}
  if fmt != "csv":
    if roster is None: raise GradebookError(f"--format {fmt} needs --roster (the roster's LMS columns map learners to {fmt} users)")
    try: people = {r["learner"]: r for r in read_roster(roster, needed=("learner",))}
    except ValueError as e: raise GradebookError(str(e)) from None
  out = Path(out) if out else Path(folder) / f"grades-{fmt}.csv"
  if fmt == "canvas": header = CANVAS + modules
  elif fmt == "moodle": header = MOODLE + modules
  else: header = ["learner"] + modules + ["total", "max_total"]
  lines, problems, owner = [header], [], {}
  if fmt == "canvas": lines.append([CANVAS_POINTS, "", "", "", ""] + [_num(maxima[m]) for m in modules])
  for learner in sorted(scores):
    marks = [_num(scores[learner].get(m)) for m in modules]
    if fmt == "csv":
      lines.append([learner] + marks + [_num(sum(scores[learner].values())), _num(sum(maxima.values()))]); continue
    who = people.get(learner)
    if who is None: problems.append(f"{learner}: graded but not in {roster}"); continue
    if fmt == "canvas":
      ids = {"ID": who.get("lms_id", ""), "SIS User ID": who.get("sis_id", ""), "SIS Login ID": who.get("sis_login", "")}
      if not any(ids.values()): problems.append(f"{learner}: needs lms_id, sis_id or sis_login for Canvas to match them"); continue
      line = [who.get("name") or learner, ids["ID"], ids["SIS User ID"], ids["SIS Login ID"], who.get("section", "")] + marks
    else:
      ids = {"ID number": who.get("sis_id", ""), "Email address": who.get("email", "")}
      if not any(ids.values()): problems.append(f"{learner}: needs an email or a sis_id (ID number) for Moodle"); continue
      line = [ids["ID number"], ids["Email address"]] + marks
    clash = [f"{k} {v!r} (also {owner[(k, v)]}'s)" for k, v in ids.items() if v and (k, v) in owner]
    if clash: problems.append(f"{learner}: left out, the same {', '.join(clash)} would match one user twice"); continue
    owner.update({(k, v): learner for k, v in ids.items() if v})
    odd = [k for k, v in ids.items() if v and formula_like(v)]
    if odd: problems.append(f"{learner}: note: {', '.join(odd)} starts like a spreadsheet formula; written unchanged for the LMS, so open "
                            "the file in the LMS rather than in a spreadsheet")
    lines.append(line)
  if fmt != "csv" and len(lines) == (2 if fmt == "canvas" else 1) and scores:
    raise GradebookError(f"{roster}: no learner could be exported: " + "; ".join(problems[:3]))
  with open(out, "w", newline="", encoding="utf-8") as f:
    csv.writer(f).writerows([[c if header[i] in IDENTIFIERS or n == 0 else spreadsheet_text(c) for i, c in enumerate(line)]
                             for n, line in enumerate(lines)])
  return out, problems
