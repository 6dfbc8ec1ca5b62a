"""The class at scale: shards merge into the gradebook of an unsharded run; the late policy, extensions and overrides;
the item analysis; the LMS files against their documented headers; similarity finds a planted pair and nothing in
the starter. Only the first test grades (the toy course, four learners); the others build gradebooks directly."""
import csv, json, os, shutil, subprocess, sys
from pathlib import Path
import numpy as np, pytest
from autograder.course import REPO
from autograder.gradebook import GradebookError, rebuild, read_overrides
from autograder.late import Policy, days_late, load, parse_time, percent_lost
from autograder.shard import matrix, parse, shard_of, ShardError
from test_classroom import learner
from toy_course import write_toy_course

def cli(*args, cwd=None, env=None):
  return subprocess.run([sys.executable, "-m", "autograder.cli", *map(str, args)], capture_output=True, text=True, timeout=600, cwd=cwd,
                        env={**os.environ, "PYTHONPATH": str(REPO), **(env or {})})

def files(folder:Path) -> dict[str, object]:
  """Every file of a grading folder, report.json without its wall-clock `seconds` (the one thing two runs differ in)."""
  out = {}
  for p in sorted(folder.rglob("*")):
    if not p.is_file(): continue
    rel = str(p.relative_to(folder))
    if p.name == "report.json":
      report = json.loads(p.read_text())
      for m in report.get("modules", []): m.pop("seconds", None)
      out[rel] = report
    else: out[rel] = p.read_bytes()
  return out

