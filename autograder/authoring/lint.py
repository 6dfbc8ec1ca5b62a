"""`autograder lint`: what an author would regret in a module's source notebook, found without running it.
* the oracle: a name computed only inside `with oracle():` and used outside it (grading cuts the block from the
  learner's run), a value computed outside the oracle that only an expected argument uses, a check the grader cannot
  read (called with *args, or passed around), an oracle block that draws from the inputs' random generator;
* hidden regions that start or end inside a statement;
* a test that reads a name only an earlier test binds (it fails whenever that test stops early);
* `metadata.autograder` keys that are unknown or of the wrong type (core.settings);
and, as notes, the visible checks that observe what a hidden region computed (graded as hidden)."""
from __future__ import annotations
import ast, re
from pathlib import Path
from autograder.core.cells import BEGIN_HIDDEN, END_HIDDEN, grade_id, is_answer, is_test
from autograder.core.names import binds, everywhere, exposed
from autograder.core.settings import module_settings, problems as settings_problems
from autograder.core.transform import Sites, check_name, fixed_names, hidden_lines, hidden_statements, is_oracle_block, python_source
from autograder.notebook.checks import CHECKS

def code_cells(nb) -> list[tuple[str, str, bool]]:
  """The trusted code cells of a source notebook as lint reads them: (cell id, source, is a test)."""
  return [(grade_id(c) or f"cell {i + 1}", c.source, is_test(c)) for i, c in enumerate(nb.cells) if c.cell_type == "code" and not is_answer(c)]

def lint_notebook(nb) -> tuple[list[str], list[str]]:
  """(problems, notes) of a source notebook: its cells' problems (see `lint`), the visible names only its oracle
  needs, and its settings'; the notes of `observes_hidden`."""
  cells = code_cells(nb)
  answers = [c.source for c in nb.cells if c.cell_type == "code" and is_answer(c)]
  learner_files = module_settings(nb)["learner_files"]
  return settings_problems(nb) + lint(cells, answers) + oracle_helpers(cells, answers) + borrowed_names(cells, answers, learner_files), observes_hidden(cells)

BORROWS = re.compile(r"^# borrows: ([\w, ]+)", re.M)   # a test that shares an earlier one's expensive run says so, with its reason

def borrowed_names(cells:list[tuple[str, str, bool]], answers:list[str]=(), learner_files:list[str]=()) -> list[str]:
  """Names a test cell reads (outside `with oracle():`) that only an earlier test cell binds after something that can
  stop it (a check, or a call that reaches the learner's code). When that test stops early, the name is never bound:
  the later test then fails with a NameError whatever its own task's answer (a learner loses points twice for one
  bug, and a mutation session counts a wrong variant as caught by the NameError). Bind such a name in a set-up cell,
  in the test that reads it, or before the first call that can stop its test. A test that shares an earlier test's
  expensive run on purpose says so in a comment line, `# borrows: name, name (why)`."""
  trees = []
  for cell_id, source, test in cells:
    try: trees.append((cell_id, Sites(cell_id, learner=True).visit(ast.parse(python_source(source))), test))
    except SyntaxError: continue
  answer_names = set()
  for source in answers:
    try: answer_names |= set().union(*(binds(s) for s in ast.parse(python_source(source)).body))
    except (SyntaxError, TypeError): pass
  stoppers = _stoppers([t for _, t, _ in trees], answer_names, {Path(f).stem for f in learner_files})
  shared, problems, by_tests = set(answer_names), [], {}
  for _, tree, test in trees:
    if not test: shared |= set().union(*(binds(s) for s in tree.body)) if tree.body else set()
    else:                                                  # bound before anything that can stop the cell: always bound
      for stmt in tree.body:
        if _calls(stmt, stoppers): break
        shared |= binds(stmt)
  sources = dict((cell_id, source) for cell_id, source, _ in cells)
  for cell_id, tree, test in trees:
    if not test: continue
    declared = {n for m in BORROWS.finditer(sources[cell_id]) for n in re.findall(r"\w+", m.group(1))}
    for name in sorted(exposed(tree.body) & set(by_tests) - shared - declared - {"*"}):
      problems.append(f"{cell_id}: reads `{name}`, which only the test {by_tests[name]} binds: when that test stops early, this one fails with a NameError whatever the answer; bind `{name}` in a set-up cell or in this test")
    for name in set().union(*(binds(s) for s in tree.body)) if tree.body else set(): by_tests.setdefault(name, cell_id)
  return problems

def _stoppers(trees:list[ast.Module], answer_names:set[str], learner_modules:set[str]) -> set[str]:
  """The names whose call can stop a test: the checks, the answers' names, the learner's files (as modules) and what
  is imported from them, and every function of a trusted cell that calls one of these (transitively)."""
  stop = set(CHECKS) | {"fail", "skip"} | answer_names | learner_modules
  defs = {}
  for tree in trees:
    for n in ast.walk(tree):
      if isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] in learner_modules: stop |= {a.asname or a.name for a in n.names}
      if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)): defs.setdefault(n.name, []).append(n)
  grew = True
  while grew:
    grew = False
    for name, nodes in defs.items():
      if name not in stop and any(_calls(s, stop) for n in nodes for s in n.body): stop.add(name); grew = True
  return stop

