"""The class leaderboard (issue 45 item 4): figures a test records with record_metric reach the grading report, and
`autograder leaderboard` ranks them; a metric never changes a score."""
import json
import pytest
from autograder.classroom.leaderboard import board, entries, leaderboard, pseudonym
from autograder.core.results import Observation, TestStatus
from autograder.core.verdict import metrics
from autograder.notebook.checks import record_metric
from autograder.notebook.compare import compare, strong
from classes import cli

def report(value, status="passed"):
  return {"score": 1, "max_score": 1, "modules": [{"module": "12_llm_inference", "status": "graded", "score": 1, "max_score": 1, "message": "",
          "tests": [{"id": "test_fast_decoder", "status": status, "score": 1, "max_score": 1, "message": "",
                     **({"metrics": {"speed-up against the reference": value}} if value is not None else {})}]}]}

def write(folder, reports):
  for name, r in reports.items():
    (folder / "feedback" / name).mkdir(parents=True)
    (folder / "feedback" / name / "report.json").write_text(json.dumps(r))

def test_a_metric_is_never_a_verdict_and_never_strong():
  record_metric(1.7, "speed-up")                           # inline: records nothing, fails nothing
  assert compare("metric", 0.1, 5.0) is None and not strong("metric", 2.718281828)

def test_the_grader_keeps_the_learners_figures_under_the_references_names():
  ref = [Observation("c:1:1", 0, "metric", "speed-up", 1.0), Observation("c:2:1", 0, "equal", "tokens", [1, 2])]
  got = [Observation("c:1:1", 0, "metric", "<b>mine</b>", 3.5), Observation("c:2:1", 0, "equal", "tokens", [1, 2])]
  assert metrics(ref, got) == {"speed-up": 3.5}
  assert metrics(ref, [Observation("c:1:1", 0, "metric", "x", float("nan"))]) is None and metrics(ref[1:], got[1:]) is None
  assert metrics(ref, [Observation("c:1:1", 0, "metric", "x", "fast")]) is None           # only numbers

def test_the_board_ranks_passed_tests_by_value_and_lists_the_others_unranked(tmp_path):
  write(tmp_path, {"ada": report(2.5), "bob": report(4.0, "failed"), "cyd": report(1.25), "dee": report(None)})
  rows = leaderboard(tmp_path)
  assert [(r["rank"], r["learner"], r["value"], r["status"]) for r in rows] == [(1, "ada", 2.5, "passed"), (2, "cyd", 1.25, "passed"), ("", "bob", 4.0, "failed")]
  assert (tmp_path / "leaderboard.csv").read_text().splitlines()[0] == "rank,learner,module,test,metric,value,status"
  assert "| 1 | `ada` | `test_fast_decoder` | 2.5 | passed |" in (tmp_path / "leaderboard.md").read_text()
  anon = board(entries(tmp_path), module="12", anonymous=True)
  assert anon[0]["learner"] == pseudonym("ada") != pseudonym("cyd") and board(entries(tmp_path), module="10") == []

def test_the_command(tmp_path):
  write(tmp_path, {"ada": report(2.5), "cyd": report(1.25)})
  done = cli("leaderboard", tmp_path, "--top", "1")
  assert done.returncode == 0 and "  1. ada" in done.stdout and "cyd" not in done.stdout.splitlines()[0], done.stdout
  assert cli("leaderboard", tmp_path / "nowhere").returncode == 2

@pytest.mark.slow                 # over 4 s: the fast tier stays under 2 minutes (make test runs it)
def test_a_metric_travels_from_a_test_cell_to_the_report(tmp_path):
  """A toy test that records double(21) / 21 as a metric: graded, the report holds the learner's figure; the score is
  the test's checks' alone."""
  from toy_course import answer, write_toy_course
  source = write_toy_course(tmp_path, modules=("01_toy",))
  answer(source, "test_double", "from autograder import record_metric\ncheck_equal(double(2), 4, name='double(2)')\nrecord_metric(double(21) / 21, 'twice')")
  mine = tmp_path / "mine"
  import shutil; shutil.copytree(source, mine)
  answer(mine, "ans_double", "def double(x):\n    return 3 * x if x > 2 else 2 * x")
  done = cli("grade", mine, "--source", source, "--modules", "01", "--json", tmp_path / "r.json", "--quiet")
  assert done.returncode == 0, done.stderr[-2000:]
  test = next(t for t in json.loads((tmp_path / "r.json").read_text())["modules"][0]["tests"] if t["id"] == "test_double")
  assert test["status"] == "passed" and test["metrics"] == {"twice": 3.0}
