"""A mid-term fix on the toy course: a small class graded, a test changed in the source (a tolerance loosened, so a
learner gains; a hidden check added, so another loses), the class regraded, and the diff says exactly that, with the
late policy and the overrides applied as before; the same from shards joined by merge; "unknown" against a gradebook
that kept no fingerprints; and no hidden text in what a gradebook keeps."""
import csv
import json
import shutil
from pathlib import Path
import pytest
from autograder.classroom import changes, fingerprints
from autograder.classroom.gradebook import rebuild
from autograder.classroom.shard import shard_of
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
