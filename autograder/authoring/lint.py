"""`autograder lint`: what an author would regret in a module's source notebook, found without running it.
* the oracle: a name computed only inside `with oracle():` and used outside it (grading cuts the block from the
  learner's run), a value computed outside the oracle that only an expected argument uses, a check the grader cannot
  read (called with *args, or passed around), an oracle block that draws from the inputs' random generator;
* hidden regions that start or end inside a statement;
* a test that reads a name only an earlier test binds (it fails whenever that test stops early);
* `metadata.autograder` keys that are unknown or of the wrong type (core.settings);
and, as notes, the visible checks that observe what a hidden region computed (graded as hidden)."""
from __future__ import annotations
import ast, copy, re
from dataclasses import dataclass
from pathlib import Path
from autograder.core.cells import BEGIN_HIDDEN, END_HIDDEN, grade_id, is_answer, is_test
from autograder.core.names import assigned, binds, everywhere, exposed, reads
from autograder.core.settings import module_settings, problems as settings_problems
from autograder.core.transform import Sites, check_name, fixed_in, hidden_lines, hidden_statements, is_oracle_block, python_source
from autograder.notebook.checks import CHECKS

@dataclass(frozen=True)
class Cell:
  """A code cell as every rule reads it, parsed once: `tree` as written, `learner` as the learner's run gets it (the
  oracle cut out, expected arguments None), the names each uses (reads; `x += 1` does not use x, it only changes it),
  `hidden` its hidden-test lines; no trees when it does not parse (`error` says why)."""
  id: str
  source: str
  test: bool = False
  tree: ast.Module|None = None
  learner: ast.Module|None = None
  uses: frozenset[str] = frozenset()
  learner_uses: frozenset[str] = frozenset()
  hidden: frozenset[int] = frozenset()
  error: str = ""

def parse(cell_id:str, source:str, test:bool=False) -> Cell:
  try: tree = ast.parse(python_source(source))
  except SyntaxError as e: return Cell(cell_id, source, test, error=f"{e.msg}, line {e.lineno}")
  learner = Sites(cell_id, learner=True).visit(copy.deepcopy(tree))
  return Cell(cell_id, source, test, tree, learner, reads(tree, updates=False), reads(learner, updates=False), frozenset(hidden_lines(source)))

def code_cells(nb) -> list[Cell]:
  """The trusted code cells of a source notebook, parsed (a cell without a grade id is `cell N`)."""
  return [parse(grade_id(c) or f"cell {i + 1}", c.source, is_test(c)) for i, c in enumerate(nb.cells) if c.cell_type == "code" and not is_answer(c)]

def lint_notebook(nb) -> tuple[list[str], list[str]]:
  """(problems, notes) of a source notebook: its cells' problems (see `lint`), the visible names only its oracle
  needs, and its settings'; the notes of `observes_hidden`."""
  cells, learner_files = code_cells(nb), module_settings(nb)["learner_files"]
  answers = [a for c in nb.cells if c.cell_type == "code" and is_answer(c) and (a := parse("answer", c.source)).tree]
  return settings_problems(nb) + lint(cells, answers) + oracle_helpers(cells, answers) + borrowed_names(cells, answers, learner_files), observes_hidden(cells)

BORROWS = re.compile(r"^# borrows: ([\w, ]+)", re.M)   # a test that shares an earlier one's expensive run says so, with its reason

def borrowed_names(cells:list[Cell], answers:list[Cell]=(), learner_files:list[str]=()) -> list[str]:
  """Names a test cell reads (outside `with oracle():`) that only an earlier test cell binds after something that can
  stop it (a check, or a call that reaches the learner's code). When that test stops early, the name is never bound:
  the later test then fails with a NameError whatever its own task's answer (a learner loses points twice for one
  bug, and a mutation session counts a wrong variant as caught by the NameError). Bind such a name in a set-up cell,
  in the test that reads it, or before the first call that can stop its test. A test that shares an earlier test's
  expensive run on purpose says so in a comment line, `# borrows: name, name (why)`. `answers`: the answer cells (parsed)."""
  cells = [c for c in cells if c.tree]
  answer_names = set().union(*(binds(a.tree) for a in answers))
  stoppers = _stoppers([c.learner for c in cells], answer_names, {Path(f).stem for f in learner_files})
  shared, problems, by_tests = set(answer_names), [], {}
  for c in cells:
    if not c.test: shared |= binds(c.learner)
    else:                                                  # bound before anything that can stop the cell: always bound
      for stmt in c.learner.body:
        if _calls(stmt, stoppers): break
        shared |= binds(stmt)
  for c in cells:
    if not c.test: continue
    declared = {n for m in BORROWS.finditer(c.source) for n in re.findall(r"\w+", m.group(1))}
    for name in sorted(exposed(c.learner.body) & set(by_tests) - shared - declared - {"*"}):
      problems.append(f"{c.id}: reads `{name}`, which only the test {by_tests[name]} binds: when that test stops early, this one fails with a NameError whatever the answer; bind `{name}` in a set-up cell or in this test")
    for name in binds(c.learner): by_tests.setdefault(name, c.id)
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

