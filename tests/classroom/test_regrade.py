"""A mid-term fix on the toy course: a small class graded, a test changed in the source (a tolerance loosened, so a
learner gains; a hidden check added, so another loses), the class regraded, and the diff says exactly that, with the
late policy and the overrides applied as before; the same from shards joined by merge; "unknown" against a gradebook
that kept no fingerprints; and no hidden text in what a gradebook keeps. Below, regrade.py on its own, grade_all stood
in for: what is copied from the earlier folder, what grade_all is asked, the changes written (pinned), a shard, refusals."""
import csv
import json
import shutil
from pathlib import Path
import pytest
from autograder.classroom import changes, fingerprints
from autograder.classroom import regrade as regrade_module
from autograder.classroom.grade_all import learners
from autograder.classroom.gradebook import GradebookError, rebuild
from autograder.classroom.late import Policy
from autograder.classroom.shard import shard_of
from autograder.core.module import Module
from classes import cli, files, learner
from toy_course import answer, write_toy_course

SQUARE_TEST = ("check_close(square(3.0), 9.0, rtol=0, atol={atol}, name='square(3)')\n### BEGIN HIDDEN TESTS\n"
               "check_equal(square(-7), 49, name='square(-7)')\n### END HIDDEN TESTS")
DOUBLE_TEST = ("check_equal(double(2), 4, name='double(2)')\n### BEGIN HIDDEN TESTS\ncheck_equal(double(21), 42, name='double(21)')\n"
               "{more}### END HIDDEN TESTS")
DUE = "2026-12-01T23:59:00+00:00"

def course(source:Path, atol:str, more:str=""):
  answer(source, "setup", "from autograder import check_equal, check, check_close")
  answer(source, "test_square", SQUARE_TEST.format(atol=atol))
  answer(source, "test_double", DOUBLE_TEST.format(more=more))

def rows(path:Path) -> list[dict]:
  return list(csv.DictReader(open(path)))

@pytest.fixture(scope="module")
def term(tmp_path_factory):
  """The class graded against the course as it was (atol 0.01, one hidden check of double), then the course fixed."""
  root = tmp_path_factory.mktemp("term")
  source = write_toy_course(root, modules=("01_toy",))
  course(source, "0.01")
  subs = root / "submissions"
  learner(subs, source, "ada")                                                                    # solved
  learner(subs, source, "bob", {"01_toy": {"ans_square": "def square(x):\n    return x * x + (0.05 if x > 0 else 0)"}})   # 0.05 off on positives
  learner(subs, source, "cyd", {"01_toy": {"ans_double": "def double(x):\n    return abs(x) * 2"}})                      # wrong on negatives
  (subs / "fetched.csv").write_text("learner,commit,committed_at,due\n" + "".join(
    f"{n},{c * 40},{t},{DUE}\n" for n, c, t in [("ada", "a", "2026-12-01T10:00:00+00:00"), ("bob", "b", "2026-12-02T10:00:00+00:00"),   # bob: a day late
                                                ("cyd", "c", "2026-12-01T10:00:00+00:00")]))
  (root / "grading.toml").write_text("[late]\nwindow_days = 3\npercent_per_day = 10\nmax_percent = 30\n")
  (root / "overrides.csv").write_text("learner,module,test,points,note\nada,01,test_square,,looked at by hand: fine\n")
  opts = ["--source", source, "--jobs", "2"]
  first = cli("grade-all", "submissions", "--out", "before", *opts, cwd=root)
  assert first.returncode == 0, first.stderr[-2000:]
  same = cli("regrade", "before", "submissions", "--out", "same", *opts, cwd=root)                # nothing changed: nothing regraded
  assert same.returncode == 0 and "regraded 0 learner(s), kept 3 unchanged" in same.stdout and "0 change(s)" in same.stdout, same.stdout + same.stderr[-2000:]
  course(source, "0.1", "check_equal(double(-3), -6, name='double(-3)')\n")                      # the fix: looser, and one more hidden check
  return root, source, opts

