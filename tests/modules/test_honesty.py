"""The honesty tests, applied to every module in solutions/: the reference solution gets full marks (from our grader
and from plain nbgrader), the released starter gets zero and runs to the end, and projects/ is exactly what release
writes, with nothing of a solution or a hidden test in it."""
import functools, os, re, shutil, subprocess, sys
from pathlib import Path
import pytest
from autograder.core.cells import is_answer, is_isolated, is_test
from autograder.core.assemble import read_notebook
from autograder.core.course import REPO, module_names, notebook_path
from autograder.grading.grade import grade_module
from autograder.core.runs import reference
from autograder.core.cells import grade_id
from autograder.notebook.compare import strong
from autograder.authoring.lint import lint_notebook
from autograder.authoring.release import differences
from autograder.core.results import to_json
from autograder.core.module import Module
from released import MARKERS, regions, texts

SOLUTIONS, PROJECTS = REPO / "solutions", REPO / "projects"
MODULES = module_names(SOLUTIONS)

def summary(module:dict) -> str:
  return "\n".join(f"{t['id']}: {t['status']} {t['score']}/{t['max_score']} {t['message']}" for t in module["tests"])

# A test that needs hardware this machine lacks (module 08's CUDA tests) is reported as skipped with no points, for
# the solution and the starter alike: the solution gets full marks on the others. Such test cells call
# require_device(...) or require_gpu(), and only they may be skipped.
NEEDS_DEVICE = re.compile(r"\brequire_(device|gpu)\(")
@functools.cache
def device_cells(module:str) -> set[str]:
  return {grade_id(c) for c in read_notebook(notebook_path(SOLUTIONS, module)).cells if is_test(c) and NEEDS_DEVICE.search(c.source)}
def skipped_for_hardware(test:dict, module:str) -> bool:
  return test["status"] == "skipped" and test["id"] in device_cells(module)

# The solution is graded in every module's mutation session too (tests/modules/test_mutants.py: its control is every
# test with the solution, in the sandbox, under the module's limits, in grading's kernels: the tests that need the
# module's forbidden libraries in a kernel of their own, as grading runs them). Graded on its own here: a module without
# mutants, and one with isolated tests (module 07), which grading runs in a kernel of their own and the session does not.
ON_ITS_OWN = [m for m in MODULES if not (REPO / "tests" / "mutants" / f"{m}.py").is_file()
              or any(is_isolated(c) for c in read_notebook(notebook_path(SOLUTIONS, m)).cells)]

@pytest.mark.slow
@pytest.mark.parametrize("module", ON_ITS_OWN)
def test_solution_gets_full_marks(module):
  result = to_json(grade_module(Module(module, SOLUTIONS), SOLUTIONS))
  assert result["status"] == "graded", result["message"]
  graded = [t for t in result["tests"] if not skipped_for_hardware(t, module)]
  assert graded and sum(t["max_score"] for t in graded) > 0, summary(result)
  assert sum(t["score"] for t in graded) == sum(t["max_score"] for t in graded), summary(result)
  assert all(t["status"] == "passed" for t in graded), summary(result)
  assert result["flags"] == [], result["flags"]                   # issue 43, item 5: honest code raises no flag

@pytest.mark.parametrize("module", MODULES)
def test_tests_keep_the_oracle_out_of_the_learners_run(module):
  """`autograder lint`: no name computed by the oracle is needed where grading has cut the oracle out, no name only the
  oracle needs stands outside it (the learner's copy would show it), and the settings follow the schema."""
  problems, _ = lint_notebook(read_notebook(notebook_path(SOLUTIONS, module)))
  assert not problems, "\n".join(problems)

@pytest.mark.slow
@pytest.mark.parametrize("module", MODULES)
def test_every_test_makes_an_observation_that_cannot_be_guessed(module):
  """A bool or a small count is easy to forge: each test cell also observes a value (see course/instructors/authoring.md)."""
  ref = to_json(reference(Module(module, SOLUTIONS)))
  weak = [tid for tid, o in ref["tests"].items() if not (o.get("error") and o["error"][0] == "CheckSkipped")
          and not any(strong(r["kind"], r.get("expected")) for r in o["observations"])]
  assert not weak, f"test cells with only guessable observations: {weak}"

@pytest.mark.slow
@pytest.mark.parametrize("module", MODULES)
def test_starter_gets_zero_and_runs_to_the_end(module):
  result = to_json(grade_module(Module(module, SOLUTIONS), PROJECTS))
  assert result["status"] == "graded", result["message"]
  assert result["score"] == 0, summary(result)
  assert all(t["status"] in ("failed", "error") or skipped_for_hardware(t, module) for t in result["tests"]), summary(result)

