"""A right answer that is not the reference's passes its self-check: the learner's copy ships the reference's values,
and a check whose expected value follows from a choice the contract leaves open fails a right answer in the learner's
own loop while grading, with the oracle live, passes it (tests/modules/test_shipped_expected.py reads the notebooks for
such checks; this runs a few). Each variant is a reference answer changed as a learner may well write it, within the
docstring's contract; beside the wrong variants of tests/mutants/, which must lose points."""
import pytest
import nbformat
from autograder.core.assemble import read_notebook
from autograder.core.cells import grade_id
from autograder.core.results import TestStatus
from autograder.learner.selfcheck import self_check
from finished import finished

pytestmark = pytest.mark.slow

VARIANTS = [  # (module, task, answer cell, old, new, what a learner chose)
  ("10_inference", "Task 1.1", "ans_export_onnx", 'output_names=["logits"], dynamo=False)', 'output_names=["logits"], dynamo=False, do_constant_folding=False)',
   "the exporter without constant folding: BatchNorm stays a node, so every state_dict entry reaches the file (14 kept, the reference's 2)"),
  ("10_inference", "Task 5.3", "ans_q4_0", "    for _ in range(2):", "    for _ in range(1):",
   "a Q4_0 quantizer with one least-squares pass, not two: other bytes, an error within Task 5.1's 1% (choose_format reads it)"),
]

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
