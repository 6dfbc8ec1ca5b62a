"""scripts/dependency_audit.py finds a hidden test that needs another task where its visible twin does not.
On the toy course."""
import pytest
import sys
from autograder.core.course import REPO
from autograder.core.module import Module
from toy_course import answer, write_toy_course

@pytest.mark.slow                 # over 4 s: the fast tier stays under 2 minutes (make test runs it)
def test_dependency_audit_finds_a_hidden_test_that_needs_another_task(tmp_path):
  """scripts/dependency_audit.py: a hidden check of Task 1.2 that calls Task 1.1's double, where the visible check
  does not, is found by stubbing double."""
  sys.path.insert(0, str(REPO / "scripts"))
  from dependency_audit import audit
  source = write_toy_course(tmp_path, modules=("01_toy",), hints=True)
  answer(source, "test_square", "check_equal(square(3), 9, name='square(3)')\n### BEGIN HIDDEN TESTS\n"
                                "check_equal(square(double(2)), 16, name='square(4)')\n### END HIDDEN TESTS")
  found = audit(Module("01_toy", source), log=lambda *a: None)
  assert len(found) == 1 and found[0].startswith("test_square (Task 1.2) fails in grading") and "with ans_double (Task 1.1) a stub" in found[0]
