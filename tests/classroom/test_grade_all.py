"""Class-size grading on the toy course: one learner's crash, timeout or garbage does not touch another's result; the
gradebook and feedback are right and safe; an interrupted run resumes instead of starting over. Below, grade_all.py on
its own, no grading: the loop with each learner's child stood in for (reports written, errors, resume, fetch records,
a shard), the child's command and what it leaves, learners, the submission's fingerprint, the summary (pinned)."""
import csv
import shutil
import json
import os
import signal
import subprocess
import sys
import time
import pytest
from autograder.core.module import Module, modules_of
from autograder.core.results import ReferenceRun, Report, from_json, to_json
from autograder.grading.feedback import markdown, html_page
from classes import learner
from toy_course import write_toy_course

def grade_all(source, submissions, out, *extra):
  return subprocess.run([sys.executable, "-m", "autograder.cli", "grade-all", str(submissions), "--source", str(source), "--out", str(out),
                         "--jobs", "2", *extra], capture_output=True, text=True, timeout=600)

@pytest.fixture
def classroom(tmp_path):
  source = write_toy_course(tmp_path, cell_timeout=5)      # dee's endless loop waits out a cell's limit: 5 s, not the toy's 10
  subs = tmp_path / "submissions"
  learner(subs, source, "ada")                                                              # solved
  learner(subs, source, "bob", {"01_toy": {"ans_double": "def double(x):\n    return x + 2"}})   # partly
  learner(subs, source, "cyd", broken=True)                                                  # garbage
  learner(subs, source, "dee", {"01_toy": {"ans_double": "import os\nos._exit(1)"}, "02_toy": {"ans_square": "while True: pass"}})  # hostile
  return source, subs, tmp_path / "gradebook"

def book(out) -> dict:
  rows = list(csv.DictReader(open(out / "gradebook.csv")))
  return {(r["learner"], r["module"]): (float(r["score"]), r["status"]) for r in rows}

@pytest.mark.slow                 # over 4 s: the fast tier stays under 2 minutes (make test runs it)
def test_a_class_is_graded_into_a_gradebook_and_feedback(classroom):
  source, subs, out = classroom
  done = grade_all(source, subs, out, "--require-sandbox", "--summary", str(out.parent / "summary.md"))    # as the class workflow runs it
  assert done.returncode == 0, done.stderr[-2000:]
  assert "| `ada` | 5/5 | 5/5 | 10/10 |" in (out.parent / "summary.md").read_text()
  b = book(out)
  assert b[("ada", "01_toy")] == (5.0, "graded") and b[("ada", "02_toy")] == (5.0, "graded")
  assert b[("bob", "01_toy")] == (3.0, "graded") and b[("bob", "02_toy")] == (5.0, "graded")
  assert b[("cyd", "01_toy")] == (0.0, "unreadable") and b[("cyd", "02_toy")] == (5.0, "graded")
  assert b[("dee", "01_toy")][1] == "kernel_died" and b[("dee", "02_toy")] == (2.0, "timeout")
  assert json.loads((out / "gradebook.json").read_text())[0]["learner"] == "ada"
  fb = (out / "feedback" / "bob" / "feedback.md").read_text()
  assert "test_double" in fb and "double(2): expected 4, got 4" not in fb and "failed" in fb
  assert (out / "feedback" / "bob" / "feedback.html").read_text().startswith("<!doctype html>")
  again = grade_all(source, subs, out)
  assert "graded 0 learner(s), kept 4 unchanged" in again.stdout

def test_grading_refuses_to_run_unsandboxed_when_asked(tmp_path, monkeypatch):
  """The class workflow passes --require-sandbox: without bubblewrap it stops before any learner's code runs."""
  source = write_toy_course(tmp_path)
  learner(tmp_path / "submissions", source, "ada")
  monkeypatch.setenv("AUTOGRADER_SANDBOX", "off")
  done = grade_all(source, tmp_path / "submissions", tmp_path / "gradebook", "--require-sandbox")
  assert done.returncode == 2 and "refusing to grade: the sandbox is not available" in done.stderr
  assert not (tmp_path / "gradebook").exists()