@pytest.mark.slow                 # over 4 s: the fast tier stays under 2 minutes (make test runs it)
def test_a_regrade_says_who_gained_and_lost_and_why(term):
  root, source, opts = term
  done = cli("regrade", "before", "submissions", "--out", "after", *opts, "--summary", "summary.md", cwd=root)
  assert done.returncode == 0, done.stderr[-2000:]
  assert "regraded 3 learner(s)" in done.stdout and "2 change(s) for 2 learner(s)" in done.stdout, done.stdout
  got = {(r["learner"], r["module"], r["test"]): r for r in rows(root / "after/changes.csv")}
  assert set(got) == {("bob", "01_toy", "test_square"), ("cyd", "01_toy", "test_double")}
  bob, cyd = got["bob", "01_toy", "test_square"], got["cyd", "01_toy", "test_double"]
  assert (bob["old_status"], bob["new_status"], float(bob["old_points"]), float(bob["new_points"]), float(bob["change"])) == ("failed", "passed", 0, 3, 3)
  assert bob["reason"] == "the test's visible code changed; a changed tolerance or threshold (visible checks)"
  assert (cyd["old_status"], cyd["new_status"], float(cyd["old_points"]), float(cyd["new_points"]), float(cyd["change"])) == ("passed", "failed", 2, 0, -2)
  assert cyd["reason"] == "the test's hidden code changed; a new hidden check (1 → 2)"
  book = {(r["learner"], r["module"]): r for r in rows(root / "after/gradebook.csv")}
  assert float(book["bob", "01_toy"]["score"]) == 4.5 and book["bob", "01_toy"]["late_percent"] == "10.0"   # the late policy, as before
  ada = next(r for r in rows(root / "after/tasks.csv") if r["learner"] == "ada" and r["test"] == "test_square")
  assert ada["override"] == "looked at by hand: fine"                                              # the overrides, as before
  summary = (root / "after/changes.md").read_text()
  assert "**1 learner gained** points: +2.7 in all, the most `bob` +2.7" in summary          # 3 points, 10% late
  assert "**1 learner lost** points: -2 in all, the most `cyd` -2" in summary and "- 1 unchanged" in summary
  assert "| 01_toy | `test_double` | `Toy module 1` |  | 1 learner, -2 | passed → failed ×1 | `the test's hidden code changed; a new hidden check (1 → 2)` |" in summary, summary
  assert "| `bob` | 1.8/5 | 4.5/5 | +2.7 |" in summary
  assert "## Per test" in (root / "summary.md").read_text() and "| `ada` | 5/5 | 5/5 |" in (root / "summary.md").read_text()

@pytest.mark.slow          # two regrades of a toy class (about 40 s): the full suite runs it
def test_a_sharded_regrade_merges_into_the_unsharded_one(term):
  root, source, opts = term
  assert sorted({shard_of(n, 2) for n in ("ada", "bob", "cyd")}) == [1, 2]
  for k in (1, 2):
    done = cli("regrade", "before", "submissions", "--out", f"shard{k}", "--shard", f"{k}/2", *opts, "--require-sandbox", cwd=root)   # as the workflow
    assert done.returncode == 0, done.stderr[-2000:]
  merged = cli("merge", "shard1", "shard2", "--out", "merged", "--summary", "merged.md", cwd=root)
  assert merged.returncode == 0 and "what the regrade changed" in merged.stdout, merged.stderr
  if not (root / "after/changes.json").is_file():
    assert cli("regrade", "before", "submissions", "--out", "after", *opts, cwd=root).returncode == 0
  assert files(root / "merged") == files(root / "after")
  assert "# What the regrade changed" in (root / "merged.md").read_text()
  mixed = cli("merge", "shard1", "before", "--out", "mixed", cwd=root)
  assert mixed.returncode == 2 and "Traceback" not in mixed.stderr

