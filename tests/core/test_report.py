"""core/report.py on its own: a report as the JSON a grading writes, in, and the terminal table and the Markdown page,
byte for byte, out. The report holds what each function handles: a passed, a failed, a skipped and a timed-out test,
a module whose grading failed (grader_error) with its tests not run, flags, hints opened, and a learner's message
with a terminal escape, an HTML tag, a newline, a backtick and a Markdown pipe."""
import json
from autograder.core.report import hints_opened, markdown, md, table, write
from autograder.core.results import ModuleResult, Report, from_json, to_json

def read(text:str|dict) -> Report: return from_json(Report, json.loads(text) if isinstance(text, str) else text)

REPORT = r'''{
 "score": 3.5, "max_score": 12, "modules": [
  {"module": "01_tensor_basics", "status": "graded", "message": "", "sandbox": "bwrap", "score": 3.5, "max_score": 7, "seconds": 12.34,
   "flags": [{"where": "ans_add, line 3", "rule": "forbidden import", "what": "numpy | `np`"}],
   "hints_opened": {"Task 1.1": [1, 2], "Task 1.2": [0, 3]},
   "tests": [
    {"id": "test_add", "task": "Task 1.1", "status": "passed", "score": 2, "max_score": 2, "message": ""},
    {"id": "test_matmul_shapes", "task": "Task 1.2", "status": "failed", "score": 1.5, "max_score": 3,
     "message": "shape: got (2, 3) | want `(3, 2)` <b>\u001b[31mred\u001b[0m\nnext", "hint": "mind the order"},
    {"id": "test_cuda", "task": "", "status": "skipped", "score": 0, "max_score": 1, "message": "needs CUDA"},
    {"id": "test_speed", "task": "Task 1.3", "status": "timeout", "score": 0, "max_score": 1, "message": "ran past 10 s"}]},
  {"module": "02_op_types", "status": "grader_error", "sandbox": "", "flags": [], "score": 0, "max_score": 5, "seconds": 0.5,
   "message": "the grader failed on this module (KeyError); the other modules were graded: tell your instructor",
   "tests": [
    {"id": "test_a", "status": "not_run", "score": 0, "max_score": 2.5, "message": "the grader failed on this module (KeyError)"},
    {"id": "t", "status": "error", "score": 0, "max_score": 2.5, "message": "NameError: name 'x' is not defined"}]}]}'''

TABLE = [
  "01_tensor_basics         graded         3.5 / 7       12.3 s",
  "  test_add           ok          2 / 2   ",
  "  test_matmul_shapes FAIL      1.5 / 3    [Task 1.2] shape: got (2, 3) | want `(3, 2)` ‹b›red next",
  "  test_cuda          skipped     0 / 1    needs CUDA",
  "  test_speed         TIMEOUT     0 / 1    [Task 1.3] ran past 10 s",
  "  flag: ans_add, line 3: forbidden import (numpy | `np`)",
  "  hints opened (information only): Task 1.1: 1 of 2, Task 1.2: 0 of 3",
  "  1 test(s) skipped here, worth 1 point(s) this machine could not grade",
  "02_op_types              grader_error     0 / 5        0.5 s   the grader failed on this module (KeyError); the other modules were graded: tell your instructor",
  "  test_a     not run     0 / 2.5  the grader failed on this module (KeyError)",
  "  t          ERROR       0 / 2.5  NameError: name 'x' is not defined",
  "total                                   3.5 / 12"]