@pytest.mark.slow                 # over 4 s: the fast tier stays under 2 minutes (make test runs it)
def test_an_interrupted_run_resumes(classroom):
  source, subs, out = classroom
  # a slow learner second in line: the interrupt lands while there is work left, however loaded the machine
  learner(subs, source, "ado", {"01_toy": {"ans_double": "import time\ntime.sleep(3)\ndef double(x):\n    return 2 * x"}})
  proc = subprocess.Popen([sys.executable, "-m", "autograder.cli", "grade-all", str(subs), "--source", str(source), "--out", str(out), "--jobs", "1"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          # as from a terminal: a library in this test process may have left SIGINT ignored, which a child inherits
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
  deadline = time.monotonic() + 300
  while time.monotonic() < deadline and not list((out / "feedback").glob("*/submission.sha256")): time.sleep(0.1)
  proc.send_signal(signal.SIGINT)
  _, err = proc.communicate(timeout=120)
  assert proc.returncode == 130, err[-1000:]
  kept = len(list((out / "feedback").glob("*/submission.sha256")))
  assert 1 <= kept < 5 and (out / "gradebook.csv").is_file()
  done = grade_all(source, subs, out)
  assert f"kept {kept} unchanged" in done.stdout and len(book(out)) == 10

def test_feedback_shows_hints_and_never_secrets():
  report = {"score": 0, "max_score": 2, "modules": [{"module": "01_x", "score": 0, "max_score": 2, "status": "graded", "message": "",
            "tests": [{"id": "test_a", "task": "Task 1.1", "status": "failed", "score": 0, "max_score": 2,
                       "message": "a[3]: got 7 <img src=x onerror=alert(1)>", "hint": "remember `dtype`"}]}]}
  md, page = markdown(from_json(Report, report), "ada"), html_page(from_json(Report, report), "ada")
  assert "Hint:" in md and "remember" in md and "Task 1.1" in md
  assert "<img" not in page and "<img" not in md and "onerror" in page      # the text stays, inert

@pytest.mark.slow                 # over 4 s: the fast tier stays under 2 minutes (make test runs it)
def test_grade_all_exits_nonzero_and_names_a_learner_whose_grading_failed(tmp_path):
  """Issue 33, finding 4: grade-all exited 0 with a learner at grader_error. Now it names them and exits 1 (the
  gradebook is written all the same), and a report left by an earlier run never stands for a run that did not finish."""
  source = write_toy_course(tmp_path)
  subs, out = tmp_path / "submissions", tmp_path / "gradebook"
  learner(subs, source, "ada")
  first = grade_all(source, subs, out, "--modules", "01")
  assert first.returncode == 0 and book(out)[("ada", "01_toy")] == (5.0, "graded"), first.stderr[-2000:]
  learner(tmp_path / "again", source, "ada", {"01_toy": {"ans_double": "def double(x):\n    return x + x"}})
  shutil.rmtree(subs / "ada"); shutil.move(tmp_path / "again" / "ada", subs / "ada")          # a changed submission: graded again
  done = grade_all(source, subs, out, "--modules", "01", "--timeout", "1")                      # ... and cut short
  assert done.returncode == 1 and "grader errors for 1 learner(s): ada" in done.stderr, (done.returncode, done.stderr[-2000:])
  assert book(out)[("ada", "")] == (0.0, "grader_error")                                         # not the earlier 5/5

# ---- grade_all.py on its own: no grading (the reference run and each learner's child process stood in for) ----------

def report_of(score:float) -> dict:
  return {"score": score, "max_score": 2, "modules": [{"module": "01_toy", "status": "graded", "message": "", "flags": [], "score": score,
          "max_score": 2, "seconds": 1.0, "tests": [{"id": "test_double", "task": "", "status": "passed" if score == 2 else "failed",
          "score": score, "max_score": 2, "message": "" if score == 2 else "double(2): expected 4, got 5"}]}]}

class Children:
  """_grade_one as grade_all sees it: the child writes report.json (as `grade --json` does) or leaves nothing; a name in
  `raises` makes the thread raise. Records who was graded."""
  def __init__(self, reports:dict, raises=()): self.reports, self.raises, self.graded = reports, set(raises), []
  def __call__(self, learner, out, modules, timeout, running):
    self.graded.append(learner.name)
    if learner.name in self.raises: raise RuntimeError("boom")
    report = self.reports[learner.name]
    if not report.get("error"): (out / "report.json").write_text(json.dumps(report))
    return from_json(Report, report)

@pytest.fixture
def toy_class(tmp_path, monkeypatch):
  """The toy course (one module), learners ada, bob and cyd with their notebooks, a hidden folder and a file; the
  reference runs stood in for."""
  import autograder.classroom.grade_all as ga
  source = write_toy_course(tmp_path, modules=("01_toy",))
  subs = tmp_path / "submissions"
  for name in ("ada", "bob", "cyd"): learner(subs, source, name)
  (subs / ".cache").mkdir(); (subs / "notes.txt").write_text("not a learner")
  (subs / "fetched.csv").write_text("learner,commit,committed_at,due,ref,submitted_at,basis,note\n"
                                    f"ada,{'a' * 40},2026-12-01T10:00:00+00:00,2026-12-01T23:59:00+00:00,refs/heads/main,,committer date,\n")
  monkeypatch.setattr(ga, "reference", lambda module, **kw: ReferenceRun())
  return ga, source, subs, tmp_path / "out"

def test_grade_all_grades_each_learner_writes_what_it_got_and_resumes(toy_class, monkeypatch):
  ga, source, subs, out = toy_class
  children = Children({"ada": report_of(2), "bob": {"score": 0.0, "max_score": 0.0, "modules": [], "error": "grading bob did not finish (exit code -9)"}},
                      raises={"cyd"})
  monkeypatch.setattr(ga, "_grade_one", children)
  done = ga.grade_all(subs, out, modules_of(source), jobs=2)
  assert sorted(children.graded) == ["ada", "bob", "cyd"]
  assert {k: v for k, v in done.items() if k != "seconds"} == {"graded": 3, "skipped": 0, "learners": 3, "unused_overrides": [], "errors": ["bob", "cyd"]}
  files = lambda name: sorted(p.name for p in (out / "feedback" / name).iterdir())
  assert files("ada") == ["feedback.html", "feedback.md", "fetched.json", "report.json", "submission.sha256"]
  assert files("bob") == files("cyd") == ["feedback.html", "feedback.md", "report.json"]           # no stamp: graded again next time
  assert json.loads((out / "feedback/ada/fetched.json").read_text()) == {"commit": "a" * 40, "committed_at": "2026-12-01T10:00:00+00:00",
         "due": "2026-12-01T23:59:00+00:00", "ref": "refs/heads/main", "basis": "committer date"}
  assert json.loads((out / "feedback/cyd/report.json").read_text())["error"] == "grading cyd failed in grade-all (RuntimeError)"
  assert (out / "fingerprints.json").is_file() and book(out) == {("ada", "01_toy"): (2.0, "graded"), ("bob", ""): (0.0, "grader_error"),
                                                                 ("cyd", ""): (0.0, "grader_error")}
  again = Children({"ada": report_of(0), "bob": report_of(1), "cyd": report_of(2)})
  monkeypatch.setattr(ga, "_grade_one", again)
  (subs / "fetched.csv").write_text("learner,commit\n")                          # fetch ran again and recorded nobody
  done = ga.grade_all(subs, out, modules_of(source))
  assert sorted(again.graded) == ["bob", "cyd"] and (done["graded"], done["skipped"], done["errors"]) == (2, 1, [])
  assert not (out / "feedback/ada/fetched.json").exists() and book(out)[("ada", "01_toy")] == (2.0, "graded")
  nb = subs / "ada" / "projects" / "01_toy" / "01_toy.ipynb"
  nb.write_text(nb.read_text() + " ")                                             # a changed submission is graded again
  third = Children({"ada": report_of(0)})
  monkeypatch.setattr(ga, "_grade_one", third)
  assert ga.grade_all(subs, out, modules_of(source))["graded"] == 1 and third.graded == ["ada"] and book(out)[("ada", "01_toy")] == (0.0, "graded")

def test_grade_all_of_a_shard_grades_that_shards_learners(toy_class, monkeypatch):
  ga, source, subs, out = toy_class
  from autograder.classroom.shard import shard_of
  children = Children({n: report_of(2) for n in ("ada", "bob", "cyd")})
  monkeypatch.setattr(ga, "_grade_one", children)
  mine = sorted(n for n in ("ada", "bob", "cyd") if shard_of(n, 2) == 1)
  done = ga.grade_all(subs, out, modules_of(source), shard=(1, 2))
  assert sorted(children.graded) == mine == sorted(p.name for p in (out / "feedback").iterdir()) and done["learners"] == len(mine) > 0

def test_reference_only_and_refusals_write_nothing(toy_class, tmp_path):
  ga, source, subs, out = toy_class
  assert ga.grade_all(subs, out, modules_of(source), reference_only=True) == {"graded": 0, "skipped": 0, "learners": 0, "seconds": 0.0,
                                                                      "unused_overrides": [], "errors": []}
  assert not out.exists()
  (tmp_path / "empty").mkdir()
  with pytest.raises(ga.GradebookError, match="no learner folder in it"): ga.grade_all(tmp_path / "empty", out, modules_of(source))
  with pytest.raises(ga.GradebookError, match="no such folder"): ga.grade_all(tmp_path / "nowhere", out, modules_of(source))
  assert not out.exists()

CHILD = """import json, sys, time
args = sys.argv[1:]
open(args[args.index('--json') + 1] + '.argv', 'w').write(json.dumps(args))
if 'slow' in args[args.index('grade') + 1]: time.sleep(60)
if 'quiet' in args[args.index('grade') + 1]: sys.exit(3)
open(args[args.index('--json') + 1], 'w').write(json.dumps({"score": 1, "max_score": 2, "modules": []}))
"""

def test_grade_one_runs_a_child_and_reads_what_it_left(tmp_path, monkeypatch):
  import subprocess as sp
  import autograder.classroom.grade_all as ga
  real = sp.Popen
  monkeypatch.setattr(sp, "Popen", lambda cmd, **kw: real([sys.executable, "-c", CHILD, *cmd[1:]], **kw))     # the child stood in for
  for name in ("ada", "quiet", "slow"): (tmp_path / "subs" / name / "projects").mkdir(parents=True)
  running = {}
  out = tmp_path / "out" / "ada"
  got = ga._grade_one(tmp_path / "subs" / "ada", out, [Module("01_toy", tmp_path / "src")], 30, running)
  assert to_json(got) == {"score": 1, "max_score": 2, "modules": []} and running == {}
  assert json.loads((out / "report.json.argv").read_text()) == ["-m", "autograder.cli", "grade", str(tmp_path / "subs/ada/projects"), "--source",
                                                               str(tmp_path / "src"), "--json", str(out / "report.json"), "--quiet", "--modules", "01_toy"]
  out = tmp_path / "out" / "quiet"
  out.mkdir(parents=True); (out / "report.json").write_text('{"score": 2, "max_score": 2, "modules": []}')    # an earlier run's
  assert to_json(ga._grade_one(tmp_path / "subs" / "quiet", out, [Module("01_toy", tmp_path / "src")], 30, running)) == {
    "score": 0.0, "max_score": 0.0, "modules": [], "error": "grading quiet did not finish (exit code 3)"}
  slow = ga._grade_one(tmp_path / "subs" / "slow", tmp_path / "out" / "slow", [Module("01_toy", tmp_path / "src")], 0.5, running)
  assert slow.error.startswith("grading slow did not finish (exit code ") and running == {}

def test_a_child_killed_at_the_timeout_has_an_exit_code(tmp_path, monkeypatch):
  import subprocess as sp
  import autograder.classroom.grade_all as ga
  real = sp.Popen
  monkeypatch.setattr(sp, "Popen", lambda cmd, **kw: real([sys.executable, "-c", CHILD, *cmd[1:]], **kw))
  (tmp_path / "subs" / "slow").mkdir(parents=True)
  got = ga._grade_one(tmp_path / "subs" / "slow", tmp_path / "out", [Module("01_toy", tmp_path / "src")], 0.5, {})
  assert got.error == "grading slow did not finish (exit code -9: stopped at its 0.5 s limit)", got      # reaped: no zombie, a code
  (tmp_path / "subs" / os.fsdecode(b"slow\xff")).mkdir()
  got = ga._grade_one(tmp_path / "subs" / os.fsdecode(b"slow\xff"), tmp_path / "out2", [Module("01_toy", tmp_path / "src")], 0.5, {})
  assert got.error == "grading slow\\xff did not finish (exit code -9: stopped at its 0.5 s limit)"   # a name no report could hold: shown

def test_learners_and_their_submission_folder(tmp_path):
  import autograder.classroom.grade_all as ga
  for name in ("bob", "ada", ".git", os.fsdecode(b"caf\xe9")): (tmp_path / name).mkdir()
  (tmp_path / "zed.txt").write_text("")
  (tmp_path / "alias").symlink_to(tmp_path / "ada")
  assert [p.name for p in ga.learners(tmp_path)] == ["ada", "alias", "bob", os.fsdecode(b"caf\xe9")]
  assert ga.learners(tmp_path / "nowhere") == [] and ga.learners(tmp_path / "zed.txt") == []
  assert ga.submission_root(tmp_path / "ada") == tmp_path / "ada"                # a bare folder of modules
  (tmp_path / "ada" / "projects").mkdir()
  assert ga.submission_root(tmp_path / "ada") == tmp_path / "ada" / "projects"
  (tmp_path / "bob" / "projects").symlink_to(tmp_path / "ada" / "projects")
  assert ga.submission_root(tmp_path / "bob") == tmp_path / "bob"                # a linked projects/ is not taken

def test_the_fingerprint_of_a_submission_is_what_grading_reads(tmp_path):
  """The stamp of grade-all's resume hashes assemble.read_submission's reading (Submission.digest): a byte of a file
  grading reads changes it, a file grading does not read does not, a link is never followed."""
  from autograder.classroom.grade_all import fingerprint
  source = write_toy_course(tmp_path, answer_file=True)
  one, both = modules_of(source, ["01_toy"]), modules_of(source)
  subs = tmp_path / "subs"
  shutil.copytree(source, subs)
  (tmp_path / "outside.txt").write_text("secret")
  first = fingerprint(subs, one, "course")
  assert first == fingerprint(subs, one, "course") and len(first) == 64
  assert first != fingerprint(subs, one, "course v2") and first != fingerprint(subs, both, "course")     # the course; another module
  (subs / "01_toy" / "notes.txt").write_text("n"); (subs / "01_toy" / "sub").mkdir(); (subs / "01_toy" / "sub" / "a.py").write_text("a")
  (subs / "notes.txt").write_text("n"); (subs / "01_toy" / os.fsdecode(b"caf\xe9.py")).write_text("x")
  assert fingerprint(subs, one, "course") == first                                # files grading does not read: no change
  for name in ("01_toy.ipynb", "helper.py", "hints_opened.json"):                 # a byte of a file grading reads
    path = subs / "01_toy" / name
    keep = path.read_bytes() if path.exists() else None
    path.write_bytes((keep or b"") + b" ")
    assert fingerprint(subs, one, "course") != first, name
    path.write_bytes(keep) if keep is not None else path.unlink()
    assert fingerprint(subs, one, "course") == first
  helper = subs / "01_toy" / "helper.py"
  helper.unlink(); helper.symlink_to(tmp_path / "outside.txt")
  linked = fingerprint(subs, one, "course")
  (tmp_path / "outside.txt").write_text("changed")
  assert linked != first and fingerprint(subs, one, "course") == linked          # a link: not read, never followed
  (tmp_path / "elsewhere").mkdir(); shutil.move(subs / "02_toy", tmp_path / "elsewhere" / "02_toy")
  (subs / "02_toy").symlink_to(tmp_path / "elsewhere" / "02_toy", target_is_directory=True)
  linked = fingerprint(subs, both, "course")
  (tmp_path / "elsewhere" / "02_toy" / "02_toy.ipynb").write_text("{}")
  assert fingerprint(subs, both, "course") == linked                              # a linked module folder: never followed

def test_the_fingerprint_covers_a_file_at_the_size_limit_and_no_more(tmp_path, monkeypatch):
  """Grading reads a file of up to MAX_FILE_BYTES, the limit included: the fingerprint changes with every byte of such
  a file (the stale-report attack: a notebook of exactly 64 MiB was not hashed), and not with one over it (not read)."""
  from autograder.classroom.grade_all import fingerprint
  from autograder.core import files
  source = write_toy_course(tmp_path, modules=("01_toy",))
  subs = tmp_path / "subs"; shutil.copytree(source, subs)
  nb = subs / "01_toy" / "01_toy.ipynb"
  monkeypatch.setattr(files, "MAX_FILE_BYTES", nb.stat().st_size + 1)
  at = lambda text: nb.write_bytes(text.ljust(files.MAX_FILE_BYTES))
  text = nb.read_bytes()
  at(text); a = fingerprint(subs, modules_of(source), "c")
  at(text.replace(b"return", b"retorn", 1)); b = fingerprint(subs, modules_of(source), "c")
  nb.write_bytes(text.ljust(files.MAX_FILE_BYTES + 1)); over = fingerprint(subs, modules_of(source), "c")
  nb.write_bytes(text.ljust(files.MAX_FILE_BYTES + 7)); assert fingerprint(subs, modules_of(source), "c") == over
  assert len({a, b, over}) == 3

def test_a_file_named_outside_utf8_does_not_end_the_fingerprint(tmp_path):
  from autograder.classroom.grade_all import fingerprint
  source = write_toy_course(tmp_path, modules=("01_toy",))
  subs = tmp_path / "subs"; shutil.copytree(source, subs)
  (subs / "01_toy" / os.fsdecode(b"caf\xe9.py")).write_text("x")
  assert len(fingerprint(subs, modules_of(source), "course")) == 64

SUMMARY_ROWS = [
  {"learner": "ada", "module": "01_x", "score": 4.5, "max_score": 5, "status": "graded", "flags": "", "raw_score": 5, "late_days": 1, "late_percent": 10, "override": ""},
  {"learner": "ada", "module": "02_y", "score": 3, "max_score": 3, "status": "graded", "flags": "", "raw_score": 3, "late_days": 0, "late_percent": 0, "override": ""},
  {"learner": "bob", "module": "01_x", "score": 0, "max_score": 5, "status": "missing", "flags": "", "raw_score": 0, "late_days": 0, "late_percent": 0, "override": ""},
  {"learner": "cyd", "module": "", "score": 0, "max_score": 0, "status": "grader_error", "flags": "grading cyd did not finish (exit code -9)",
   "raw_score": 0, "late_days": 0, "late_percent": 0, "override": ""},
  {"learner": "dee", "module": "01_x", "score": 2.25, "max_score": 5, "status": "timeout", "flags": "ans_b, line 2: forbidden import",
   "raw_score": 2.25, "late_days": 0, "late_percent": 0, "override": ""},
  {"learner": "dee", "module": "02_y", "score": 1, "max_score": 3, "status": "graded", "flags": "fetch: note", "raw_score": 1, "late_days": 0, "late_percent": 0, "override": ""},
  {"learner": "e`v|e", "module": "02_y", "score": 0.1, "max_score": 3, "status": "graded", "flags": "", "raw_score": 0.1, "late_days": 0, "late_percent": 0, "override": ""}]
SUMMARY = """| learner | 01_x | 02_y | total |
|---|---|---|---|
| `ada` | 4.5/5 | 3/3 | 7.5/8 |
| `bob` | 0/5 (missing) |  | 0/5 |
| `cyd` |  |  | 0/0 (grader_error) ⚑ |
| `dee` | 2.25/5 (timeout) ⚑ | 1/3 ⚑ | 3.25/8 |
| `e'v\\|e` |  | 0.1/3 | 0.1/3 |

⚑: flags for review (see gradebook.csv); they do not change the score.
"""

def test_summary_is_the_gradebook_as_markdown_byte_for_byte(tmp_path):
  from autograder.classroom.grade_all import summary
  (tmp_path / "gradebook.json").write_text(json.dumps(SUMMARY_ROWS, indent=1))
  assert summary(tmp_path) == SUMMARY
  (tmp_path / "gradebook.json").write_text("[]")                                 # (grade-all and merge refuse an empty class first)
  assert summary(tmp_path) == "| learner |  | total |\n|---|---|\n\n⚑: flags for review (see gradebook.csv); they do not change the score.\n"

def test_summary_marks_a_grading_that_did_not_finish(tmp_path):
  from autograder.classroom.grade_all import summary
  (tmp_path / "gradebook.json").write_text(json.dumps(SUMMARY_ROWS))
  line = next(l for l in summary(tmp_path).splitlines() if l.startswith("| `cyd`"))
  assert "grader_error" in line or "⚑" in line