@pytest.mark.slow          # the class graded by `term` (three toy gradings, about 25 s quiet): the full suite runs it
def test_against_a_gradebook_without_fingerprints_the_reason_is_unknown(term, tmp_path):
  root, source, opts = term
  if not (root / "after/changes.json").is_file():
    assert cli("regrade", "before", "submissions", "--out", "after", *opts, cwd=root).returncode == 0
  old = tmp_path / "old"
  shutil.copytree(root / "before", old)
  (old / "fingerprints.json").unlink()
  found = changes.compare(old, root / "after")
  assert {(r["learner"], r["test"], r["reason"]) for r in found["rows"]} == {("bob", "test_square", "unknown"), ("cyd", "test_double", "unknown")}
  assert "every reason is \"unknown\"" in changes.summary(found)

@pytest.mark.slow          # the class graded by `term` (three toy gradings, about 25 s quiet): the full suite runs it
def test_fingerprints_keep_hashes_and_counts_never_hidden_text(term):
  root, source, opts = term
  text = (root / "before/fingerprints.json").read_text()
  prints = json.loads(text)
  test = prints["modules"]["01_toy"]["tests"]["test_double"]
  assert test["visible"]["checks"] == 1 and test["hidden"]["checks"] == 1 and test["points"] == 2
  for secret in ("double(21)", "square(-7)", "atol", "check_equal"):
    assert secret not in text
  assert prints == fingerprints.read(root / "same")               # the same course, the same fingerprints
  bad = cli("regrade", "nowhere", "submissions", "--out", "x", *opts, cwd=root)
  assert bad.returncode == 2 and "no gradebook.csv" in bad.stderr and "Traceback" not in bad.stderr
  onto = cli("regrade", "before", "submissions", "--out", "before", *opts, cwd=root)
  assert onto.returncode == 2 and "must not be the earlier one" in onto.stderr

def _folder(root:Path, reports:dict) -> Path:
  for name, report in reports.items():
    (root / "feedback" / name).mkdir(parents=True)
    (root / "feedback" / name / "report.json").write_text(json.dumps(report))
  rebuild(root)
  return root

def _report(score:float) -> dict:
  test = {"id": "test_a", "task": "Task 1.1", "status": "passed" if score == 2 else "failed", "score": score, "max_score": 2, "message": ""}
  return {"score": score, "max_score": 2, "modules": [{"module": "01_x", "status": "graded", "message": "", "flags": [], "score": score,
                                                          "max_score": 2, "seconds": 1, "tests": [test]}]}

def test_a_grading_that_did_not_finish_is_one_row_with_its_reason(tmp_path):
  broken = {"score": 0, "max_score": 0, "modules": [], "error": "grading cyd did not finish (exit code -9)"}
  old = _folder(tmp_path / "old", {"ada": _report(2), "cyd": _report(2), "dee": _report(0)})
  new = _folder(tmp_path / "new", {"ada": _report(2), "cyd": broken, "dee": _report(2), "eve": _report(2)})
  found = changes.compare(old, new)
  assert [(r["learner"], r["test"], r["old_status"], r["new_status"], r["change"]) for r in found["rows"]] == \
         [("cyd", "", "graded", "grader_error", -2.0), ("dee", "test_a", "failed", "passed", 2.0)]
  assert found["rows"][0]["reason"] == "the grading did not finish now (see the flags of gradebook.csv)"
  assert found["rows"][1]["reason"] == "unknown" and found["only_after"] == ["eve"] and found["max_total"] == 2
  assert "new since the earlier grading (not compared): `eve`" in changes.summary(found)

# ---- regrade.py on its own: grade_all stood in for (it is tested in test_grade_all.py), the earlier folder as reports ----

CHANGES_CSV = ("learner,module,task,test,old_status,new_status,old_points,new_points,max_points,change,reason\r\n"
               "bob,01_x,Task 1.1,test_a,failed,passed,0.0,2.0,2.0,2.0,unknown\r\n"
               "cyd,01_x,Task 1.1,test_a,passed,failed,2.0,0.0,2.0,-2.0,unknown\r\n")
