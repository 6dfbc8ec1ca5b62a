"""classroom/stats.py on its own: a grading folder holding a tasks.csv as grade-all writes it (five learners, a task of
two tests, a test without a task, a module everyone solved), and item-analysis.csv and item-analysis.md, byte for
byte; the two discrimination indices against their definitions; an empty class."""
import statistics
import pytest
from autograder.classroom.gradebook import GradebookError
from autograder.classroom.stats import analyse, correlation, picture, stats, upper_lower

GRADEBOOK = ("learner,module,score,max_score,status,flags,raw_score,late_days,late_percent,override\n"
             "ada,01_x,7,7,graded,,7,0,0,\n")
TASKS = """learner,module,task,test,status,score,max_score,message,override
ada,01_x,Task 1.1,test_a,passed,2,2,,
ada,01_x,Task 1.1,test_b,passed,1,1,,
ada,01_x,Task 1.2,test_c,passed,3,3,,
ada,01_x,,test_d,passed,1,1,,
bob,01_x,Task 1.1,test_a,failed,0,2,a[0]: got 3 | want `2`,
bob,01_x,Task 1.1,test_b,passed,1,1,,
bob,01_x,Task 1.2,test_c,failed,1.5,3,too slow,
bob,01_x,,test_d,passed,1,1,,
cyd,01_x,Task 1.1,test_a,failed,0,2,a[0]: got 3 | want `2`,
cyd,01_x,Task 1.1,test_b,failed,0,1,NotImplementedError: not attempted (f),
cyd,01_x,Task 1.2,test_c,passed,3,3,,
cyd,01_x,,test_d,failed,0,1,'=1+1,
dee,01_x,Task 1.1,test_a,error,0,2,NotImplementedError: not attempted (f),
dee,01_x,Task 1.1,test_b,error,0,1,NotImplementedError: not attempted (f),
dee,01_x,Task 1.2,test_c,error,0,3,NotImplementedError: not attempted (g),
dee,01_x,,test_d,failed,0,1,'=1+1,
eve,01_x,Task 1.1,test_a,passed,2,2,,
eve,01_x,Task 1.1,test_b,passed,1,1,,
eve,01_x,Task 1.2,test_c,failed,0,3,too slow,
eve,01_x,,test_d,passed,1,1,,looked at
ada,02_y,Task 2.1,test_e,passed,1,1,,
bob,02_y,Task 2.1,test_e,passed,1,1,,
"""

CSV = """module,task,tests,points,learners,full,partial,none,mean,item_rest,upper_lower,common_failure,failure_count
01_x,Task 1.1,2,3.0,5,0.4,0.2,0.4,0.467,0.289,1.0,NotImplementedError: not attempted (f),3
01_x,Task 1.2,1,3.0,5,0.4,0.2,0.4,0.5,0.0,1.0,too slow,2
01_x,test_d,1,1.0,5,0.6,0.0,0.4,0.6,0.599,1.0,'=1+1,2
02_y,Task 2.1,1,1.0,2,1.0,0.0,0.0,1.0,,,,0
"""

MARKDOWN = """# Item analysis

![tasks sorted by difficulty](item-analysis.png)

Per task: full / partial / none, the mean share of its points, the correlation with the rest of the module (`item_rest`: below 0.2 the task barely separates strong from weak learners) and the top-minus-bottom-quarter difference; the table as CSV: [item-analysis.csv](item-analysis.csv).

| module | task | points | full | partial | none | mean | item_rest | upper_lower | most common failure |
|---|---|---|---|---|---|---|---|---|---|
| 01_x | `Task 1.1` | 3 | 40% | 20% | 40% | 47% | 0.289 | 1.0 | `NotImplementedError: not attempted (f)` (3) |
| 01_x | `Task 1.2` | 3 | 40% | 20% | 40% | 50% | 0.0 | 1.0 | `too slow` (2) |
| 01_x | `test_d` | 1 | 60% | 0% | 40% | 60% | 0.599 | 1.0 | `'=1+1` (2) |
| 02_y | `Task 2.1` | 1 | 100% | 0% | 0% | 100% |  |  |  |
"""

