"""The gradebook and what is built on it: the late policy, extensions and overrides; the item analysis; the LMS
files against their documented headers; commands that say what is wrong in one line. Gradebooks are built
directly from reports, no grading."""
import csv
import json
from pathlib import Path
import numpy as np, pytest
from autograder.core.course import REPO
from autograder.classroom.gradebook import rebuild, read_overrides
from autograder.classroom.late import Policy, days_late, load, parse_time, percent_lost
from classes import cli

def report(scores:dict[str, dict[str, tuple[float, float, str]]]) -> dict:
  """{module: {test: (score, max, message)}} -> a grading report."""
  modules = [{"module": m, "status": "graded", "message": "", "flags": [], "score": sum(s for s, _, _ in t.values()),
              "max_score": sum(x for _, x, _ in t.values()), "seconds": 1.0,
              "tests": [{"id": tid, "task": f"Task {m[:2].lstrip('0')}.{i + 1}", "status": "passed" if s == x else "failed", "score": s, "max_score": x,
                         "message": "" if s == x else msg} for i, (tid, (s, x, msg)) in enumerate(t.items())]} for m, t in scores.items()]
  return {"score": sum(m["score"] for m in modules), "max_score": sum(m["max_score"] for m in modules), "modules": modules}

def gradebook(folder:Path, reports:dict[str, dict], fetched:dict[str, dict]=None) -> Path:
  for name, r in reports.items():
    (folder / "feedback" / name).mkdir(parents=True, exist_ok=True)
    (folder / "feedback" / name / "report.json").write_text(json.dumps(r))
    if fetched and name in fetched: (folder / "feedback" / name / "fetched.json").write_text(json.dumps(fetched[name]))
  rebuild(folder)
  return folder

def test_late_policy_extensions_and_overrides(tmp_path):
  (tmp_path / "grading.toml").write_text("[late]\nwindow_days = 3\npercent_per_day = 10\nmax_percent = 25\n")
  policy = load(tmp_path / "grading.toml")
  assert policy == Policy(3, 10, 25) and load(tmp_path / "none.toml") == Policy(0, 100, 100)
  due = parse_time("2026-12-01T23:59:00+01:00", "t")
  assert days_late(parse_time("2026-12-01T23:58:00+01:00", "t"), due) == 0 and days_late(parse_time("2026-12-02T00:00:00+01:00", "t"), due) == 1
  assert days_late(parse_time("2026-12-04T23:59:00+01:00", "t"), due) == 3 and percent_lost(2, policy) == 20 and percent_lost(3, policy) == 25
  for bad in ("[late]\nwindow = 2\n", "[late]\npercent_per_day = 150\n", "[late\n"):
    (tmp_path / "bad.toml").write_text(bad)
    with pytest.raises(ValueError): load(tmp_path / "bad.toml")
  full = report({"01_x": {"test_a": (2, 2, ""), "test_b": (3, 3, "")}})
  fetched = {"ada": {"commit": "a" * 40, "committed_at": "2026-12-03T10:00:00+01:00", "due": "2026-12-01T23:59:00+01:00"},   # 2 days late
             "bob": {"commit": "b" * 40, "committed_at": "2026-12-03T10:00:00+01:00", "due": "2026-12-04T23:59:00+01:00"}}  # extended: on time
  out = gradebook(tmp_path / "gb", {"ada": full, "bob": full, "cyd": report({"01_x": {"test_a": (0, 2, "a: got 1"), "test_b": (3, 3, "")}})}, fetched)
  (tmp_path / "overrides.csv").write_text("learner,module,test,points,note\ncyd,01,test_a,1.5,regraded by hand: the idea is right\n"
                                          "bob,01_x,,,asked for a regrade; the grade stands\nzed,01_x,,5,not in this class\n")
  overrides = read_overrides(tmp_path / "overrides.csv")
  built = rebuild(out, policy=policy, overrides=overrides)
  rows = {r["learner"]: r for r in csv.DictReader(open(out / "gradebook.csv"))}
  assert (float(rows["ada"]["raw_score"]), rows["ada"]["late_days"], float(rows["ada"]["late_percent"]), float(rows["ada"]["score"])) == (5, "2", 20, 4)
  assert float(rows["bob"]["score"]) == 5 and rows["bob"]["late_days"] == "0" and "grade stands" in rows["bob"]["override"]
  assert float(rows["cyd"]["score"]) == 4.5 and "test_a: 1.5 points" in rows["cyd"]["override"]
  assert built["unused_overrides"] == [4]
  cyd = next(t for t in csv.DictReader(open(out / "tasks.csv")) if t["learner"] == "cyd" and t["test"] == "test_a")
  assert float(cyd["score"]) == 1.5 and "regraded by hand" in cyd["override"]
  (out / "feedback/cyd/report.json").write_text(json.dumps(report({"01_x": {"test_a": (0, 2, "a: got 1"), "test_b": (0, 3, "b: got 2")}})))
  regrade = cli("merge", out, "--out", tmp_path / "merged", "--policy", tmp_path / "grading.toml", "--overrides", tmp_path / "overrides.csv")
  assert regrade.returncode == 0 and "1 override(s)" in regrade.stdout, regrade.stderr              # the regrade keeps the overrides
  rows = {r["learner"]: r for r in csv.DictReader(open(tmp_path / "merged/gradebook.csv"))}
  assert float(rows["cyd"]["score"]) == 1.5 and float(rows["ada"]["score"]) == 4
  (tmp_path / "bad.csv").write_text("learner,module,test,points,note\nada,01,,lots,\n")
  bad = cli("merge", out, "--out", tmp_path / "m2", "--overrides", tmp_path / "bad.csv")
  assert bad.returncode == 2 and "line 2: points 'lots' is not a number" in bad.stderr and "Traceback" not in bad.stderr