CHANGES_MD = """# What the regrade changed

3 learners compared on 01_x, final scores (late policy and overrides applied):

- **1 learner gained** points: +2 in all, the most `bob` +2
- **1 learner lost** points: -2 in all, the most `cyd` -2
- 1 unchanged
- new since the earlier grading (not compared): `dee`
- in the earlier grading but not graded now: `eve`

The earlier gradebook kept no record of what it was graded against (fingerprints.json): every reason is "unknown".

## Per test

| module | test | task | gained | lost | status | reason |
|---|---|---|---|---|---|---|
| 01_x | `test_a` | `Task 1.1` | 1 learner, +2 | 1 learner, -2 | failed → passed ×1, passed → failed ×1 | `unknown` |

## Per learner

| learner | before | after | change |
|---|---|---|---|
| `bob` | 0/2 | 2/2 | +2 |
| `cyd` | 2/2 | 0/2 | -2 |

Every change, per learner, module and test, with old and new status and points: `changes.csv`.
"""

class FakeGradeAll:
  """grade_all as the regrade sees it: the learners it finds without a report (or in `regraded`) get `regraded`'s report,
  the others keep the one the regrade copied; then the gradebook. Records its arguments and what it found copied."""
  def __init__(self, regraded:dict): self.regraded, self.calls = regraded, []
  def __call__(self, submissions, out, modules, jobs=2, timeout=3600, log=print, shard=None, policy=Policy(), overrides=()):
    names = [l.name for l in learners(submissions) if shard is None or shard_of(l.name, shard[1]) == shard[0]]
    copied = {n: (out / "feedback" / n / "report.json").read_text() for n in names if (out / "feedback" / n / "report.json").is_file()}
    self.calls.append({"submissions": submissions, "out": out, "modules": modules, "jobs": jobs, "timeout": timeout,
                       "shard": shard, "policy": policy, "overrides": list(overrides), "copied": copied})
    graded = 0
    for n in names:
      if n in self.regraded or n not in copied:
        (out / "feedback" / n).mkdir(parents=True, exist_ok=True)
        (out / "feedback" / n / "report.json").write_text(json.dumps(self.regraded[n])); graded += 1
    built = rebuild(out, names, policy, overrides)
    return {"graded": graded, "skipped": len(names) - graded, "learners": len(names), "seconds": 0.0,
            "unused_overrides": built["unused_overrides"], "errors": built["errors"]}

@pytest.fixture
def earlier(tmp_path):
  """old/: ada 2/2, bob 0/2, cyd 2/2 (her folder a link), eve 2/2; submissions/: ada, bob, cyd, dee and a hidden folder."""
  old = _folder(tmp_path / "old", {"ada": _report(2), "bob": _report(0), "eve": _report(2)})
  elsewhere = _folder(tmp_path / "elsewhere", {"cyd": _report(2)})
  (old / "feedback" / "cyd").symlink_to(elsewhere / "feedback" / "cyd")
  rebuild(old)
  (old / "feedback" / "ada" / "feedback.md").write_text("ada's feedback, kept\n")
  for name in ("ada", "bob", "cyd", "dee", ".git"): (tmp_path / "submissions" / name).mkdir(parents=True)
  return old, tmp_path / "submissions"

