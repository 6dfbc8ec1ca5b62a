"""Every module's tests catch the bugs learners make: each wrong variant of a reference answer listed in
tests/mutants/NN_name.py loses points when graded (all of a module's mutants run in one kernel session). The session's
control, every test of the module with the solution after the mutants, in the sandbox under the module's limits, is
also the solution graded: it must pass every test (a CUDA test without CUDA is skipped), within the notebook's time
limit (test_honesty grades the solution on its own only where the session cannot stand for it: isolated tests), and its
answers must raise no flag (issue 43, item 5). In the modules whose tests time code (TIMED), the control runs beside
noisy neighbours, a busy process per core (issue 43: the reference gets full marks on a loaded machine); the mutants
before it run on a quiet one."""
import contextlib
import pytest
from autograder.core.assemble import read_notebook
from autograder.core.course import REPO, module_names, notebook_path
from autograder.core.execute import limits
from autograder.authoring.mutants import run
from autograder.core.module import Module
from autograder.grading.grade import solution_flags
from neighbours import TIMED, noisy_neighbours

pytestmark = pytest.mark.slow          # grades wrong variants of every module

MUTANTS = REPO / "tests" / "mutants"
MODULES = [m for m in module_names(REPO / "solutions") if (MUTANTS / f"{m}.py").is_file()]

@pytest.mark.parametrize("module", MODULES)
def test_every_mutant_loses_points(module):
  mod, neighbours, started = Module(module, REPO / "solutions"), contextlib.ExitStack(), []
  def control_beside_neighbours():                              # the control: the module's tests, after every mutant
    if module in TIMED and not started: started.append(neighbours.enter_context(noisy_neighbours(limit=600)))
  with neighbours: result = run(mod, MUTANTS / f"{module}.py", on_control=control_beside_neighbours)
  assert bool(started) == (module in TIMED), "the control ran beside noisy neighbours" if started else "the control never started"
  assert result["status"] == "completed" and not result["control"], (result["status"], result["control"])
  timeout = limits(read_notebook(notebook_path(REPO / "solutions", module)))[1]
  assert result["solution_seconds"] is not None and result["solution_seconds"] < timeout, f"the solution's set-up and tests took {result['solution_seconds']} s, the notebook's limit is {timeout} s"
  flagged = solution_flags(mod)       # the reference run is the session's (cached)
  assert not flagged, [f"{f.where}: {f.rule}: {f.what}" for f in flagged]      # issue 43, item 5: honest code raises no flag
  survivors = [m["name"] for m in result["mutants"] if not m["caught"]]
  assert len(result["mutants"]) >= 8, "a module needs at least 8 mutants"
  assert not survivors, f"{len(survivors)} of {len(result['mutants'])} mutants keep full marks: {survivors}"
