"""What the grader does to the trusted cells before a kernel runs them.

Every call of a check gets a site id (`cell:line:col`) so that the observations of two runs can be paired; each test
cell starts by telling the recorder which cell it is and marks where its hidden part begins and ends. For the
learner's run the oracle is cut out: each `with oracle():` block becomes `pass` and each check's expected argument
becomes `None`, so that no expected value is ever computed in the learner's process. authoring.lint tells authors where a
test would still need the oracle in that run.
"""
from __future__ import annotations
import ast, builtins
from autograder.core.cells import BEGIN_HIDDEN, END_HIDDEN, grade_id, is_answer, is_test
from autograder.core.names import binds, exposed, imported, unbinds
from autograder.core.settings import cell_setting
from autograder.notebook.checks import CHECKS, EXPECTED_ARG, RECORDER, SECOND_EXPECTED_ARG

def python_source(source:str) -> str:
  """A cell's source with IPython syntax (magics, `!` commands) turned into plain Python, line for line."""
  from IPython.core.inputtransformer2 import TransformerManager
  return TransformerManager().transform_cell(source)

def hidden_lines(source:str) -> set[int]:
  """1-based numbers of the lines inside hidden-test regions."""
  out, on = set(), False
  for n, line in enumerate(source.splitlines(), 1):
    if BEGIN_HIDDEN in line: on = True
    elif END_HIDDEN in line: on = False
    elif on: out.add(n)
  return out

def is_oracle_block(node:ast.AST) -> bool:
  return isinstance(node, ast.With) and any(isinstance(i.context_expr, ast.Call) and isinstance(i.context_expr.func, ast.Name)
                                            and i.context_expr.func.id == "oracle" for i in node.items)

def check_name(node:ast.Call) -> str|None:
  return node.func.id if isinstance(node.func, ast.Name) and node.func.id in CHECKS else None

def expected_slots(name:str) -> list[tuple[int, str]]:
  return [s for s in (EXPECTED_ARG.get(name), SECOND_EXPECTED_ARG.get(name)) if s]

class Sites(ast.NodeTransformer):
  def __init__(self, cell_id:str, learner:bool): self.cell_id, self.learner = cell_id, learner

  def visit_With(self, node:ast.With):
    if self.learner and is_oracle_block(node): return ast.copy_location(ast.Pass(), node)
    return self.generic_visit(node)

  def visit_Call(self, node:ast.Call):
    self.generic_visit(node)
    if (name := check_name(node)) is None: return node
    if self.learner:
      none = lambda: ast.Constant(None)
      for pos, kw in expected_slots(name):
        if len(node.args) > pos: node.args[pos] = none()
        for k in node.keywords:
          if k.arg == kw: k.value = none()
    node.keywords = [k for k in node.keywords if k.arg != "_site"] + [ast.keyword("_site", ast.Constant(f"{self.cell_id}:{node.lineno}:{node.col_offset}"))]
    return node

def sites(source:str, cell_id:str) -> set[str]:
  """The site ids the transform gives the checks of a trusted cell: the only sites its records may name."""
  out = set()
  class Collect(Sites):
    def visit_Call(self, node):
      node = super().visit_Call(node)
      if check_name(node): out.add(next(k.value.value for k in node.keywords if k.arg == "_site"))
      return node
  try: Collect(cell_id, learner=True).visit(ast.parse(python_source(source)))
  except SyntaxError: pass
  return out

def notebook_sites(nb) -> set[str]:
  """Every site the transform gives the checks of the notebook's trusted cells (test cells, and set-up cells whose
  helpers a test calls), with the cell ids `prepare` uses."""
  cells = [c for c in nb.cells if not cell_setting(c, "skip_grading") or is_answer(c) or is_test(c)]
  return set().union(*(sites(c.source, grade_id(c) or f"cell{i}") for i, c in enumerate(cells) if c.cell_type == "code" and not is_answer(c)))

def _recorder_call(fn:str, arg) -> ast.stmt:
  return ast.parse(f"{RECORDER}.{fn}({arg!r})").body[0]

BUILTIN_NAMES = frozenset(dir(builtins))

def _changed(node:ast.AST, modules:set[str]) -> set[str]:
  """Names a statement may bind or change: assigned, defined, imported, and (since a call may mutate what it is given)
  objects whose methods it calls, that it passes to a call, or whose items or attributes it sets; modules aside, and
  builtins given to a call (`x.astype(float)` changes no `float`; assigning one still binds it)."""
  out, given = binds(node) | unbinds(node), set()
  for n in ast.walk(node):
    if isinstance(n, ast.Call) and not check_name(n):           # (a check changes nothing it is given)
      if isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name): given.add(n.func.value.id)
      given |= {a.id for a in list(n.args) + [k.value for k in n.keywords] if isinstance(a, ast.Name)}
    elif isinstance(n, (ast.Subscript, ast.Attribute)) and isinstance(n.ctx, (ast.Store, ast.Del)):
      root = n
      while isinstance(root, (ast.Subscript, ast.Attribute)): root = root.value
      if isinstance(root, ast.Name): out.add(root.id)
  return (out | (given - BUILTIN_NAMES)) - modules

