"""classroom/lms.py on its own: a gradebook.csv as grade-all writes it and a roster with the LMS columns, and the
three exports byte for byte: a learner graded in one module only, a grading that did not finish, a module whose
grading failed (its points unknown: 0), a late score, a learner not in the roster, one with no identifier, two sharing
one, formula-like text quoted outside the identifier columns and left whole in them, a name outside ASCII."""
import pytest
from autograder.classroom.gradebook import GradebookError
from autograder.classroom.lms import export

GRADEBOOK = """learner,module,score,max_score,status,flags,raw_score,late_days,late_percent,override
ada,01_x,4.5,5,graded,,5,1,10.0,
ada,02_y,3,3,graded,,3,0,0,
bob,01_x,2,5,graded,,2,0,0,
cyd,,0,0,grader_error,grading cyd did not finish (exit code -9),0,0,0,
dee,01_x,0,5,missing,,0,0,0,
dee,02_y,1.25,3,graded,,1.25,0,0,
eve,01_x,5,5,graded,,5,0,0,
fay,01_x,5,5,graded,,5,0,0,
gus,01_x,5,5,graded,,5,0,0,
gus,02_y,0,0,grader_error,,0,0,0,
"""
ROSTER = """learner,repository,ref,deadline,name,lms_id,sis_id,sis_login,email,section
ada,,,,"=HYPERLINK(""x"")",101,S1,-ada,ada@uni.edu,=A1
bob,,,,Bób Bo,102,,,,＋B
cyd,,,,,,S3,,cyd@uni.edu,
dee,,,,,,S4,+dee,,
fay,,,,,,,,,
gus,,,,Gus,107,S1,,,
"""
FORMULA_NOTE = "starts like a spreadsheet formula; written unchanged for the LMS, so open the file in the LMS rather than in a spreadsheet"

CANVAS = """Student,ID,SIS User ID,SIS Login ID,Section,01_x,02_y\r
    Points Possible,,,,,5,3\r
"'=HYPERLINK(""x"")",101,S1,-ada,'=A1,4.5,3\r
Bób Bo,102,,,'＋B,2,\r
cyd,,S3,,,,\r
dee,,S4,+dee,,0,1.25\r
"""
MOODLE = """ID number,Email address,01_x,02_y\r
S1,ada@uni.edu,4.5,3\r
S3,cyd@uni.edu,,\r
S4,,0,1.25\r
"""
PLAIN = """learner,01_x,02_y,total,max_total\r
ada,4.5,3,7.5,8\r
bob,2,,2,8\r
cyd,,,0,8\r
dee,0,1.25,1.25,8\r
eve,5,,5,8\r
fay,5,,5,8\r
gus,5,0,5,8\r
"""

@pytest.fixture
def graded(tmp_path):
  (tmp_path / "gradebook.csv").write_text(GRADEBOOK)
  (tmp_path / "roster.csv").write_text(ROSTER, encoding="utf-8")
  return tmp_path

def read(path) -> str:
  with open(path, newline="", encoding="utf-8") as f: return f.read()

def test_canvas_byte_for_byte(graded):
  out, problems = export(graded, "canvas", graded / "roster.csv")
  assert out == graded / "grades-canvas.csv" and read(out) == CANVAS
  assert problems == [f"ada: note: SIS Login ID {FORMULA_NOTE}", f"dee: note: SIS Login ID {FORMULA_NOTE}",
                      f"eve: graded but not in {graded / 'roster.csv'}", "fay: needs lms_id, sis_id or sis_login for Canvas to match them",
                      "gus: left out, the same SIS User ID 'S1' (also ada's) would match one user twice"]

def test_moodle_byte_for_byte(graded):
  out, problems = export(graded, "moodle", graded / "roster.csv")
  assert out == graded / "grades-moodle.csv" and read(out) == MOODLE
  assert problems == ["bob: needs an email or a sis_id (ID number) for Moodle", f"eve: graded but not in {graded / 'roster.csv'}",
                      "fay: needs an email or a sis_id (ID number) for Moodle",
                      "gus: left out, the same ID number 'S1' (also ada's) would match one user twice"]

def test_plain_csv_needs_no_roster_and_writes_where_asked(graded, tmp_path_factory):
  out, problems = export(graded, "csv")
  assert out == graded / "grades-csv.csv" and read(out) == PLAIN and problems == []
  elsewhere = tmp_path_factory.mktemp("elsewhere") / "grades.csv"
  assert export(graded, "csv", out=elsewhere) == (elsewhere, []) and read(elsewhere) == PLAIN

def test_a_plain_csv_quotes_a_formula_like_learner_name_only_in_marks(tmp_path):
  (tmp_path / "gradebook.csv").write_text(GRADEBOOK.splitlines()[0] + "\n-x.y,01_x,-1,5,graded,,0,0,0,\n")
  assert read(export(tmp_path, "csv")[0]) == "learner,01_x,total,max_total\r\n-x.y,'-1,'-1,5\r\n"

@pytest.mark.parametrize("fmt, roster, message", [
  ("pdf", None, "--format is one of canvas, moodle, csv, not 'pdf'"),
  ("canvas", None, "--format canvas needs --roster"),
  ("moodle", "nowhere.csv", "no roster file there"),
  ("canvas", "learner,name\n", "the roster lists no learner"),
  ("canvas", "name,email\nada,ada@uni.edu\n", "the roster needs the columns learner; missing learner"),
  ("canvas", "learner,name\nzed,Zed\nfay,Fay\n", "no learner could be exported: ada: graded but not in"),
  ("moodle", "learner,lms_id\nada,1\n", "no learner could be exported: ada: needs an email or a sis_id"),
])
def test_what_cannot_be_exported_is_an_error_and_no_file(graded, fmt, roster, message):
  path = None
  if roster is not None:
    path = graded / "other.csv"
    if roster != "nowhere.csv": path.write_text(roster)
  with pytest.raises(GradebookError) as e: export(graded, fmt, path)
  assert message in str(e.value)
  assert not list(graded.glob("grades-*.csv"))

def test_an_empty_or_missing_gradebook_is_an_error(tmp_path):
  (tmp_path / "gradebook.csv").write_text(GRADEBOOK.splitlines()[0] + "\n")
  with pytest.raises(GradebookError, match="the gradebook is empty"): export(tmp_path, "csv")
  (tmp_path / "gradebook.csv").unlink()
  with pytest.raises(GradebookError, match="no gradebook.csv there"): export(tmp_path, "csv")
  with pytest.raises(GradebookError, match="nowhere: no such folder"): export(tmp_path / "nowhere", "csv")
