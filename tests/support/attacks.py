"""Helpers for the attack tests on real modules: a released starter with a hostile answer cell."""
import shutil, textwrap
import nbformat, pytest
from autograder.core.cells import grade_id
from autograder.core.course import REPO
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