def class_of(n:int, seed:int=0) -> dict[str, dict]:
  """A class whose task 1.1 follows ability, 1.2 is a coin toss, 1.3 nobody solves, 2.1 everybody solves."""
  rng = np.random.default_rng(seed)
  out = {}
  for i in range(n):
    ability = i / (n - 1)
    out[f"l{i:02d}"] = report({"01_x": {"test_a": (2.0 if ability > 0.4 else 0.0, 2, "a: got 7"), "test_b": (float(rng.integers(0, 2)) * 3, 3, "b: got 0"),
                                        "test_c": (0, 1, "c: not observed (the test stopped before this check)"), "test_d": (round(4 * ability), 4, "d: off by one")},
                               "02_y": {"test_e": (1, 1, "")}})
  return out

def test_item_analysis(tmp_path):
  out = gradebook(tmp_path / "gb", class_of(20))
  done = cli("stats", out, "--summary", tmp_path / "summary.md")
  assert done.returncode == 0, done.stderr
  rows = {r["task"]: r for r in csv.DictReader(open(out / "item-analysis.csv"))}
  assert set(rows) == {"Task 1.1", "Task 1.2", "Task 1.3", "Task 1.4", "Task 2.1"}
  tasks = list(csv.DictReader(open(out / "tasks.csv")))
  mine = lambda test: [float(t["score"]) for t in sorted(tasks, key=lambda t: t["learner"]) if t["test"] == test]
  rest = [sum(x) for x in zip(mine("test_b"), mine("test_c"), mine("test_d"))]
  assert float(rows["Task 1.1"]["item_rest"]) == pytest.approx(np.corrcoef(mine("test_a"), rest)[0, 1], abs=1e-3)     # numpy as the oracle
  assert float(rows["Task 1.1"]["item_rest"]) > 0.5 and abs(float(rows["Task 1.2"]["item_rest"])) < float(rows["Task 1.1"]["item_rest"])
  assert float(rows["Task 1.1"]["upper_lower"]) == 1.0 and float(rows["Task 1.1"]["full"]) == 0.6 and float(rows["Task 1.1"]["none"]) == 0.4
  assert rows["Task 1.3"]["item_rest"] == "" and float(rows["Task 1.3"]["none"]) == 1 and rows["Task 2.1"]["item_rest"] == ""
  assert float(rows["Task 1.4"]["partial"]) > 0 and float(rows["Task 1.4"]["mean"]) == pytest.approx(np.mean(mine("test_d")) / 4, abs=1e-3)
  assert rows["Task 1.1"]["common_failure"] == "a: got 7" and int(rows["Task 1.1"]["failure_count"]) == 8 and rows["Task 2.1"]["common_failure"] == ""
  assert (out / "item-analysis.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
  assert "![tasks sorted by difficulty](item-analysis.png)" in (out / "item-analysis.md").read_text()
  assert "| 01_x | `Task 1.1` | 2 | 60% | 0% | 40% | 60% |" in (tmp_path / "summary.md").read_text()
  (tmp_path / "empty").mkdir()
  for folder in (tmp_path / "nowhere", tmp_path / "empty"):
    bad = cli("stats", folder)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and bad.stderr.count("\n") == 1, bad.stderr

# Canvas's grade import/export columns: "Student Name ... OR Student ID OR Student SIS User ID ..., SIS Login ID ..., Section ...,
# Assignment Name" (teaching.resources.osu.edu/toolsets/carmencanvas/guides/calculating-final-grades/import-csv-file-carmen-grades);
# "Student, ID, SIS User ID, SIS Login ID, Section", then "Quiz 1 (87568490)"-style assignment columns in Canvas's grades.csv
# (nemogb-dev.github.io/nemogb-r/articles/detailed-canvas-export-info.html).
CANVAS_HEADER = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]