MARKDOWN = [
  "# Score: 3.5 / 12",
  "",
  "| module | status | score | time |",
  "|---|---|---|---|",
  "| 01_tensor_basics | graded | 3.5 / 7 | 12.3 s |",
  "| 02_op_types | grader_error | 0 / 5 | 0.5 s |",
  "",
  "## 01_tensor_basics",
  "",
  "| test | task | status | score | message |",
  "|---|---|---|---|---|",
  "| `test_add` | `Task 1.1` | passed | 2 / 2 |  |",
  "| `test_matmul_shapes` | `Task 1.2` | failed | 1.5 / 3 | `shape: got (2, 3) \\| want '(3, 2)' ‹b›red next` |",
  "| `test_cuda` |  | skipped | 0 / 1 | `needs CUDA` |",
  "| `test_speed` | `Task 1.3` | timeout | 0 / 1 | `ran past 10 s` |",
  "",
  "Flags for review (they do not change the score):",
  "",
  "- `ans_add, line 3`: `forbidden import` (`numpy \\| 'np'`)",
  "",
  "Hints opened (information only, no effect on the score): `Task 1.1: 1 of 2, Task 1.2: 0 of 3`",
  "",
  "## 02_op_types",
  "",
  "_`the grader failed on this module (KeyError); the other modules were graded: tell your instructor`_",
  "",
  "| test | task | status | score | message |",
  "|---|---|---|---|---|",
  "| `test_a` |  | not_run | 0 / 2.5 | `the grader failed on this module (KeyError)` |",
  "| `t` |  | error | 0 / 2.5 | `NameError: name 'x' is not defined` |"]

# a grading that did not finish (grade-all writes this): no module, the totals only
UNFINISHED = {"score": 0.0, "max_score": 0.0, "modules": [], "error": "grading ada did not finish (exit code -9)"}

def test_table_is_the_terminal_report_byte_for_byte():
  assert table(read(REPORT)) == "\n".join(TABLE)
  assert table(read(UNFINISHED)) == "total                                     0 / 0"

def test_markdown_is_the_ci_page_byte_for_byte():
  assert markdown(read(REPORT)) == "\n".join(MARKDOWN) + "\n"
  assert markdown(read(UNFINISHED)) == "# Score: 0 / 0\n\n| module | status | score | time |\n|---|---|---|---|\n"

def test_a_module_without_flags_or_hints_has_no_such_lines():
  report = json.loads(REPORT)
  m = report["modules"][0]
  del m["flags"], m["hints_opened"]
  m["tests"] = m["tests"][:1]
  assert table(read(report)).splitlines()[:3] == [TABLE[0], "  test_add   ok          2 / 2   ", TABLE[8]]     # the id column: 10 wide at least
  assert "Flags for review" not in markdown(read(report)) and "Hints opened" not in markdown(read(report))

def test_hints_opened_reads_the_reports_pairs_and_cleans_the_task():
  module = lambda data: from_json(ModuleResult, data)
  assert hints_opened(module({"hints_opened": {"Task 1.1": [1, 2], "Task\x1b[2J <2>": [2.0, 3]}})) == "Task 1.1: 1 of 2, Task ‹2›: 2 of 3"
  assert hints_opened(module({"hints_opened": {}})) == "" and hints_opened(module({})) == "" and hints_opened(module({"hints_opened": None})) == ""

def test_md_makes_a_learner_text_an_inert_code_span():
  assert md("") == "" and md("\x07\x1b") == ""
  assert md("a|b `c` [x](http://e) <img src=x>") == "`a\\|b 'c' [x](http://e) ‹img src=x›`"
  assert md("line one\r\n\tline two") == "`line one line two`"
  assert md("x" * 400) == "`" + "x" * 297 + "...`"
  assert md("caf\udce9 \ud800") == "`caf\\udce9 \\ud800`"      # a lone surrogate, which no file can hold, is written out (it ended grade-all)

def test_write_puts_json_and_markdown_where_asked(tmp_path):
  report = read(REPORT)
  write(report, str(tmp_path / "r.json"), str(tmp_path / "r.md"))
  assert (tmp_path / "r.json").read_text() == json.dumps(to_json(report), indent=2) + "\n"
  assert json.loads((tmp_path / "r.json").read_text()) == json.loads(REPORT)        # the same data (keys in the schema's order)
  assert (tmp_path / "r.md").read_text(encoding="utf-8") == "\n".join(MARKDOWN) + "\n"
  write(report, None, None)
  assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json", "r.md"]
