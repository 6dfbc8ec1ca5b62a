"""The grader's package as a house you can see: a subpackage per role, each with its contract; imports one way down
(no cycle, in-function imports counted; no role reaching up or sideways); imports inside functions only in the
commands modules, where they keep `autograder check` from loading what it does not run; and a reference-run cache key
that covers every file of the package."""
import ast, shutil
from pathlib import Path
import pytest
import autograder
from autograder.core import runs
from autograder.core.module import Module

PACKAGE = Path(autograder.__file__).parent
# A role may import from the roles below it, never from one above or beside it.
LAYER = {"notebook": 0, "core": 1, "learner": 2, "grading": 2, "classroom": 3, "authoring": 3, "cli": 4, "shard": 4, "__init__": 1}   # the package re-exports the check vocabulary

def modules() -> dict[str, Path]:
  out = {}
  for path in sorted(PACKAGE.rglob("*.py")):
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1: parts = parts[:-1]
    out[".".join(parts)] = path
  return out

def imports() -> list[tuple[str, str, int, bool]]:
  """(importer, imported module of the package, line, inside a function) for every import of the package's own code."""
  mods, out = modules(), []
  for name, path in mods.items():
    tree = ast.parse(path.read_text())
    def visit(node, in_function):
      for child in ast.iter_child_nodes(node):
        inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        if isinstance(child, (ast.Import, ast.ImportFrom)):
          names = [a.name for a in child.names] if isinstance(child, ast.Import) else \
                  [child.module] + [f"{child.module}.{a.name}" for a in child.names] if child.module else []
          for target in {n for n in names if n in mods and n != name}: out.append((name, target, child.lineno, in_function))
        visit(child, inner)
    visit(tree, False)
  return out

def role(module:str) -> str:
  parts = module.split(".")
  return "__init__" if len(parts) == 1 else parts[1]

def test_no_import_cycle_in_function_imports_included():
  graph = {}
  for a, b, _, _ in imports(): graph.setdefault(a, set()).add(b)
  state, cycle = {}, []
  def visit(v, path):
    state[v] = "open"
    for w in sorted(graph.get(v, ())):
      if state.get(w) == "open": cycle.append(path[path.index(w):] + [w]); continue
      if w not in state: visit(w, path + [w])
    state[v] = "done"
  for v in sorted(graph):
    if v not in state: visit(v, [v])
  assert not cycle, "import cycles: " + "; ".join(" -> ".join(c) for c in cycle)

def test_imports_go_one_way_down():
  wrong = [f"{a} (line {line}) imports {b}" for a, b, line, _ in imports() if a != "autograder.shard" and role(a) != role(b) and LAYER[role(b)] >= LAYER[role(a)]]
  assert not wrong, "a role reaches up or beside itself:\n" + "\n".join(wrong)

def test_imports_inside_functions_only_where_they_save_start_up_time():
  """The commands modules import each command's code when it runs (`autograder check` must not load nbgrader or
  copydetect); everywhere else an import of the package's own code stands at the top, where a reader sees it."""
  inside = [f"{a}, line {line}: {b}" for a, b, line, fn in imports() if fn and not a.endswith(".commands")]
  assert not inside, "imports inside functions:\n" + "\n".join(inside)

def test_every_role_states_its_contract():
  for sub in sorted(p for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").is_file()):
    doc = ast.get_docstring(ast.parse((sub / "__init__.py").read_text()))
    assert doc and len(doc) > 100, f"autograder/{sub.name}/__init__.py needs a paragraph on what the role does"
  for name, path in modules().items():
    assert ast.get_docstring(ast.parse(path.read_text())), f"{name} has no docstring saying what it holds"

def test_the_reference_cache_key_covers_every_file_of_the_package(tmp_path, monkeypatch):
  """A reference run depends on the whole grader: a change to any file of the package, in any subfolder, and to its
  data files, gives another key (so a move into subfolders can never keep stale reference runs)."""
  copy = tmp_path / "autograder"
  shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
  monkeypatch.setattr(runs, "PACKAGE", copy)
  module = autograder.core.course.REPO / "solutions" / "01_tensor_basics"
  keys = {runs.module_key(Module(module.name, module.parent))}
  for changed in ("core/names.py", "notebook/checks.py", "authoring/learner_repo/Makefile", "cli.py"):
    with open(copy / changed, "a") as f: f.write("\n# changed\n")
    keys.add(runs.module_key(Module(module.name, module.parent)))
  (copy / "core" / "new_file.py").write_text('"""new"""\n')
  keys.add(runs.module_key(Module(module.name, module.parent)))
  assert len(keys) == 6

def test_the_reference_cache_key_covers_every_library_a_verdict_hangs_on(monkeypatch):
  """Module 10 grades against onnxruntime and gguf, 12 against transformers: a new version of any of them can move a
  reference figure, so it must give another key (the mutation ledger uses the same hash)."""
  module = autograder.core.course.REPO / "solutions" / "12_llm_inference"
  real = runs.importlib.metadata.version
  keys = {runs.module_key(Module(module.name, module.parent))}
  for pkg in runs.LIBRARIES:
    monkeypatch.setattr(runs.importlib.metadata, "version", lambda name, pkg=pkg: real(name) + ("+new" if name == pkg else ""))
    keys.add(runs.module_key(Module(module.name, module.parent)))
  assert len(keys) == 1 + len(runs.LIBRARIES)