# Moodle's CSV grade import: "Change both dropdowns to: "Email Address" to "useremail", or to "Id Number" to "useridnumber""
# (docs.moodle.org/311/en/Grade_import); its CSV export names those columns "Email address" and "ID number".
MOODLE_IDS = {"Email address", "ID number"}

def test_grades_for_the_lms(tmp_path):
  out = gradebook(tmp_path / "gb", {"ada": report({"01_x": {"t": (2, 2, "")}, "02_y": {"t": (1, 3, "no")}}), "bob": report({"01_x": {"t": (0, 2, "no")}, "02_y": {"t": (3, 3, "")}})})
  roster = tmp_path / "roster.csv"
  roster.write_text("learner,repository,ref,deadline,name,lms_id,sis_id,sis_login,email,section\n"
                    "ada,r,main,2026-12-01T23:59:00+01:00,\"Lovelace, Ada\",101,S-1,ada1,ada@example.org,A\n"
                    "bob,r,main,2026-12-01T23:59:00+01:00,=cmd(),102,S-2,bob1,bob@example.org,B\n")
  assert cli("export-grades", out, "--format", "canvas", "--roster", roster).returncode == 0
  canvas = list(csv.reader(open(out / "grades-canvas.csv")))
  assert canvas[0] == CANVAS_HEADER + ["01_x", "02_y"] and canvas[1][0].strip() == "Points Possible" and canvas[1][5:] == ["2", "3"]
  assert canvas[2] == ["Lovelace, Ada", "101", "S-1", "ada1", "A", "2", "1"] and canvas[3][0] == "'=cmd()"         # quoted: no formula reaches a spreadsheet
  assert cli("export-grades", out, "--format", "moodle", "--roster", roster).returncode == 0
  moodle = list(csv.reader(open(out / "grades-moodle.csv")))
  assert MOODLE_IDS <= set(moodle[0]) and moodle[0][2:] == ["01_x", "02_y"] and moodle[1] == ["S-1", "ada@example.org", "2", "1"] and len(moodle) == 3
  assert cli("export-grades", out, "--format", "csv").returncode == 0
  assert list(csv.reader(open(out / "grades-csv.csv")))[1:] == [["ada", "2", "1", "3", "5"], ["bob", "0", "3", "3", "5"]]
  roster.write_text("learner,repository,ref,deadline\nada,r,main,2026-12-01T23:59:00+01:00\nbob,r,main,2026-12-01T23:59:00+01:00\n")
  bad = cli("export-grades", out, "--format", "canvas", "--roster", roster)
  assert bad.returncode == 2 and "needs lms_id, sis_id or sis_login" in bad.stderr and "Traceback" not in bad.stderr
  roster.write_text("learner,name\nada\n")
  bad = cli("export-grades", out, "--format", "moodle", "--roster", roster)
  assert bad.returncode == 2 and "line 2" in bad.stderr and "Traceback" not in bad.stderr
  example = list(csv.DictReader(open(REPO / "roster.example.csv")))
  assert {"lms_id", "sis_id", "email", "extension_days"} <= set(example[0])
