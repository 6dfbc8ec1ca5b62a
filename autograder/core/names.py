"""Which names Python code reads and binds: the one analysis behind the cut of `check --task` (core.cause: which
statements of a set-up cell a task needs, which tasks a test uses), the hidden-data tracking of grading
(core.transform: which checks observe what a hidden test computed) and the author's lint (authoring.lint: what only
the oracle computes or uses).

Scopes follow Python's rules. A function's or lambda's parameters and locals, a class body's names and a
comprehension's targets belong to that scope, not to the code around it; a name a function declares `global` or
`nonlocal` is not its local. A walrus binds in the enclosing function or module, also inside a comprehension
(PEP 572). What a function's body reads from outside counts as read by its `def`: the function reads it when called.
`del x` unbinds; `from m import *` binds the name "*" (everything, as far as a caller can tell)."""
from __future__ import annotations
import ast

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)

def _params(a:ast.arguments) -> set[str]:
  return {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs + [v for v in (a.vararg, a.kwarg) if v]}

def _declared(body:list[ast.stmt]) -> set[str]:
  """Names a scope's body declares `global` or `nonlocal` (not in nested scopes)."""
  out = set()
  for stmt in body:
    for n in _own_nodes(stmt):
      if isinstance(n, (ast.Global, ast.Nonlocal)): out |= set(n.names)
  return out

def _own_nodes(node:ast.AST):
  """`node` and the nodes under it that belong to the same scope (nested functions, lambdas, classes and
  comprehensions are yielded themselves, their insides are not)."""
  yield node
  if isinstance(node, FUNCTIONS + (ast.Lambda, ast.ClassDef) + COMPREHENSIONS): return
  for child in ast.iter_child_nodes(node): yield from _own_nodes(child)

def _walrus_targets(node:ast.AST) -> set[str]:
  """Names bound by `:=` anywhere in a comprehension (they bind outside it), not inside nested functions or lambdas."""
  out, todo = set(), [node]
  while todo:
    n = todo.pop()
    if isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name): out.add(n.target.id)
    if isinstance(n, FUNCTIONS + (ast.Lambda, ast.ClassDef)): continue
    todo.extend(ast.iter_child_nodes(n))
  return out

def _bound(n:ast.AST) -> set[str]:
  """The names node `n` binds itself (not the nodes under it)."""
  if isinstance(n, FUNCTIONS + (ast.ClassDef,)): return {n.name}
  if isinstance(n, ast.Name): return {n.id} if isinstance(n.ctx, ast.Store) else set()
  if isinstance(n, (ast.Import, ast.ImportFrom)): return {"*" if a.name == "*" else (a.asname or a.name).split(".")[0] for a in n.names}
  if isinstance(n, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)): return {n.name} if n.name else set()
  return {n.rest} if isinstance(n, ast.MatchMapping) and n.rest else set()

def binds(node:ast.AST) -> set[str]:
  """The names `node` binds in its own scope: assignment, loop, `with ... as`, `except ... as` and match targets,
  walruses (those in comprehensions too), imported names, and the name of a function or class it defines."""
  if isinstance(node, FUNCTIONS + (ast.ClassDef,)): return {node.name}
  if isinstance(node, COMPREHENSIONS): return _walrus_targets(node)
  out = set()
  for n in _own_nodes(node): out |= _walrus_targets(n) if n is not node and isinstance(n, COMPREHENSIONS) else _bound(n)
  return out

def _stored(node:ast.AST) -> set[str]:
  """The names `node` binds in its own scope as variables (a name target; a walrus in a comprehension)."""
  out = set()
  for n in _own_nodes(node):
    if n is not node and isinstance(n, COMPREHENSIONS): out |= _walrus_targets(n)
    elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store): out.add(n.id)
  return out

def assigned(node:ast.AST) -> set[str]:
  """The variables `node` sets in its own scope (what `binds` finds less imports, definitions, `except ... as` and
  match targets), and those a function in it declares `global` and sets (when it is called)."""
  out = _stored(node)
  for f in ast.walk(node):
    if isinstance(f, FUNCTIONS):
      out |= set().union(*map(_stored, f.body)) & {g for s in f.body for n in _own_nodes(s) if isinstance(n, ast.Global) for g in n.names}
  return out