def test_regrade_keeps_unchanged_reports_regrades_the_rest_and_writes_the_changes(earlier, tmp_path, monkeypatch):
  old, subs = earlier
  fake = FakeGradeAll({"bob": _report(2), "cyd": _report(0), "dee": _report(2)})
  monkeypatch.setattr(regrade_module, "grade_all", fake)
  overrides = [{"learner": "ada", "module": "01", "test": "", "points": None, "note": "seen", "line": 2}]
  done = regrade_module.regrade(old, subs, tmp_path / "new", [Module("01_x", tmp_path / "solutions")], jobs=3, timeout=60, log=print,
                                policy=Policy(1, 10, 10), overrides=overrides)
  call = fake.calls[0]
  assert (call["submissions"], call["out"], call["modules"], call["jobs"], call["timeout"], call["shard"], call["policy"], call["overrides"]) == \
         (subs, tmp_path / "new", [Module("01_x", tmp_path / "solutions")], 3, 60, None, Policy(1, 10, 10), overrides)
  assert sorted(call["copied"]) == ["ada", "bob"]                                # cyd's earlier folder is a link: not copied
  assert (tmp_path / "new/feedback/ada/feedback.md").read_text() == "ada's feedback, kept\n"
  assert {k: done[k] for k in ("graded", "skipped", "learners")} == {"graded": 3, "skipped": 1, "learners": 4}
  found = done["changes"]
  assert found == json.loads((tmp_path / "new/changes.json").read_text())
  assert (found["learners"], found["only_before"], found["only_after"], found["totals"]) == (
    ["ada", "bob", "cyd"], ["eve"], ["dee"], {"ada": [2.0, 2.0], "bob": [0.0, 2.0], "cyd": [2.0, 0.0]})
  with open(tmp_path / "new/changes.csv", newline="") as f: assert f.read() == CHANGES_CSV
  assert (tmp_path / "new/changes.md").read_text() == CHANGES_MD

def test_a_regrade_of_a_shard_copies_and_compares_that_shards_learners(earlier, tmp_path, monkeypatch):
  old, subs = earlier
  fake = FakeGradeAll({"bob": _report(2), "cyd": _report(0), "dee": _report(2)})
  monkeypatch.setattr(regrade_module, "grade_all", fake)
  for k in (1, 2):
    mine = {n for n in ("ada", "bob", "cyd", "dee", "eve") if shard_of(n, 2) == k}
    done = regrade_module.regrade(old, subs, tmp_path / f"shard{k}", [Module("01_x", tmp_path / "solutions")], shard=(k, 2))
    assert fake.calls[-1]["shard"] == (k, 2) and set(fake.calls[-1]["copied"]) == mine & {"ada", "bob"}
    assert {p.name for p in (tmp_path / f"shard{k}" / "feedback").iterdir()} == mine & {"ada", "bob", "cyd", "dee"}   # no one else's copied
    found = done["changes"]
    assert set(found["learners"]) == mine & {"ada", "bob", "cyd"} and set(found["only_before"]) == mine & {"eve"}
    assert {r["learner"] for r in found["rows"]} == mine & {"bob", "cyd"}

def test_a_report_already_in_the_new_folder_is_not_replaced(earlier, tmp_path, monkeypatch):
  old, subs = earlier
  (tmp_path / "new/feedback/ada").mkdir(parents=True)
  (tmp_path / "new/feedback/ada/report.json").write_text(json.dumps(_report(1)))      # a regrade interrupted after ada
  monkeypatch.setattr(regrade_module, "grade_all", FakeGradeAll({"bob": _report(2), "cyd": _report(0), "dee": _report(2)}))
  done = regrade_module.regrade(old, subs, tmp_path / "new", [Module("01_x", tmp_path / "solutions")])
  assert done["changes"]["totals"]["ada"] == [2.0, 1.0]

@pytest.mark.parametrize("case, message", [("no gradebook", "no gradebook.csv there (the earlier grading folder to compare with)"),
                                           ("same folder", "the new grading folder must not be the earlier one"),
                                           ("no submissions", "nowhere: no such folder")])
def test_what_cannot_be_regraded_is_refused_before_anything_is_written(earlier, tmp_path, monkeypatch, case, message):
  old, subs = earlier
  monkeypatch.setattr(regrade_module, "grade_all", FakeGradeAll({}))
  out = tmp_path / "new"
  if case == "no gradebook": (old / "gradebook.csv").unlink()
  if case == "same folder": out = tmp_path / "old" / "."
  if case == "no submissions": subs = tmp_path / "nowhere"
  with pytest.raises(GradebookError) as e: regrade_module.regrade(old, subs, out, [Module("01_x", tmp_path / "solutions")])
  assert message in str(e.value) and not (tmp_path / "new").exists() and not (old / "changes.json").exists()
