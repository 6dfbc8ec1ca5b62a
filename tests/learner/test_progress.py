"""learner/progress.py on its own: module folders in tmp_path holding what `check` and `hint` leave there (the
.last_check.json, the released hints.b64, hints_opened.json), and the lines of `autograder progress`, byte for byte:
every status word, a task with nothing attempted, tasks in numeric order, hints opened, a long message cut, a test
without a task, modules never checked, and a last check that cannot be read."""
import base64
import json
import pytest
from autograder.learner.progress import module_lines, progress

LAST = {"version": 1, "module": "01_tensor_basics", "when": "2026-03-01 10:00 UTC", "tests": {
  "test_add": {"task": "Task 1.1", "status": "passed", "score": 2, "max_score": 2, "message": "", "hidden_checks": True},
  "test_add_broadcast": {"task": "Task 1.1", "status": "failed", "score": 0, "max_score": 1, "message": "a[0]: expected 2, got 3"},
  "test_matmul": {"task": "Task 1.10", "status": "error", "score": 0, "max_score": 3, "message": "NotImplementedError: not attempted (matmul)"},
  "test_pad": {"task": "Task 1.2", "status": "error", "score": 0, "max_score": 2, "message": "NameError: name 'pad' is not defined " + "x" * 100},
  "test_speed": {"task": "Task 1.3", "status": "timeout", "score": 0, "max_score": 1, "message": "ran past 10 s"},
  "test_cuda": {"task": "Task 1.4", "status": "skipped", "score": 0, "max_score": 1, "message": "needs CUDA"},
  "test_later": {"task": "Task 1.5", "status": "not_run", "score": 0, "max_score": 1, "message": ""},
  "test_extra": {"task": "", "status": "passed", "score": 0.5, "max_score": 0.5, "message": ""},
  "test_odd": {"task": "Task 2", "status": "weird", "score": 0, "max_score": 1, "message": ""}}}
HINTS = {"version": 1, "tasks": {"Task 1.1": ["Think of addition.", "Add x to itself."], "Task 1.2": ["a", "b", "c"]}}

LINES = [
  "01_tensor_basics         2/9 visible checks passed (2.5/12.5 points before hidden checks), last checked 2026-03-01 10:00 UTC",
  "  Task 1.1   FAIL     [hints opened: 2 of 2] a[0]: expected 2, got 3",
  "  Task 1.2   ERROR    [hints opened: 0 of 3] NameError: name 'pad' is not defined " + "x" * 63,
  "  Task 1.3   TIMEOUT  ran past 10 s",
  "  Task 1.4   skipped  needs CUDA",
  "  Task 1.5   not run",
  "  Task 1.10  todo     NotImplementedError: not attempted (matmul)",
  "  Task 2     weird",
  "  test_extra ok",
  "02_op_types              never checked (autograder check 02)",
  "03_autograd              never checked (autograder check 03)",
  "(from each module's .last_check.json, written by `autograder check`; grading adds hidden checks, so these are not scores)"]

def module(projects, name, last=None, hints=None, opened=None):
  folder = projects / name
  folder.mkdir(parents=True)
  if last is not None: (folder / ".last_check.json").write_text(last if isinstance(last, str) else json.dumps(last, indent=1))
  if hints is not None: (folder / "hints.b64").write_text(base64.b64encode(json.dumps(hints).encode()).decode() + "\n")
  if opened is not None: (folder / "hints_opened.json").write_text(json.dumps({"version": 1, "opened": opened}))
  return folder

def test_progress_is_every_modules_last_check_byte_for_byte(tmp_path):
  module(tmp_path, "01_tensor_basics", LAST, HINTS, {"Task 1.1": 5})      # opened more than there are: 2 of 2
  module(tmp_path, "02_op_types")                                             # a folder, never checked; 03: no folder at all
  assert progress(tmp_path, ["01_tensor_basics", "02_op_types", "03_autograd"]) == "\n".join(LINES)

def test_a_task_is_todo_only_when_every_failure_is_not_attempted(tmp_path):
  tests = {"t1": {"task": "Task 3.1", "status": "error", "score": 0, "max_score": 1, "message": "NotImplementedError: not attempted (f)"},
           "t2": {"task": "Task 3.1", "status": "failed", "score": 0, "max_score": 1, "message": "f(1): expected 2, got 3"},
           "t3": {"task": "Task 3.2", "status": "error", "score": 0, "max_score": 1, "message": "NotImplementedError: not attempted (g)"},
           "t4": {"task": "Task 3.2", "status": "passed", "score": 1, "max_score": 1, "message": ""}}
  folder = module(tmp_path, "03_autograd", {"when": "today", "tests": tests})
  assert module_lines(folder) == ["03_autograd              1/4 visible checks passed (1/4 points before hidden checks), last checked today",
                                  "  Task 3.1   ERROR    NotImplementedError: not attempted (f)",
                                  "  Task 3.2   todo     NotImplementedError: not attempted (g)"]

def test_what_a_hand_edited_file_holds_is_read_as_data(tmp_path):
  """Fields of the wrong type read as empty, a test that is not a table is dropped, a missing time is empty (load_last
  makes it '', so the '?' module_lines has for a missing time never shows)."""
  folder = module(tmp_path, "04_mnist", {"tests": {"a": {"status": 3, "score": "9", "max_score": 2, "task": ["x"], "message": None},
                                                   "b": "passed", "c": {}}})
  assert module_lines(folder) == ["04_mnist                 0/2 visible checks passed (0/2 points before hidden checks), last checked ",
                                  "  a          ?", "  c          ?"]
  module(tmp_path, "05_compiler_pipeline", "{not json")
  assert progress(tmp_path, ["05_compiler_pipeline"]).splitlines()[0] == "05_compiler_pipeline     never checked (autograder check 05)"

def test_a_last_check_that_breaks_the_lines_is_one_line_saying_so(tmp_path):
  module(tmp_path, "06_custom_ops", {"tests": {"t": {"task": "Task ²", "status": "passed"}}})          # '²'.isdigit(), int('²') raises
  module(tmp_path, "07_custom_backend", {"when": "now", "tests": {}})
  assert progress(tmp_path, ["06_custom_ops", "07_custom_backend"]).splitlines() == [
    "06_custom_ops            its last check cannot be read (ValueError); run `autograder check 06` again",
    "07_custom_backend        0/0 visible checks passed (0/0 points before hidden checks), last checked now", LINES[-1]]

def test_no_module_is_the_footnote_alone(tmp_path):
  assert progress(tmp_path, []) == LINES[-1]

def test_a_message_is_one_inert_line(tmp_path):
  folder = module(tmp_path, "08_cuda_benchmark", {"when": "now", "tests": {"t": {"task": "Task 8.1", "status": "failed",
                                                                                  "message": "got \x1b[2J<b>\nnext"}}})
  assert module_lines(folder)[1] == "  Task 8.1   FAIL     got ‹b› next"
