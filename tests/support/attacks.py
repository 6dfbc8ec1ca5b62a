"""Helpers for the attack tests on real modules: a released starter with a hostile answer cell, and a module cut down
to the tests an attack targets."""
import shutil, textwrap
import nbformat, pytest
from autograder.core.cells import grade_id, is_test
from autograder.core.course import REPO
from autograder.core.module import Module
from autograder.core.runs import reference
from autograder.core.sandbox import available

SOLUTIONS, PROJECTS = REPO / "solutions", REPO / "projects"
needs_sandbox = pytest.mark.skipif(not available()[0], reason=f"no sandbox here: {available()[1]}")

def submit(tmp_path, attack:str, answer="ans_make_tensors", module="01_tensor_basics"):
  """The released starter of `module` with `attack` as the source of one answer cell."""
  root = tmp_path / "submission"
  shutil.copytree(PROJECTS / module, root / module)
  path = root / module / f"{module}.ipynb"
  nb = nbformat.read(str(path), as_version=4)
  for c in nb.cells:
    if grade_id(c) == answer: c.source = textwrap.dedent(attack)
  nbformat.write(nb, str(path))
  return root

def rules(result:dict) -> set[str]: return {f["rule"] for f in result["flags"]}

def trimmed(tmp_path, module:str, keep:set[str]) -> Module:
  """The solution of `module` with every cell but the test cells outside `keep`: a grading that runs only the tests an
  attack targets (set-up and answer cells all stay). Its reference run must be clean, every kept test passed, so that
  a kept test that needed a dropped one fails here instead of letting an attack earn nothing by erroring."""
  root = tmp_path / "trimmed"
  shutil.copytree(SOLUTIONS / module, root / module)
  path = root / module / f"{module}.ipynb"
  nb = nbformat.read(str(path), as_version=4)
  nb.cells = [c for c in nb.cells if not is_test(c) or grade_id(c) in keep]
  nbformat.write(nb, str(path))
  out = Module(module, root)
  ref = reference(out)
  assert ref.clean and set(ref.tests) == set(keep), (ref.status, ref.message, {k: (t.state, t.error) for k, t in ref.tests.items()})
  return out