@pytest.mark.slow
@pytest.mark.parametrize("module", MODULES)
def test_projects_is_what_release_writes(module):
  assert differences([Module(module, SOLUTIONS)], PROJECTS) == []

def test_projects_holds_the_released_modules_only():
  assert sorted(p.name for p in PROJECTS.iterdir() if p.is_dir() and not p.name.startswith(".")) == MODULES

@pytest.mark.parametrize("module", MODULES)
def test_nothing_of_a_solution_or_a_hidden_test_is_released(module):
  source, released = texts(SOLUTIONS / module), texts(PROJECTS / module)
  secret, public = set(), set()
  for text in source.values():
    inside, outside = regions(text)
    secret |= set(inside); public |= set(outside)
  secret = {line for line in secret - public if len(line) >= 12 and not line.startswith("#")}
  assert secret, "the module has no solution or hidden-test lines to look for"
  for name, text in released.items():
    assert not MARKERS.search(text), f"{module}/{name} holds a solution or hidden-test marker"
    leaked = [line for line in text.splitlines() if line.strip() in secret]
    assert not leaked, f"{module}/{name} holds solution or hidden-test code: {leaked[:3]}"

@pytest.mark.parametrize("module", MODULES)
def test_the_learners_copy_shows_no_oracle(module):
  """Release cuts every `with oracle():` block out of the learner's copy (course/instructors/authoring.md, "What the
  learner's copy shows"); the pristine copy the self-check builds from is the same."""
  for path in (notebook_path(PROJECTS, module), PROJECTS / module / ".released" / f"{module}.ipynb"):
    shown = [f"cell {i}" for i, c in enumerate(read_notebook(path).cells) if c.cell_type == "code" and "oracle(" in c.source]
    assert not shown, f"{path.relative_to(REPO)}: oracle code in {shown}"

@pytest.mark.parametrize("module", MODULES)
def test_every_module_has_answers_and_tests(module):
  nb = read_notebook(notebook_path(SOLUTIONS, module))
  assert any(is_answer(c) for c in nb.cells) and any(is_test(c) for c in nb.cells)

# Plain nbgrader runs the code the reference run runs (which passes every check, the checks raising in the same way)
# outside our executor: what it adds is nbgrader's own handling of a module, its files and its points. The suite runs
# it on module 07, which holds most kinds of thing nbgrader handles: a notebook with an answer file and other files
# beside it, and isolated tests. Each costs a whole run of the module, oracle included; PLAIN_NBGRADER=all runs every
# module, 08's points that need CUDA included (the weekly workflow, .github/workflows/portability.yml, and before a
# release). Module 08 left the suite's list on 2026-12-02 (58 s of the suite's time at load 4).
PLAIN = MODULES if os.environ.get("PLAIN_NBGRADER") == "all" else [m for m in MODULES if m[:2] == "07"]

@pytest.mark.slow
@pytest.mark.parametrize("module", PLAIN)
def test_plain_nbgrader_autograde_gives_the_solution_full_marks(module, tmp_path):
  """The instructor's own path: nbgrader generate_assignment + autograde on the solution as a submission."""
  from nbgrader.api import Gradebook
  shutil.copytree(SOLUTIONS / module, tmp_path / "source" / module)
  shutil.copytree(SOLUTIONS / module, tmp_path / "submitted" / "student" / module)
  cell_limit = read_notebook(notebook_path(SOLUTIONS, module)).metadata.get("autograder", {}).get("cell_timeout", 60)
  nbgrader = [sys.executable, "-m", "nbgrader"]
  env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])}   # nbgrader runs alembic
  for step in (["generate_assignment", module], ["autograde", module, f"--ExecutePreprocessor.timeout={int(cell_limit)}"]):
    done = subprocess.run(nbgrader + step + ["--force"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
  from autograder.notebook.checks import has_device
  missing = 0.0 if has_device("CUDA") else sum(float(c.metadata["nbgrader"].get("points", 0)) for c in read_notebook(notebook_path(SOLUTIONS, module)).cells if grade_id(c) in device_cells(module))
  with Gradebook(f"sqlite:///{tmp_path / 'gradebook.db'}") as gb:
    submission = gb.find_submission(module, "student")
    assert submission.max_score > 0 and submission.score == submission.max_score - missing, (submission.score, submission.max_score, missing)