def oracle_helpers(cells:list[tuple[str, str, bool]], answers:list[str]=()) -> list[str]:
  """Names a trusted cell defines or imports outside `with oracle():` that only oracle code reads (inside oracle blocks
  or in expected arguments): a twin of an answer, a reference helper, an import only the oracle uses. Release cuts
  the oracle out of the learner's copy, and such a name would stay behind in plain sight: define it inside the block."""
  learner = []
  for cell_id, source, _ in cells:
    try: learner.append((cell_id, Sites(cell_id, learner=True).visit(ast.parse(python_source(source)))))
    except SyntaxError: continue
  full = set()
  for _, source, _ in cells:
    try: full |= {n.id for n in ast.walk(ast.parse(python_source(source))) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    except SyntaxError: pass
  used = {n.id for _, t in learner for n in ast.walk(t) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
  for source in answers:
    try: used |= {n.id for n in ast.walk(ast.parse(python_source(source))) if isinstance(n, ast.Name)}
    except SyntaxError: pass
  problems = []
  for cell_id, tree in learner:
    defined = set().union(*(binds(s) for s in tree.body if not isinstance(s, ast.Assign))) if tree.body else set()
    for name in sorted((defined & full) - used - {"*"}):
      problems.append(f"{cell_id}: `{name}` is only needed by the oracle (inside `with oracle():` or in an expected argument): define it inside `with oracle():`, or the learner's copy shows it")
  return problems

def lint(cells:list[tuple[str, str, bool]], answers:list[str]=()) -> list[str]:
  """Problems that would break a test in the learner's run, for cells given as (cell_id, source, is_test):
  a name computed only inside `with oracle():` and used outside it (other than in a check's expected argument), a
  check called with *args/**kwargs or used as a value, and a hidden region that starts or ends inside a statement.
  `answers`: the answer cells' sources (a name they read is not the oracle's alone)."""
  problems, trees = [], []
  for cell_id, source, _ in cells:
    try: trees.append((cell_id, ast.parse(python_source(source)), source))
    except SyntaxError as e: problems.append(f"{cell_id}: does not parse ({e.msg}, line {e.lineno})"); continue
  oracle_blocks = [n for _, t, _ in trees for n in ast.walk(t) if is_oracle_block(n)]
  inside = everywhere([s for b in oracle_blocks for s in b.body])
  outside = set()
  for _, tree, _ in trees:
    stripped = Sites("x", learner=True).visit(ast.parse(ast.unparse(tree)))
    outside |= everywhere([stripped])
  oracle_only = inside - outside
  loaded = lambda t: {n.id for n in ast.walk(t) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
  assigned = lambda t: {n.id for n in ast.walk(t) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
  learner_trees = [Sites(c, learner=True).visit(ast.parse(ast.unparse(t))) for c, t, _ in trees]
  expected_only = set().union(*(loaded(t) for _, t, _ in trees)) - set().union(*(loaded(t) for t in learner_trees))
  for source in answers:
    try: expected_only -= loaded(ast.parse(python_source(source)))
    except SyntaxError: pass
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
    stripped = Sites(cell_id, learner=True).visit(ast.parse(ast.unparse(tree)))
    for n in ast.walk(stripped):
      if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in oracle_only:
        problems.append(f"{cell_id}: `{n.id}` is computed inside `with oracle():` but used outside it (not only in a check's expected argument)")
    for n in ast.walk(tree):
      if isinstance(n, ast.Call) and check_name(n) and (any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords)):
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

def _root(node:ast.AST) -> str|None:
  """The name a called expression starts from (`a` for `a.b.c`), or None for anything else (a call's result...)."""
  while isinstance(node, ast.Attribute): node = node.value
  return node.id if isinstance(node, ast.Name) else None

def _calls(node:ast.AST, stoppers:set[str]) -> bool:
  """Whether running `node` may call one of `stoppers` (a call of something else than a name is assumed to; a function's
  or lambda's body runs later, not where it is defined)."""
  if isinstance(node, ast.Call) and _root(node.func) in stoppers | {None}: return True
  if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
    return any(_calls(x, stoppers) for x in [*node.decorator_list, *node.args.defaults, *[d for d in node.args.kw_defaults if d]])
  if isinstance(node, ast.Lambda): return any(_calls(x, stoppers) for x in node.args.defaults)
  return any(_calls(child, stoppers) for child in ast.iter_child_nodes(node))

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
          if isinstance(n, ast.Call) and check_name(n): out.append(f"{cell_id}, line {n.lineno}: {n.func.id} observes data of the hidden tests")
  return out