def unbinds(node:ast.AST) -> set[str]:
  """The names `del` removes in `node`'s own scope."""
  return {n.id for n in _own_nodes(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Del)}

def _locals(params:set[str], body:list[ast.stmt]) -> set[str]:
  return (params | set().union(*(binds(s) | unbinds(s) for s in body))) - _declared(body)

def reads(node:ast.AST, updates:bool=True) -> set[str]:
  """The names `node` reads from the scope around it, in any order (see `exposed` for reads before a binding).
  `updates=False`: `x += ...` does not count as a read of x, which it only changes (for the author's lint, which asks
  what code uses a value for; a class body's statements still count it)."""
  if isinstance(node, ast.Name): return {node.id} if isinstance(node.ctx, ast.Load) else set()
  r = lambda n: reads(n, updates)
  if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name): return ({node.target.id} if updates else set()) | r(node.value)   # x += 1 reads x
  if isinstance(node, FUNCTIONS):
    a = node.args
    outside = [*node.decorator_list, *a.defaults, *[d for d in a.kw_defaults if d], node.returns,
               *[x.annotation for x in a.posonlyargs + a.args + a.kwonlyargs + [v for v in (a.vararg, a.kwarg) if v]]]
    inside = set().union(*(r(s) for s in node.body))
    return set().union(*(r(x) for x in outside if x is not None)) | (inside - _locals(_params(a), node.body))
  if isinstance(node, ast.Lambda):
    a = node.args
    return set().union(*(r(d) for d in a.defaults + [d for d in a.kw_defaults if d])) | (r(node.body) - _params(a))
  if isinstance(node, ast.ClassDef):
    outside = [*node.decorator_list, *node.bases, *[k.value for k in node.keywords]]
    return set().union(*(r(x) for x in outside)) | exposed(node.body)
  if isinstance(node, COMPREHENSIONS):
    gens = node.generators
    targets = set().union(*(binds(g.target) for g in gens))
    inner = [g.iter for g in gens[1:]] + [c for g in gens for c in g.ifs] + ([node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt])
    return r(gens[0].iter) | (set().union(*(r(x) for x in inner)) - targets)
  return set().union(*(r(child) for child in ast.iter_child_nodes(node)))

def exposed(stmts:list[ast.stmt]) -> set[str]:
  """The names a block of statements reads before it binds them: what it needs from the code before it."""
  need: set[str] = set()
  for stmt in reversed(stmts):
    if isinstance(stmt, (ast.For, ast.AsyncFor)): mine = reads(stmt.iter) | (exposed(stmt.body + stmt.orelse) - binds(stmt.target))
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
      bound = set().union(*(binds(i.optional_vars) for i in stmt.items if i.optional_vars is not None))
      mine = set().union(*(reads(i.context_expr) for i in stmt.items)) | (exposed(stmt.body) - bound)
    elif isinstance(stmt, (ast.If, ast.While)): mine = reads(stmt.test) | ((exposed(stmt.body) | exposed(stmt.orelse)) - binds(stmt.test))
    elif isinstance(stmt, ast.Try):
      mine = exposed(stmt.body) | exposed(stmt.orelse) | exposed(stmt.finalbody)
      for h in stmt.handlers: mine |= (reads(h.type) if h.type else set()) | (exposed(h.body) - ({h.name} if h.name else set()))
    else: mine = reads(stmt)
    need = (need - binds(stmt)) | mine
  return need

def imported(node:ast.AST) -> set[str]:
  """Every name an import anywhere in `node` binds (nested scopes included)."""
  return {(a.asname or a.name).split(".")[0] for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}

def everywhere(nodes:list[ast.AST]) -> set[str]:
  """Every name bound or deleted anywhere in `nodes`, in any scope, parameters included: for the author's lint, where
  a name of any scope outside the oracle may stand for the one an oracle block computes."""
  return set().union(*(_bound(n) | ({n.id} if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Del) else {n.arg} if isinstance(n, ast.arg) else set())
                       for node in nodes for n in ast.walk(node)))