def test_shards_merge_into_the_unsharded_gradebook(tmp_path):
  source = write_toy_course(tmp_path)
  subs = tmp_path / "submissions"
  learner(subs, source, "ada")
  learner(subs, source, "bob", {"01_toy": {"ans_double": "def double(x):\n    return x + 2"}})
  learner(subs, source, "cyd", broken=True)
  grade = ["--source", source, "--jobs", "2", "--require-sandbox"]
  ref = cli("grade-all", "submissions", "--out", "gradebook", "--reference-only", *grade, cwd=tmp_path)          # as the prepare job
  assert ref.returncode == 0 and not (tmp_path / "gradebook").exists(), ref.stderr[-2000:]
  whole = cli("grade-all", subs, "--out", tmp_path / "whole", *grade)
  assert whole.returncode == 0, whole.stderr[-2000:]
  assert subprocess.run("tar -cf submissions.tar submissions", shell=True, cwd=tmp_path).returncode == 0
  shards = {name: shard_of(name, 2) for name in ("ada", "bob", "cyd")}
  assert sorted(set(shards.values())) == [1, 2], shards                         # both shards get work with these names
  for k in (1, 2):                                                             # one machine after another, as the matrix does
    machine = tmp_path / f"machine{k}"
    machine.mkdir(); shutil.copy(tmp_path / "submissions.tar", machine)
    assert subprocess.run("tar -xf submissions.tar", shell=True, cwd=machine).returncode == 0
    done = cli("grade-all", "submissions", "--out", "gradebook", "--shard", f"{k}/2", *grade, cwd=machine)
    assert done.returncode == 0, done.stderr[-2000:]
    assert sorted(p.name for p in (machine / "gradebook/feedback").iterdir()) == sorted(n for n, s in shards.items() if s == k)
    (tmp_path / "shards").mkdir(exist_ok=True); shutil.copytree(machine / "gradebook", tmp_path / "shards" / f"shard-{k - 1}")
  merged = subprocess.run(f'{sys.executable} -m autograder.cli merge shards/* --out gradebook --summary summary.md', shell=True, cwd=tmp_path,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
  assert merged.returncode == 0, merged.stderr
  assert files(tmp_path / "gradebook") == files(tmp_path / "whole")
  rows = list(csv.DictReader(open(tmp_path / "gradebook/gradebook.csv")))
  assert {(r["learner"], r["module"]): float(r["score"]) for r in rows} == {("ada", "01_toy"): 5, ("ada", "02_toy"): 5, ("bob", "01_toy"): 3,
         ("bob", "02_toy"): 5, ("cyd", "01_toy"): 0, ("cyd", "02_toy"): 5}
  assert "| `ada` | 5/5 | 5/5 | 10/10 |" in (tmp_path / "summary.md").read_text()
  tasks = list(csv.DictReader(open(tmp_path / "gradebook/tasks.csv")))
  assert len(tasks) == 12 and {t["test"] for t in tasks} == {"test_double", "test_square"}
  bob = next(t for t in tasks if t["learner"] == "bob" and t["module"] == "01_toy" and t["test"] == "test_double")
  assert bob["status"] == "failed" and "got 23" in bob["message"]
  assert "42" not in bob["message"] and "check_equal" not in (tmp_path / "gradebook/tasks.csv").read_text()   # hidden: no expected value, no code
  again = cli("merge", tmp_path / "shards/shard-0", tmp_path / "shards/shard-0", "--out", tmp_path / "twice")
  assert again.returncode == 2 and "is in two shards" in again.stderr and "Traceback" not in again.stderr

def test_shard_assignment_is_stable_and_balanced():
  names = [f"learner{i:03d}" for i in range(300)]
  sizes = [sum(shard_of(n, 4) == k for n in names) for k in (1, 2, 3, 4)]
  assert sum(sizes) == 300 and min(sizes) > 50, sizes
  assert [shard_of(n, 4) for n in names[:50]] == [shard_of(n, 4) for n in sorted(names[:50], reverse=True)][::-1]   # not positional
  assert shard_of("ada", 7) == shard_of("ada", 7) and all(1 <= shard_of(n, 3) <= 3 for n in names)
  assert parse("2/5") == (2, 5) and matrix(3) == ["1/3", "2/3", "3/3"]
  for bad in ("0/3", "4/3", "x", "1-3"):
    with pytest.raises(ShardError): parse(bad)

def test_the_matrix_step_prints_the_shards(tmp_path):
  out = tmp_path / "github_output"
  done = subprocess.run(f'{sys.executable} -m autograder.shard "$SHARDS" >> "$GITHUB_OUTPUT"', shell=True, capture_output=True, text=True,
                        env={**os.environ, "PYTHONPATH": str(REPO), "SHARDS": "3", "GITHUB_OUTPUT": str(out)})
  assert done.returncode == 0 and out.read_text() == 'shards=["1/3", "2/3", "3/3"]\n'

def test_the_reference_cache_is_outside_the_sandbox(tmp_path):
  """The class workflow keeps the reference runs in AUTOGRADER_CACHE under the runner's temporary folder: no path the
  sandbox binds holds it."""
  from autograder import sandbox
  cache = Path(os.environ["AUTOGRADER_CACHE"]).resolve()
  run_dir = tmp_path / "run"; (run_dir / "m").mkdir(parents=True)
  args = sandbox.command(run_dir, run_dir / "m", reads=[REPO / "data"])
  bound = [Path(args[i + 1]).resolve() for i, a in enumerate(args) if a in ("--bind", "--ro-bind", "--dev-bind") and args[i + 1].startswith("/")]
  assert bound and not [b for b in bound if cache == b or cache.is_relative_to(b) and b != Path("/usr")], bound

# ---------------------------------------------------------------------------------------------------------------------
# synthetic gradebooks

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

def test_fetch_records_commit_times_within_the_late_window(tmp_path):
  from test_export import _repo
  from autograder.roster import fetch
  ada = _repo(tmp_path, "ada", [("2026-11-30T10:00:00+00:00", "on time"), ("2026-12-03T10:00:00+00:00", "two days late"), ("2026-12-09T10:00:00+00:00", "too late")])
  bob = _repo(tmp_path, "bob", [("2026-11-30T10:00:00+00:00", "first"), ("2026-12-05T10:00:00+00:00", "within the extension")])
  roster = tmp_path / "roster.csv"
  roster.write_text(f"learner,repository,ref,deadline,extension_days\nada,{ada},main,2026-12-01T23:59:00+00:00,\nbob,{bob},main,2026-12-01T23:59:00+00:00,4\n")
  fetch(roster, tmp_path / "subs", log=lambda *a: None, window_days=3)
  assert (tmp_path / "subs/ada/projects/01_x/answer.txt").read_text() == "two days late"
  assert (tmp_path / "subs/bob/projects/01_x/answer.txt").read_text() == "within the extension"
  rec = {r["learner"]: r for r in csv.DictReader(open(tmp_path / "subs/fetched.csv"))}
  assert rec["ada"]["committed_at"].startswith("2026-12-03T10:00:00") and rec["bob"]["due"] == "2026-12-05T23:59:00+00:00"
  assert days_late(parse_time(rec["ada"]["committed_at"], ""), parse_time(rec["ada"]["due"], "")) == 2
  assert days_late(parse_time(rec["bob"]["committed_at"], ""), parse_time(rec["bob"]["due"], "")) == 0
  fetch(roster, tmp_path / "strict", log=lambda *a: None)                        # no policy: nothing after the due time
  assert (tmp_path / "strict/ada/projects/01_x/answer.txt").read_text() == "on time"

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
  assert canvas[2] == ["Lovelace, Ada", "101", "S-1", "ada1", "A", "2", "1"] and canvas[3][0] == "cmd()"          # no formula reaches a spreadsheet
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

PAIR = '''def double(x):
    """Twice x."""
    total = 0
    for step in range(2):
        total = total + x
    return total

def running_mean(values, width):
    out = []
    window_sum = 0.0
    for index, value in enumerate(values):
        window_sum += value
        if index >= width:
            window_sum -= values[index - width]
        out.append(window_sum / min(index + 1, width))
    return out

def histogram(values, bins, low, high):
    counts = [0] * bins
    size = (high - low) / bins
    for value in values:
        if low <= value < high:
            counts[int((value - low) // size)] += 1
    return counts
'''
RENAMED = '''def hist(xs, n, lo, hi):
    c = [0] * n
    w = (hi - lo) / n
    for v in xs:
        if lo <= v < hi:
            c[int((v - lo) // w)] += 1
    return c

def double(x):
    """Twice x."""
    acc = 0
    for _ in range(2):
        acc = acc + x
    return acc

def smooth(xs, k):
    res = []
    s = 0.0
    for i, v in enumerate(xs):
        s += v
        if i >= k:
            s -= xs[i - k]
        res.append(s / min(i + 1, k))
    return res
'''
OWN = '''def double(x):
    """Twice x."""
    return sum([x, x])

import statistics
def describe(sample):
    ordered = sorted(sample)
    middle = len(ordered) // 2
    return {"median": statistics.median(ordered), "spread": ordered[-1] - ordered[0], "upper": ordered[middle:]}
'''

def test_similarity_finds_the_planted_pair(tmp_path):
  source = write_toy_course(tmp_path)
  starter = tmp_path / "projects"; shutil.copytree(source, starter)           # the toy's release: its answer cells are the stubs
  import nbformat
  from autograder.cells import grade_id, is_answer
  for module in ("01_toy", "02_toy"):
    path = starter / module / f"{module}.ipynb"
    nb = nbformat.read(str(path), as_version=4)
    for c in nb.cells:
      if is_answer(c): c.source = c.source.split("### BEGIN SOLUTION")[0] + "    # YOUR CODE HERE\n    raise NotImplementedError()"
    nbformat.write(nb, str(path))
  subs = tmp_path / "submissions"
  learner(subs, starter, "ada", {"01_toy": {"ans_double": PAIR}})
  learner(subs, starter, "bob", {"01_toy": {"ans_double": RENAMED}})
  learner(subs, starter, "cyd", {"01_toy": {"ans_double": OWN}})
  learner(subs, starter, "dee"); learner(subs, starter, "eve")                 # the starter, untouched
  done = cli("similarity", subs, "--out", tmp_path / "sim", "--source", source, "--starter", starter)
  assert done.returncode == 0, done.stderr
  rows = list(csv.DictReader(open(tmp_path / "sim/similarity.csv")))
  assert (rows[0]["module"], rows[0]["learner_a"], rows[0]["learner_b"]) == ("01_toy", "ada", "bob") and float(rows[0]["similarity"]) > 0.5, rows[:3]
  assert all(float(r["similarity"]) < float(rows[0]["similarity"]) / 2 for r in rows[1:])
  starter_pairs = [r for r in rows if {r["learner_a"], r["learner_b"]} == {"dee", "eve"}]
  assert len(starter_pairs) == 2 and all(float(r["similarity"]) == 0 for r in starter_pairs)             # the starter alone scores nothing
  assert all(float(r["similarity"]) == 0 for r in rows if r["module"] == "02_toy")
  assert (tmp_path / "sim/similarity.html").is_file() and "| 01_toy | ada | bob |" in (tmp_path / "sim/similarity.md").read_text()
  assert "ada and bob on 01_toy" in done.stdout

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