def _oracle_uses(cells:list[Cell], answers:list[Cell]) -> set[str]:
  """The names only oracle code uses (inside `with oracle():` or in expected arguments): not the learner's run, not an
  answer."""
  return set().union(*(c.uses for c in cells)) - set().union(*(c.learner_uses for c in cells), *(a.uses for a in answers))

def oracle_helpers(cells:list[Cell], answers:list[Cell]=()) -> list[str]:
  """Names a trusted cell defines or imports outside `with oracle():` that only oracle code reads (inside oracle blocks
  or in expected arguments): a twin of an answer, a reference helper, an import only the oracle uses. Release cuts
  the oracle out of the learner's copy, and such a name would stay behind in plain sight: define it inside the block."""
  cells = [c for c in cells if c.tree]
  oracle = _oracle_uses(cells, answers) - set().union(*(assigned(a.tree) for a in answers))
  problems = []
  for c in cells:
    defined = set().union(*(binds(s) for s in c.learner.body if not isinstance(s, ast.Assign)))
    for name in sorted(defined & oracle - {"*"}):
      problems.append(f"{c.id}: `{name}` is only needed by the oracle (inside `with oracle():` or in an expected argument): define it inside `with oracle():`, or the learner's copy shows it")
  return problems

def lint(cells:list[Cell], answers:list[Cell]=()) -> list[str]:
  """Problems that would break a test in the learner's run: a name computed only inside `with oracle():` and used
  outside it (other than in a check's expected argument), a check called with *args/**kwargs or used as a value, and
  a hidden region that starts or ends inside a statement. `answers`: the answer cells (a name they read is not the
  oracle's alone)."""
  problems = [f"{c.id}: does not parse ({c.error})" for c in cells if c.error]
  cells = [c for c in cells if c.tree]
  oracle_blocks = [n for c in cells for n in ast.walk(c.tree) if is_oracle_block(n)]
  inside = everywhere([s for b in oracle_blocks for s in b.body])
  oracle_only = inside - everywhere([c.learner for c in cells])
  expected_only = _oracle_uses(cells, answers)
  rngs = {t.id for c in cells for n in ast.walk(c.tree) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
          and _dotted_name(n.value.func).endswith(("default_rng", "RandomState", "Random", "Generator")) for t in n.targets if isinstance(t, ast.Name)}
  for block in oracle_blocks:
    for n in ast.walk(block):
      if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) and n.func.value.id in rngs \
         and n.func.value.id not in inside:
        problems.append(f"line {n.lineno}: `{n.func.value.id}.{n.func.attr}(...)` inside `with oracle():` draws from the inputs' generator: the learner's run skips it and then draws other inputs")
  for c in cells:
    for name in c.learner_uses & oracle_only:
      problems.append(f"{c.id}: `{name}` is computed inside `with oracle():` but used outside it (not only in a check's expected argument)")
    for name in expected_only & assigned(c.learner):
      problems.append(f"{c.id}: `{name}` is only used as an expected value but computed outside `with oracle():`: move its computation into the oracle block, or the learner's run computes it too")
    called = {id(n.func) for n in ast.walk(c.tree) if isinstance(n, ast.Call)}
    for n in ast.walk(c.tree):
      if isinstance(n, ast.Call) and check_name(n) and (any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords)):
        problems.append(f"{c.id}, line {n.lineno}: {n.func.id} called with *args or **kwargs: the grader cannot find its expected argument")
      if isinstance(n, ast.Name) and n.id in CHECKS and isinstance(n.ctx, ast.Load) and id(n) not in called:
        problems.append(f"{c.id}, line {n.lineno}: {n.id} used as a value: call it directly, so the grader can see the call")
    for stmt in c.tree.body:
      lines = range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1)
      if any(l in c.hidden for l in lines) and any(l not in c.hidden for l in lines) and _spans_marker(c.source, stmt):
        problems.append(f"{c.id}, line {stmt.lineno}: a hidden-test region starts or ends inside this statement; put the markers between top-level statements")
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

def _spans_marker(source:str, stmt:ast.stmt) -> bool:
  lines = source.splitlines()[stmt.lineno - 1:(stmt.end_lineno or stmt.lineno)]
  return any(BEGIN_HIDDEN in l or END_HIDDEN in l for l in lines)

def observes_hidden(cells:list[Cell]) -> list[str]:
  """The lint for hidden data seen from visible lines: each check outside a hidden-test region that observes what
  the region computed, for the cells in notebook order. The grader treats these checks as hidden (no expected value
  in a message; see hidden_statements); an author may rather move them into the region."""
  cells = [c for c in cells if c.tree]
  out, tainted, fixed = [], set(), set().union(*(fixed_in(c.tree, c.hidden) for c in cells))
  for c in cells:
    for stmt, flows in zip(c.tree.body, hidden_statements(c.tree, c.hidden, tainted, fixed)):
      if flows and stmt.lineno not in c.hidden:
        for n in ast.walk(stmt):
          if isinstance(n, ast.Call) and check_name(n): out.append(f"{c.id}, line {n.lineno}: {n.func.id} observes data of the hidden tests")
  return out
