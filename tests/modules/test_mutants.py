"""Every module's tests catch the bugs learners make: each wrong variant of a reference answer listed in
tests/mutants/NN_name.py loses points when graded (all of a module's mutants run in one kernel session). The session's
control, every test of the module with the solution after the mutants, in the sandbox under the module's limits, is
also the solution graded: it must pass every test (a CUDA test without CUDA is skipped), within the notebook's time
limit (test_honesty grades the solution on its own only where the session cannot stand for it: isolated tests), and its
answers must raise no flag (issue 43, item 5). The control's tests whose verdict is a ratio of times (check_ratio,
decide: neighbours.deciding_cells) run beside noisy neighbours, a busy process per core (issue 43: the reference gets
full marks on a loaded machine); the other tests and the mutants run on a quiet one (a count or a sanity bound does not
move with the load, and the neighbours would only slow the suite). Mutants this version of the module and its grader
caught before (tests/mutants/caught/NN_name.txt, see autograder/authoring/ledger.py) are not graded again, the control
always is; `MUTANTS=all` grades every mutant."""
import os
import pytest
from autograder.core.assemble import read_notebook
from autograder.core.course import REPO, module_names, notebook_path
from autograder.core.execute import limits
from autograder.authoring import ledger
from autograder.authoring.mutants import run
from autograder.core.module import Module
from autograder.grading.grade import solution_flags
from autograder.core.runs import reference
from neighbours import NeighboursAround

pytestmark = pytest.mark.slow          # grades wrong variants of every module

MUTANTS = REPO / "tests" / "mutants"
MODULES = [m for m in module_names(REPO / "solutions") if (MUTANTS / f"{m}.py").is_file()]

@pytest.mark.parametrize("module", MODULES)
def test_every_mutant_loses_points(module):
  mod, neighbours, caught = Module(module, REPO / "solutions"), NeighboursAround(module), MUTANTS / "caught" / f"{module}.txt"
  # A session left with nothing to grade (the ledger knows every mutant) runs no kernel, but where a cell decides a ratio
  # of times: its control is the reference graded beside noisy neighbours (issue 43, item 3). Without a control, the
  # solution's own run on this machine (the reference run, cached) must have passed every check, within the limit.
  try: result = run(mod, MUTANTS / f"{module}.py", on_control_cell=neighbours, known=ledger.caught(caught), control=bool(neighbours.cells))
  finally: neighbours.stop()
  if (path := os.environ.get("MUTANT_TIMES")):       # where a session's time goes, mutant by mutant (issue 43, item 7)
    with open(path, "a") as f: f.writelines(f"{m.get('seconds', -1):7.1f} {module} {m['name']}\n" for m in result["mutants"])
  assert neighbours.seen == neighbours.cells, f"deciding cells the control never ran beside neighbours: {sorted(neighbours.cells - neighbours.seen)}"
  assert result["status"] == "completed" and not result["control"], (result["status"], result["control"])
  timeout = limits(read_notebook(notebook_path(REPO / "solutions", module)))[1]
  if not result["ran"]:
    ref = reference(mod)
    assert ref.clean and ref.seconds < timeout, (ref.status, ref.message, ref.seconds, [t for t, o in ref.tests.items() if o.error and not o.skipped])
  else:
    assert result["solution_seconds"] is not None and result["solution_seconds"] - neighbours.waited < timeout, f"the solution's set-up and tests took {result['solution_seconds']} s, the notebook's limit is {timeout} s"
  flagged = solution_flags(mod)       # the reference run is the session's (cached)
  assert not flagged, [f"{f.where}: {f.rule}: {f.what}" for f in flagged]      # issue 43, item 5: honest code raises no flag
  survivors = [m["name"] for m in result["mutants"] if not m["caught"]]
  assert len(result["mutants"]) >= 8, "a module needs at least 8 mutants"
  assert not survivors, f"{len(survivors)} of {len(result['mutants'])} mutants keep full marks: {survivors}"
  ledger.record(caught, result)