def hidden_statements(tree:ast.Module, hidden:set[int], tainted:set[str], fixed:set[str]=frozenset()) -> list[bool]:
  """For each top-level statement of a cell: whether what it observes is hidden. A statement is hidden when it stands
  in a hidden-test region, or when it reads a name that hidden code set or changed (directly or through other names,
  in this cell or an earlier one): a check after the region that looks at what the region computed (module 07's
  battery reads the results of the hidden ops) observes hidden data, wherever its line stands. `tainted` (the names
  that carry hidden data) is updated in place; a visible statement that rebinds a name without reading hidden data
  clears it. Checks reached at run time from hidden code are hidden too (the recorder's flag is on while it runs).
  `fixed`: names that hidden code cannot change for this purpose (imported modules and classes, the notebook's own
  functions)."""
  modules = imported(tree) | set(fixed)
  out = []
  for stmt in tree.body:
    inside = stmt.lineno in hidden
    needs = exposed([stmt])
    observes = bool(needs & tainted)
    if inside or observes: tainted |= _changed(stmt, modules)
    else: tainted -= (binds(stmt) | unbinds(stmt)) - needs
    out.append(inside or observes)
  return out

def fixed_names(sources:list[str]) -> set[str]:
  """Names the trusted cells import, or bind to functions and classes at their top level outside hidden regions."""
  out = set()
  for source in sources:
    try: tree = ast.parse(python_source(source))
    except SyntaxError: continue
    out |= fixed_in(tree, hidden_lines(source))
  return out

def fixed_in(tree:ast.Module, hidden:set[int]) -> set[str]:
  """The names of `fixed_names` one parsed cell gives, `hidden` its hidden lines."""
  return imported(tree) | {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.lineno not in hidden}

def transform(source:str, cell_id:str, learner:bool, test:bool, tainted:set[str]|None=None, fixed:set[str]=frozenset()) -> str:
  """The cell as the grader runs it: sites on every check, the oracle cut out when `learner`, and for a test cell
  (`test`) the recorder told where the cell begins and which of its statements observe hidden data (see
  hidden_statements; `tainted` carries the names that hold hidden data from cell to cell)."""
  hidden = hidden_lines(source)
  tree = Sites(cell_id, learner).visit(ast.parse(python_source(source)))
  flow = hidden_statements(tree, hidden, tainted if tainted is not None else set(), fixed)
  if test:
    body, inside = [], False
    for stmt, now in zip(tree.body, flow):
      if now != inside: body.append(_recorder_call("hidden", now)); inside = now
      body.append(stmt)
    head = ast.parse(f"import autograder.notebook.checks as {RECORDER}\n{RECORDER}.begin({cell_id!r})").body
    tree.body = head + body
  return ast.unparse(ast.fix_missing_locations(tree))

def hidden_text(nb) -> set[str]:
  """Every line the learner's kernel receives that comes from a hidden-test region, as written and as transformed,
  stripped: a message quoting one of them is withheld."""
  out = set()
  for i, cell in enumerate(nb.cells):
    if cell.cell_type != "code" or not is_test(cell) or not (hidden := hidden_lines(cell.source)): continue
    lines, cid = cell.source.splitlines(), grade_id(cell) or f"cell{i}"
    out |= {lines[n - 1].strip() for n in hidden if lines[n - 1].strip()}
    visible = "\n".join("" if n in hidden else line for n, line in enumerate(lines, 1))
    full = {l.strip() for l in transform(cell.source, cid, True, True).splitlines()}
    try: shown = {l.strip() for l in transform(visible, cid, True, True).splitlines()}
    except SyntaxError: shown = set()
    out |= full - shown
  return out

def visible_strings(nb) -> set[str]:
  """Every string constant the visible code of the notebook's trusted cells spells out (hidden-test regions left
  out): the names a check can be given without the hidden part having chosen them. A hidden check whose name is none
  of these (nor a name a visible check recorded) has its name withheld (verdict.label): `f"batch_size={b}"` in a
  hidden region names a hidden input."""
  out = set()
  for cell in nb.cells:
    if cell.cell_type != "code" or is_answer(cell): continue
    hidden = hidden_lines(cell.source)
    visible = "\n".join("" if n in hidden else line for n, line in enumerate(cell.source.splitlines(), 1))
    try: tree = ast.parse(python_source(visible))
    except SyntaxError: continue
    out |= {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
  return out

def prepare(nb, learner:bool):
  """A copy of the assembled notebook as a kernel will run it: every trusted code cell transformed (answer cells are
  the learner's and stay as they are), after a first cell that puts the checks in 'learner' or 'reference' mode.
  Cells marked `autograder.skip_grading` (a demo that only teaches, a chart) are left out of both runs."""
  import copy
  from nbformat.v4 import new_code_cell
  out = copy.deepcopy(nb)
  out.cells = [c for c in out.cells if not cell_setting(c, "skip_grading") or is_answer(c) or is_test(c)]
  tainted, fixed = set(), fixed_names([c.source for c in out.cells if c.cell_type == "code" and not is_answer(c)])
  for i, cell in enumerate(out.cells):
    if cell.cell_type == "code" and not is_answer(cell):
      cell.source = transform(cell.source, grade_id(cell) or f"cell{i}", learner, is_test(cell), tainted, fixed)
  mode = "learner" if learner else "reference"
  out.cells.insert(0, new_code_cell(f"import autograder.notebook.checks as {RECORDER}\n{RECORDER}.configure({mode!r})"))
  return out
