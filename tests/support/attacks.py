"""Helpers for the attack tests on real modules: a released starter with a hostile answer cell, and a module cut down
to the tests an attack targets."""
import ast, shutil, textwrap
import nbformat, pytest
from autograder.core.cells import grade_id, is_test
from autograder.core.course import REPO
from autograder.core.module import Module
from autograder.core.names import binds, exposed
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

def _kept(cells, keep:set[str]) -> list:
  """`cells` less the test cells outside `keep` that no cell kept after them reads a name from (test cells define
  helpers later tests use: module 10's Q8, 03's tg_gradient); a test cell that does not parse stays."""
  out, need = [], set()
  for c in reversed(cells):
    try: body = ast.parse(c.source).body if c.cell_type == "code" else []
    except SyntaxError: body = None
    if is_test(c) and grade_id(c) not in keep and body is not None and not set().union(*(binds(b) for b in body)) & need: continue
    out.append(c)
    need |= exposed(body or [])
  return out[::-1]

def trimmed(tmp_path, module:str, keep:set[str]) -> Module:
  """The solution of `module` without the test cells an attack does not target (`keep`: those it does; set-up and
  answer cells, and the tests that define what a kept cell reads, all stay): a grading that runs little more than the
  attacked tests. Its reference run must be clean, every kept test run without an error, so that a kept test broken by
  the cut fails here instead of letting an attack earn nothing by erroring."""
  root = tmp_path / "trimmed"
  shutil.copytree(SOLUTIONS / module, root / module)
  path = root / module / f"{module}.ipynb"
  nb = nbformat.read(str(path), as_version=4)
  nb.cells = _kept(nb.cells, keep)
  nbformat.write(nb, str(path))
  out = Module(module, root)
  ref = reference(out)
  assert ref.clean and set(keep) <= set(ref.tests), (ref.status, ref.message, {k: (t.state, t.error) for k, t in ref.tests.items()})
  return out