def test_commands_say_what_is_wrong_in_one_line(tmp_path, capsys):
  from autograder.cli import main
  (tmp_path / "empty").mkdir()
  (tmp_path / "roster.csv").write_text("learner,repository\nada,r\n")
  for args in (["grade-all", tmp_path / "nowhere", "--out", tmp_path / "gb"], ["grade-all", tmp_path / "empty", "--out", tmp_path / "gb"],
               ["grade-all", tmp_path / "empty", "--out", tmp_path / "gb", "--shard", "5/4"], ["merge", tmp_path / "nowhere", "--out", tmp_path / "m"],
               ["merge", tmp_path / "empty", "--out", tmp_path / "m"], ["stats", tmp_path / "empty"], ["export-grades", tmp_path / "empty", "--format", "csv"],
               ["similarity", tmp_path / "empty", "--out", tmp_path / "s"], ["similarity", tmp_path / "nowhere", "--out", tmp_path / "s"],
               ["fetch", tmp_path / "roster.csv", tmp_path / "subs"], ["fetch", tmp_path / "nowhere.csv", tmp_path / "subs"]):
    code = main([str(a) for a in args])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("autograder: ") and err.count("\n") == 1, (args, err)
  for command in ("grade-all", "merge", "stats", "export-grades", "similarity"):
    with pytest.raises(SystemExit) as done: main([command, "--help"])
    assert done.value.code == 0 and "usage: autograder " + command in capsys.readouterr().out

FORMULAS = ["=cmd()", "+1+1", "-2+3", "@SUM(A1)", "\t=1+1", "\r=1+1", " =1+1", "\u00a0=1+1", "\uff1d1+1", "\uff0b1", "\uff0d1", "\uff20SUM(A1)",
            "\u200b=1+1", "\u3000\uff1dHYPERLINK(1)"]

def test_exports_quote_formulas_and_keep_identifiers(tmp_path):
  """Issue 33, finding 11: a tab, CR, space, no-break space or full-width = before a formula survived the export, and
  stripping rewrote identifiers (an SIS login -ada became ada: two rows matched one user). Now text is quoted
  (OWASP), identifiers are written as the roster has them, and a learner whose identifier another learner has too is
  left out and named."""
  from autograder.classroom.gradebook import formula_like, spreadsheet_text
  assert all(formula_like(f) and spreadsheet_text(f) == "'" + f for f in FORMULAS)
  assert not any(formula_like(t) for t in ("Lovelace, Ada", "S-1", "ada@example.org", "3.5", " Points Possible", "a=b"))
  names = [f"l{i:02d}" for i in range(len(FORMULAS))]
  out = gradebook(tmp_path / "gb", {n: report({"01_x": {"t": (2, 2, "")}}) for n in names + ["ada", "dup"]})
  roster = tmp_path / "roster.csv"
  with open(roster, "w", newline="") as f:
    w = csv.writer(f); w.writerow(["learner", "repository", "ref", "deadline", "name", "sis_id", "sis_login", "email", "section"])
    for n, formula in zip(names, FORMULAS): w.writerow([n, "r", "main", "2026-12-01T23:59:00+01:00", formula, f"S-{n}", f"login-{n}", f"{n}@x.org", formula])
    w.writerow(["ada", "r", "main", "2026-12-01T23:59:00+01:00", "Ada", "-17", "-ada", "-ada@x.org", "A"])
    w.writerow(["dup", "r", "main", "2026-12-01T23:59:00+01:00", "Dup", "S-dup", "-ada", "dup@x.org", "A"])     # the same login as ada
  done = cli("export-grades", out, "--format", "canvas", "--roster", roster)
  assert done.returncode == 0, done.stderr
  rows = {r[0].lstrip("'"): r for r in list(csv.reader(open(out / "grades-canvas.csv", newline="")))[2:]}
  for formula in FORMULAS: assert rows[formula][0] == "'" + formula and rows[formula][4] == "'" + formula, rows[formula]
  assert rows["Ada"][1:4] == ["", "-17", "-ada"] and "Dup" not in rows                   # identifiers as they are; no user matched twice
  assert "dup: left out, the same SIS Login ID '-ada' (also ada's) would match one user twice" in done.stderr
  assert "ada: note: SIS User ID, SIS Login ID starts like a spreadsheet formula" in done.stderr
  moodle = cli("export-grades", out, "--format", "moodle", "--roster", roster)
  assert moodle.returncode == 0 and ["-17", "-ada@x.org", "2"] in list(csv.reader(open(out / "grades-moodle.csv", newline=""))), moodle.stderr
  (out / "feedback" / "l00" / "report.json").write_text(json.dumps(report({"01_x": {"t": (0, 2, "\u00a0=HYPERLINK(1)")}})))
  rebuild(out)
  assert next(r for r in csv.DictReader(open(out / "tasks.csv")) if r["learner"] == "l00")["message"] == "'\u00a0=HYPERLINK(1)"