@pytest.fixture
def graded(tmp_path):
  (tmp_path / "gradebook.csv").write_text(GRADEBOOK)
  (tmp_path / "tasks.csv").write_text(TASKS)
  return tmp_path

def test_stats_writes_the_item_analysis_byte_for_byte(graded, tmp_path_factory):
  rows = stats(graded)
  assert [(r["module"], r["task"], r["common_failure"]) for r in rows] == [("01_x", "Task 1.1", "NotImplementedError: not attempted (f)"),
         ("01_x", "Task 1.2", "too slow"), ("01_x", "test_d", "'=1+1"), ("02_y", "Task 2.1", "")]
  with open(graded / "item-analysis.csv", newline="") as f: assert f.read() == CSV.replace("\n", "\r\n")
  assert (graded / "item-analysis.md").read_text(encoding="utf-8") == MARKDOWN
  assert (graded / "item-analysis.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
  again = tmp_path_factory.mktemp("again") / "again.png"
  picture(rows, again)
  assert again.read_bytes() == (graded / "item-analysis.png").read_bytes()          # the same bytes each time

def test_a_learner_message_in_the_markdown_is_inert(graded):
  (graded / "tasks.csv").write_text(TASKS.replace("too slow", "x | `y` <img src=z>\x1b[1m"))
  assert "| `x \\| 'y' ‹img src=z›` (2) |" in (stats(graded) and (graded / "item-analysis.md").read_text(encoding="utf-8"))

def test_item_rest_is_the_correlation_of_the_task_with_the_rest():
  x, y = [3, 1.5, 3, 0, 0], [4, 2, 1, 0, 4]
  assert correlation(x, y) == pytest.approx(statistics.correlation(x, y))
  assert correlation([1, 0, 1], [2, 1, 2]) == pytest.approx(1.0) and correlation([1, 0, 1], [0, 1, 0]) == pytest.approx(-1.0)
  assert correlation([1, 2], [1, 2]) is None                         # fewer than 3 learners
  assert correlation([1, 1, 1], [1, 2, 3]) is None and correlation([1, 2, 3], [5, 5, 5]) is None   # one side does not vary

def test_upper_lower_is_top_quarter_minus_bottom_quarter():
  assert upper_lower([0, 0, 1, 1], [1, 2, 3, 4]) == 1.0
  assert upper_lower([1, 0.5, 0, 0, 0, 0, 0, 1], [9, 8, 1, 2, 3, 4, 5, 6]) == 0.75        # top: 9, 8; bottom: 1, 2
  assert upper_lower([1, 0, 0, 0], [5, 5, 5, 5]) == -1.0             # ties by learner order: the first is the bottom quarter
  assert upper_lower([1, 0, 1], [1, 2, 3]) is None                   # fewer than 4 learners

def test_analyse_sums_the_tests_of_a_task_in_order_of_first_appearance():
  rows = analyse([{"learner": n, "module": "03_z", "task": "Task 3.2" if t != "t0" else "Task 3.1", "test": t, "status": "passed",
                   "score": 1.0, "max_score": 1.0, "message": ""} for t in ("t1", "t0", "t2") for n in ("b", "a")])
  assert [(r["task"], r["tests"], r["points"], r["learners"], r["full"], r["item_rest"], r["upper_lower"], r["failure_count"]) for r in rows] == \
         [("Task 3.2", 2, 2.0, 2, 1.0, "", "", 0), ("Task 3.1", 1, 1.0, 2, 1.0, "", "", 0)]

def test_an_empty_class_is_an_error_not_a_report(tmp_path):
  (tmp_path / "gradebook.csv").write_text(GRADEBOOK)
  (tmp_path / "tasks.csv").write_text(TASKS.splitlines()[0] + "\n")
  with pytest.raises(GradebookError, match="no tasks.csv"): stats(tmp_path)
  (tmp_path / "gradebook.csv").write_text(GRADEBOOK.splitlines()[0] + "\n")
  with pytest.raises(GradebookError, match="the gradebook is empty"): stats(tmp_path)
  assert not (tmp_path / "item-analysis.csv").exists()
