"""Class-size grading on the toy course: one learner's crash, timeout or garbage does not touch another's result; the
gradebook and feedback are right and safe; an interrupted run resumes instead of starting over."""
import csv
import shutil
import json
import signal
import subprocess
import sys
import time
import pytest
from autograder.core.results import Report, from_json
from autograder.grading.feedback import markdown, html_page
from classes import learner
from toy_course import write_toy_course

def grade_all(source, submissions, out, *extra):
  return subprocess.run([sys.executable, "-m", "autograder.cli", "grade-all", str(submissions), "--source", str(source), "--out", str(out),
                         "--jobs", "2", *extra], capture_output=True, text=True, timeout=600)

@pytest.fixture
def classroom(tmp_path):
  source = write_toy_course(tmp_path)
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
  learner(subs, source, "ado", {"01_toy": {"ans_double": "import time\ntime.sleep(8)\ndef double(x):\n    return 2 * x"}})
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