def test_one_learner_cannot_stop_the_gradebook(tmp_path):
  """Issue 33, finding 3: a committer time zone of +9959 (git fsck --strict accepts it) made grade-all and merge exit 2
  with no gradebook for anyone, naming no learner. A learner's unreadable date, report or fetch record is now that
  learner's row; a time that cannot be read is counted as late as the policy allows, and said so."""
  full = report({"01_x": {"t": (2, 2, "")}})
  fetched = {"ada": {"commit": "a" * 40, "committed_at": "2023-11-19T02:12:20+99:59", "due": "2026-12-01T23:59:00+01:00"},
             "bob": {"commit": "b" * 40, "committed_at": "2026-11-30T10:00:00+01:00", "due": "2026-12-01T23:59:00+01:00"}}
  folder = tmp_path / "gb"
  for name in ("ada", "bob", "cyd", "dee", "eve"): (folder / "feedback" / name).mkdir(parents=True)
  gradebook(folder, {"ada": full, "bob": full, "dee": full}, fetched)
  (folder / "feedback" / "cyd" / "report.json").write_text("[1, 2")                                  # unreadable
  (folder / "feedback" / "dee" / "fetched.json").write_text("{oops")
  (folder / "feedback" / "eve" / "report.json").write_text(json.dumps({"modules": [{"module": "01_x"}]}))   # not a report
  (tmp_path / "grading.toml").write_text("[late]\nwindow_days = 3\npercent_per_day = 10\nmax_percent = 30\n")
  done = cli("merge", folder, "--out", tmp_path / "merged", "--policy", tmp_path / "grading.toml")
  assert done.returncode == 0, done.stderr
  rows = {r["learner"]: r for r in csv.DictReader(open(tmp_path / "merged/gradebook.csv"))}
  assert set(rows) == {"ada", "bob", "cyd", "dee", "eve"}
  assert float(rows["bob"]["score"]) == 2 and float(rows["ada"]["late_percent"]) == 30 and float(rows["ada"]["score"]) == 1.4
  assert "cannot be read, so lateness is unknown" in rows["ada"]["flags"]
  assert rows["cyd"]["status"] == rows["eve"]["status"] == "grader_error" and "report.json" in rows["cyd"]["flags"]
  assert float(rows["dee"]["score"]) == 1.4 and "fetched.json cannot be read" in rows["dee"]["flags"] and "holds no time" in rows["dee"]["flags"]
  assert "grader errors for 2 learner(s): cyd, eve" in done.stderr
  assert cli("stats", tmp_path / "merged").returncode == 0
  assert cli("export-grades", tmp_path / "merged", "--format", "csv").returncode == 0

def test_a_name_or_text_no_file_can_hold_is_written_escaped(tmp_path):
  """A learner folder whose name is not UTF-8 (the gradebook ended with a UnicodeEncodeError, for everyone) is shown
  with \\x escapes and its rows say why; a lone surrogate in a report's message is written escaped, not the end."""
  import os
  from autograder.classroom.gradebook import NAME_NOTE
  odd = os.fsdecode(b"caf\xe9")
  folder = gradebook(tmp_path / "gb", {"ada": report({"01_x": {"t": (1, 2, "got \udcff")}}), odd: report({"01_x": {"t": (2, 2, "")}})})
  with open(folder / "gradebook.csv", newline="", encoding="utf-8") as f: rows = list(csv.DictReader(f))
  assert [(r["learner"], r["score"], r["flags"]) for r in rows] == [("ada", "1.0", ""), ("caf\\xe9", "2.0", NAME_NOTE)]
  assert json.loads((folder / "gradebook.json").read_text())[1]["learner"] == "caf\\xe9"
  assert "got \\udcff" in (folder / "tasks.csv").read_text(encoding="utf-8")
