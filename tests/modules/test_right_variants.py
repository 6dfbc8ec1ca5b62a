"""A right answer that is not the reference's gets full marks: grading and the self-check compare each observation with
the reference run's, so a check whose expected value follows from a choice the contract leaves open fails a right
answer (tests/modules/test_shipped_expected.py reads the notebooks for such checks; this runs a few). Each variant is a
reference answer changed as a learner may well write it, within the docstring's contract: graded as the wrong variants
of tests/mutants/ are, it must lose nothing, and its self-check must pass."""
import collections
import pytest
import nbformat
from autograder.authoring.mutants import run
from autograder.core.assemble import read_notebook
from autograder.core.cells import grade_id
from autograder.core.course import REPO
from autograder.core.module import Module
from autograder.core.results import TestStatus
from autograder.learner.selfcheck import self_check
from finished import finished

pytestmark = pytest.mark.slow

VARIANTS = [  # (module, task, answer cell, old, new, what a learner chose)
  ("10_inference", "Task 1.1", "ans_export_onnx", 'output_names=["logits"], dynamo=False)', 'output_names=["logits"], dynamo=True, external_data=False)',
   "torch's default (dynamo) exporter with the weights kept in the file, not the TorchScript one"),
  ("10_inference", "Task 5.3", "ans_q4_0", "    for _ in range(2):", "    for _ in range(0):",
   "a Q4_0 quantizer that keeps the best scale of its grid, no least-squares refit: other bytes, within Task 5.1's 1% (choose_format reads them)"),
]
BY_MODULE = collections.defaultdict(list)
for v in VARIANTS: BY_MODULE[v[0]].append(v)

@pytest.mark.parametrize("module,task,cell,old,new,why", VARIANTS, ids=[f"{v[0]}-{v[2]}" for v in VARIANTS])
def test_a_right_variant_passes_its_self_check(module, task, cell, old, new, why, tmp_path):
  path = finished(module, tmp_path)
  nb = read_notebook(path)
  [answer] = [c for c in nb.cells if grade_id(c) == cell]
  assert old in answer.source, f"{cell}: the variant's text is not in the reference answer any more"
  answer.source = answer.source.replace(old, new)
  nbformat.write(nb, str(path))
  report = self_check(path, log=lambda *a: None, task=task)
  failing = [f"{t.id}: {t.status}: {t.message}" for t in report.tests if t.status != TestStatus.PASSED]
  assert report.tests and report.passed and not failing, f"{why}:\n" + "\n".join(failing)

@pytest.mark.parametrize("module", sorted(BY_MODULE))
def test_right_variants_lose_no_points_when_graded(module, tmp_path):
  """One session of the module's mutation grading (hidden tests included) with the right variants as its mutants."""
  variants = tmp_path / f"{module}.py"
  variants.write_text("MUTANTS = " + repr([{"name": why, "target": cell, "old": old, "new": new} for _, _, cell, old, new, why in BY_MODULE[module]]) + "\n")
  result = run(Module(module, REPO / "solutions"), variants, control=False)
  lost = [f"{m['name']}: {m['message']}" for m in result["mutants"] if m["caught"]]
  assert not lost, f"{module}: right variants that lost points:\n" + "\n".join(lost)
