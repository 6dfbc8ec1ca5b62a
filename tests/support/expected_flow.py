"""Which checks of a solution notebook expect a value computed from the learner's own answers: in the self-check's
scope, visible checks whose expected argument release cuts (authoring/ship.py: the learner's copy ships the
reference's value instead); in grading's, every check (grading takes each expected value from the reference run).
Such a check compares a learner's answer with the reference's run of the same computation: right only where a right
answer has one value. Branches taint a name if any of them does.
Read statement by statement, in order, through function bodies, comprehensions and oracle blocks: a name is tainted
while it holds a value computed from an answer function (or from a tainted name)."""
from __future__ import annotations
import ast
from nbformat import NotebookNode
from autograder.authoring.ship import _shown, oracle_names
from autograder.core.cells import defined_names, grade_id, is_answer, is_test, without_hidden
from autograder.core.transform import check_name, expected_slots, is_oracle_block, python_source

def _tainted(e:ast.AST, env:set[str], answers:set[str]) -> bool:
  if isinstance(e, ast.Name): return e.id in env or e.id in answers
  if isinstance(e, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
    local = set(env)
    for g in e.generators:
      _bind(g.target, _tainted(g.iter, local, answers), local)
      if any(_tainted(i, local, answers) for i in g.ifs): return True
    return any(_tainted(p, local, answers) for p in ([e.key, e.value] if isinstance(e, ast.DictComp) else [e.elt]))
  if isinstance(e, ast.Lambda): return _tainted(e.body, env - {a.arg for a in e.args.args}, answers)
  return any(_tainted(c, env, answers) for c in ast.iter_child_nodes(e))

def _bind(target:ast.AST, tainted:bool, env:set[str]):
  for n in ast.walk(target):
    if isinstance(n, ast.Name): (env.add if tainted else env.discard)(n.id)

COMPOUND = (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith, ast.Try, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)

def _unshipped(w:ast.With) -> bool:
  """`with machine_dependent(...)`: release ships no value for its checks (grading compares them with the reference run)."""
  return any(isinstance(i.context_expr, ast.Call) and isinstance(i.context_expr.func, ast.Name) and i.context_expr.func.id == "machine_dependent"
             for i in w.items)

def _walk(stmts:list[ast.stmt], env:set[str], answers:set[str], hidden:set[str]|None, found:list, in_oracle=False, params=None):
  """`params`: {local function: its parameters that some call passes a tainted value}, filled in as calls are seen."""
  params = {} if params is None else params
  for s in stmts:
    for call in (n for n in ast.walk(s) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in params):
      names = params[call.func.id]["args"]
      for a, name in zip(call.args, names):
        if _tainted(a, env, answers): params[call.func.id]["tainted"].add(name)
      for k in call.keywords:
        if k.arg and _tainted(k.value, env, answers): params[call.func.id]["tainted"].add(k.arg)
    if not in_oracle and not isinstance(s, COMPOUND):           # a compound statement's checks are read in its body
      for call in (n for n in ast.walk(s) if isinstance(n, ast.Call) and check_name(n)):
        for pos, kw in expected_slots(check_name(call)):
          arg = call.args[pos] if len(call.args) > pos else next((k.value for k in call.keywords if k.arg == kw), None)
          if arg is not None and (hidden is None or not _shown(arg, hidden)) and _tainted(arg, env, answers): found.append(ast.unparse(arg))
    if isinstance(s, ast.Assign):
      for t in s.targets: _bind(t, _tainted(s.value, env, answers), env)
    elif isinstance(s, (ast.AugAssign, ast.AnnAssign)) and s.value is not None and _tainted(s.value, env, answers): _bind(s.target, True, env)
    elif isinstance(s, (ast.For, ast.AsyncFor)):
      _bind(s.target, _tainted(s.iter, env, answers), env)
      _walk(s.body + s.orelse, env, answers, hidden, found, in_oracle, params)
    elif isinstance(s, ast.With):
      for i in s.items:
        if i.optional_vars is not None: _bind(i.optional_vars, _tainted(i.context_expr, env, answers), env)
      _walk(s.body, env, answers, hidden, found, in_oracle or is_oracle_block(s) or (hidden is not None and _unshipped(s)), params)
    elif isinstance(s, (ast.If, ast.While, ast.Try)):              # branches: a name is tainted after them if any branch taints it
      branches = [s.body + s.orelse] + [h.body for h in s.handlers] if isinstance(s, ast.Try) else [s.body, s.orelse]
      after = set()
      for branch in branches:
        mine = set(env)
        _walk(branch, mine, answers, hidden, found, in_oracle, params)
        after |= mine
      env |= after
      if isinstance(s, ast.Try): _walk(s.finalbody, env, answers, hidden, found, in_oracle, params)
    elif isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
      known = params.setdefault(s.name, {"args": [a.arg for a in s.args.args], "tainted": set()})
      args = {a.arg for a in s.args.args + s.args.kwonlyargs}
      _walk(s.body, (env - args) | (known["tainted"] & args), answers, hidden, found, in_oracle, params)

def expected_from_answers(nb:NotebookNode, grading:bool=False) -> list[tuple[str, str]]:
  """(test cell's grade id, the expected argument's source) of every such check in the visible part of the test cells
  whose expected argument release cuts; with `grading`, of every check, hidden ones included, cut or shown: grading
  compares each observation with the reference run's expected value."""
  answers = set().union(*(defined_names(c.source) for c in nb.cells if c.cell_type == "code" and is_answer(c)))
  hidden = None if grading else oracle_names([c.source for c in nb.cells if c.cell_type == "code"])
  out = []
  for c in nb.cells:
    if c.cell_type != "code" or not is_test(c): continue
    body, params, found = ast.parse(python_source(c.source if grading else without_hidden(c.source))).body, {}, []
    _walk(body, set(), answers, hidden, [], params=params)       # first: which parameters of the cell's helpers get the learner's values
    _walk(body, set(), answers, hidden, found, params=params)
    out += [(grade_id(c), f) for f in dict.fromkeys(found)]
  return out
