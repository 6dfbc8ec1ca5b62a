"""What the grader does to the trusted cells before a kernel runs them.

Every call of a check gets a site id (`cell:line:col`) so that the observations of two runs can be paired; each test
cell starts by telling the recorder which cell it is and marks where its hidden part begins and ends. For the
learner's run the oracle is cut out: each `with oracle():` block becomes `pass` and each check's expected argument
becomes `None`, so that no expected value is ever computed in the learner's process. `lint` tells authors where a
test would still need the oracle in that run.
"""
from __future__ import annotations
import ast
from autograder.cells import BEGIN_HIDDEN, END_HIDDEN
from autograder.checks import CHECKS, EXPECTED_ARG, SECOND_EXPECTED_ARG

RECORDER = "__autograder_checks"

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

def _is_oracle_block(node:ast.AST) -> bool:
  return isinstance(node, ast.With) and any(isinstance(i.context_expr, ast.Call) and isinstance(i.context_expr.func, ast.Name)
                                            and i.context_expr.func.id == "oracle" for i in node.items)

def _check_name(node:ast.Call) -> str|None:
  return node.func.id if isinstance(node.func, ast.Name) and node.func.id in CHECKS else None

def _expected_slots(name:str) -> list[tuple[int, str]]:
  return [s for s in (EXPECTED_ARG.get(name), SECOND_EXPECTED_ARG.get(name)) if s]

class _Sites(ast.NodeTransformer):
  def __init__(self, cell_id:str, learner:bool): self.cell_id, self.learner = cell_id, learner

  def visit_With(self, node:ast.With):
    if self.learner and _is_oracle_block(node): return ast.copy_location(ast.Pass(), node)
    return self.generic_visit(node)

  def visit_Call(self, node:ast.Call):
    self.generic_visit(node)
    if (name := _check_name(node)) is None: return node
    if self.learner:
      none = lambda: ast.Constant(None)
      for pos, kw in _expected_slots(name):
        if len(node.args) > pos: node.args[pos] = none()
        for k in node.keywords:
          if k.arg == kw: k.value = none()
    node.keywords = [k for k in node.keywords if k.arg != "_site"] + [ast.keyword("_site", ast.Constant(f"{self.cell_id}:{node.lineno}:{node.col_offset}"))]
    return node

def sites(source:str, cell_id:str) -> set[str]:
  """The site ids the transform gives the checks of a trusted cell: the only sites its records may name."""
  out = set()
  class Collect(_Sites):
    def visit_Call(self, node):
      node = super().visit_Call(node)
      if _check_name(node): out.add(next(k.value.value for k in node.keywords if k.arg == "_site"))
      return node
  try: Collect(cell_id, learner=True).visit(ast.parse(python_source(source)))
  except SyntaxError: pass
  return out

def notebook_sites(nb) -> set[str]:
  """Every site the transform gives the checks of the notebook's trusted cells (test cells, and set-up cells whose
  helpers a test calls), with the cell ids `prepare` uses."""
  from autograder.cells import grade_id, is_answer, is_test
  cells = [c for c in nb.cells if not c.get("metadata", {}).get("autograder", {}).get("skip_grading") or is_answer(c) or is_test(c)]
  return set().union(*(sites(c.source, grade_id(c) or f"cell{i}") for i, c in enumerate(cells) if c.cell_type == "code" and not is_answer(c)))

def _recorder_call(fn:str, arg) -> ast.stmt:
  return ast.parse(f"{RECORDER}.{fn}({arg!r})").body[0]

def _loaded(node:ast.AST) -> set[str]:
  return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}

def _free_loads(stmt:ast.stmt) -> set[str]:
  """Names a statement reads from outside itself: not the parameters of its lambdas and functions, their locals, the
  targets of its comprehensions, or a loop's own variable (all bound afresh before they are read)."""
  bound = set()
  for n in ast.walk(stmt):
    if isinstance(n, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef)):
      a = n.args
      bound |= {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs + [v for v in (a.vararg, a.kwarg) if v]}
      if not isinstance(n, ast.Lambda): bound |= _stored_names(n.body)
    elif isinstance(n, ast.comprehension): bound |= _stored_names([n.target])
  if isinstance(stmt, (ast.For, ast.AsyncFor)): bound |= _stored_names([stmt.target]) - _loaded(stmt.iter)
  return _loaded(stmt) - bound

def _changed(node:ast.AST, modules:set[str]) -> set[str]:
  """Names a statement may bind or change: assigned, defined, imported, and (since a call may mutate what it is given)
  objects whose methods it calls, that it passes to a call, or whose items or attributes it sets; modules aside."""
  out = _stored_names([node])
  for n in ast.walk(node):
    if isinstance(n, ast.Call) and not _check_name(n):           # (a check changes nothing it is given)
      if isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name): out.add(n.func.value.id)
      out |= {a.id for a in list(n.args) + [k.value for k in n.keywords] if isinstance(a, ast.Name)}
    elif isinstance(n, (ast.Subscript, ast.Attribute)) and isinstance(n.ctx, (ast.Store, ast.Del)):
      root = n
      while isinstance(root, (ast.Subscript, ast.Attribute)): root = root.value
      if isinstance(root, ast.Name): out.add(root.id)
  return out - modules

