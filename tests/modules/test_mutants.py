"""Every module's tests catch the bugs learners make: each wrong variant of a reference answer listed in
tests/mutants/NN_name.py loses points when graded (all of a module's mutants run in one kernel session)."""
import pytest
from autograder.core.course import REPO, module_names
from autograder.authoring.mutants import run

pytestmark = pytest.mark.slow          # grades wrong variants of every module

MUTANTS = REPO / "tests" / "mutants"
MODULES = [m for m in module_names(REPO / "solutions") if (MUTANTS / f"{m}.py").is_file()]

@pytest.mark.parametrize("module", MODULES)
def test_every_mutant_loses_points(module):
  result = run(module, REPO / "solutions", MUTANTS / f"{module}.py")
  assert not result["control"], result["control"]
  survivors = [m["name"] for m in result["mutants"] if not m["caught"]]
  assert len(result["mutants"]) >= 8, "a module needs at least 8 mutants"
  assert not survivors, f"{len(survivors)} of {len(result['mutants'])} mutants keep full marks: {survivors}"