def _imported(tree:ast.AST) -> set[str]:
  return {(a.asname or a.name).split(".")[0] for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}

def hidden_statements(tree:ast.Module, hidden:set[int], tainted:set[str], fixed:set[str]=frozenset()) -> list[bool]:
  """For each top-level statement of a cell: whether what it observes is hidden. A statement is hidden when it stands
  in a hidden-test region, or when it reads a name that hidden code set or changed (directly or through other names,
  in this cell or an earlier one): a check after the region that looks at what the region computed (module 07's
  battery reads the results of the hidden ops) observes hidden data, wherever its line stands. `tainted` (the names
  that carry hidden data) is updated in place; a visible statement that rebinds a name without reading hidden data
  clears it. Checks reached at run time from hidden code are hidden too (the recorder's flag is on while it runs).
  `fixed`: names that hidden code cannot change for this purpose (imported modules and classes, the notebook's own
  functions)."""
  modules = _imported(tree) | set(fixed)
  out = []
  for stmt in tree.body:
    inside = stmt.lineno in hidden
    reads = bool(_free_loads(stmt) & tainted)
    if inside or reads: tainted |= _changed(stmt, modules)
    else: tainted -= _stored_names([stmt]) - _free_loads(stmt)
    out.append(inside or reads)
  return out

def fixed_names(sources:list[str]) -> set[str]:
  """Names the trusted cells import, or bind to functions and classes at their top level outside hidden regions."""
  out = set()
  for source in sources:
    try: tree = ast.parse(python_source(source))
    except SyntaxError: continue
    hidden = hidden_lines(source)
    out |= _imported(tree) | {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.lineno not in hidden}
  return out

def transform(source:str, cell_id:str, learner:bool, test:bool, tainted:set[str]|None=None, fixed:set[str]=frozenset()) -> str:
  """The cell as the grader runs it: sites on every check, the oracle cut out when `learner`, and for a test cell
  (`test`) the recorder told where the cell begins and which of its statements observe hidden data (see
  hidden_statements; `tainted` carries the names that hold hidden data from cell to cell)."""
  hidden = hidden_lines(source)
  tree = _Sites(cell_id, learner).visit(ast.parse(python_source(source)))
  flow = hidden_statements(tree, hidden, tainted if tainted is not None else set(), fixed)
  if test:
    body, inside = [], False
    for stmt, now in zip(tree.body, flow):
      if now != inside: body.append(_recorder_call("hidden", now)); inside = now
      body.append(stmt)
    head = ast.parse(f"import autograder.checks as {RECORDER}\n{RECORDER}.begin({cell_id!r})").body
    tree.body = head + body
  return ast.unparse(ast.fix_missing_locations(tree))

# ---- lint: the author's side ---------------------------------------------------------------------------------------

def _stored_names(nodes:list[ast.AST]) -> set[str]:
  out = set()
  for node in nodes:
    for n in ast.walk(node):
      if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)): out.add(n.id)
      elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)): out.add(n.name)
      elif isinstance(n, (ast.Import, ast.ImportFrom)): out |= {(a.asname or a.name).split(".")[0] for a in n.names}
      elif isinstance(n, ast.arg): out.add(n.arg)
  return out

def lint(cells:list[tuple[str, str, bool]]) -> list[str]:
  """Problems that would break a test in the learner's run, for cells given as (cell_id, source, is_test):
  a name computed only inside `with oracle():` and used outside it (other than in a check's expected argument), a
  check called with *args/**kwargs or used as a value, and a hidden region that starts or ends inside a statement."""
  problems, trees = [], []
  for cell_id, source, _ in cells:
    try: trees.append((cell_id, ast.parse(python_source(source)), source))
    except SyntaxError as e: problems.append(f"{cell_id}: does not parse ({e.msg}, line {e.lineno})"); continue
  oracle_blocks = [n for _, t, _ in trees for n in ast.walk(t) if _is_oracle_block(n)]
  inside = _stored_names([s for b in oracle_blocks for s in b.body])
  outside = set()
  for _, tree, _ in trees:
    stripped = _Sites("x", learner=True).visit(ast.parse(ast.unparse(tree)))
    outside |= _stored_names([stripped])
  oracle_only = inside - outside
  loaded = lambda t: {n.id for n in ast.walk(t) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
  assigned = lambda t: {n.id for n in ast.walk(t) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
  learner_trees = [_Sites(c, learner=True).visit(ast.parse(ast.unparse(t))) for c, t, _ in trees]
  expected_only = set().union(*(loaded(t) for _, t, _ in trees)) - set().union(*(loaded(t) for t in learner_trees))
  for (cell_id, _, _), t in zip(trees, learner_trees):
    for name in sorted(expected_only & assigned(t)):
      problems.append(f"{cell_id}: `{name}` is only used as an expected value but computed outside `with oracle():`: move its computation into the oracle block, or the learner's run computes it too")
  rngs = {t.id for _, tree, _ in trees for n in ast.walk(tree) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
          and _dotted_name(n.value.func).endswith(("default_rng", "RandomState", "Random", "Generator")) for t in n.targets if isinstance(t, ast.Name)}
  for block in oracle_blocks:
    for n in ast.walk(block):
      if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) and n.func.value.id in rngs \
         and n.func.value.id not in inside:
        problems.append(f"line {n.lineno}: `{n.func.value.id}.{n.func.attr}(...)` inside `with oracle():` draws from the inputs' generator: the learner's run skips it and then draws other inputs")
  for cell_id, tree, source in trees:
    stripped = _Sites(cell_id, learner=True).visit(ast.parse(ast.unparse(tree)))
    for n in ast.walk(stripped):
      if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in oracle_only:
        problems.append(f"{cell_id}: `{n.id}` is computed inside `with oracle():` but used outside it (not only in a check's expected argument)")
    for n in ast.walk(tree):
      if isinstance(n, ast.Call) and _check_name(n) and (any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords)):
        problems.append(f"{cell_id}, line {n.lineno}: {n.func.id} called with *args or **kwargs: the grader cannot find its expected argument")
      if isinstance(n, ast.Name) and n.id in CHECKS and isinstance(n.ctx, ast.Load) and not _is_called(n, tree):
        problems.append(f"{cell_id}, line {n.lineno}: {n.id} used as a value: call it directly, so the grader can see the call")
    hidden = hidden_lines(source)
    for stmt in tree.body:
      lines = set(range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1))
      code_lines = {l for l in lines if l in hidden} , {l for l in lines if l not in hidden}
      if code_lines[0] and code_lines[1] and _spans_marker(source, stmt):
        problems.append(f"{cell_id}, line {stmt.lineno}: a hidden-test region starts or ends inside this statement; put the markers between top-level statements")
  return sorted(set(problems))

def _dotted_name(node:ast.AST) -> str:
  return ast.unparse(node) if isinstance(node, (ast.Name, ast.Attribute)) else ""

def _is_called(name:ast.Name, tree:ast.AST) -> bool:
  return any(isinstance(n, ast.Call) and n.func is name for n in ast.walk(tree))

def _spans_marker(source:str, stmt:ast.stmt) -> bool:
  lines = source.splitlines()[stmt.lineno - 1:(stmt.end_lineno or stmt.lineno)]
  return any(BEGIN_HIDDEN in l or END_HIDDEN in l for l in lines)

def observes_hidden(cells:list[tuple[str, str, bool]]) -> list[str]:
  """The lint for hidden data seen from visible lines: each check outside a hidden-test region that observes what
  the region computed, for cells given as (cell_id, source, is_test) in notebook order. The grader treats these checks
  as hidden (no expected value in a message; see hidden_statements); an author may rather move them into the region."""
  out, tainted, fixed = [], set(), fixed_names([s for _, s, _ in cells])
  for cell_id, source, _ in cells:
    try: tree = ast.parse(python_source(source))
    except SyntaxError: continue
    hidden = hidden_lines(source)
    for stmt, flows in zip(tree.body, hidden_statements(tree, hidden, tainted, fixed)):
      if flows and stmt.lineno not in hidden:
        for n in ast.walk(stmt):
          if isinstance(n, ast.Call) and _check_name(n): out.append(f"{cell_id}, line {n.lineno}: {n.func.id} observes data of the hidden tests")
  return out

def hidden_text(nb) -> set[str]:
  """Every line the learner's kernel receives that comes from a hidden-test region, as written and as transformed,
  stripped: a message quoting one of them is withheld."""
  from autograder.cells import grade_id, is_test
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

def prepare(nb, learner:bool):
  """A copy of the assembled notebook as a kernel will run it: every trusted code cell transformed (answer cells are
  the learner's and stay as they are), after a first cell that puts the checks in 'learner' or 'reference' mode.
  Cells marked `autograder.skip_grading` (a demo that only teaches, a chart) are left out of both runs."""
  import copy
  from nbformat.v4 import new_code_cell
  from autograder.cells import grade_id, is_answer, is_test
  out = copy.deepcopy(nb)
  out.cells = [c for c in out.cells if not c.get("metadata", {}).get("autograder", {}).get("skip_grading") or is_answer(c) or is_test(c)]
  tainted, fixed = set(), fixed_names([c.source for c in out.cells if c.cell_type == "code" and not is_answer(c)])
  for i, cell in enumerate(out.cells):
    if cell.cell_type == "code" and not is_answer(cell):
      cell.source = transform(cell.source, grade_id(cell) or f"cell{i}", learner, is_test(cell), tainted, fixed)
  mode = "learner" if learner else "reference"
  out.cells.insert(0, new_code_cell(f"import autograder.checks as {RECORDER}\n{RECORDER}.configure({mode!r})"))
  return out
