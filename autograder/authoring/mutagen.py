"""Mutants generated from the reference answers, in the spirit of mutmut and cosmic-ray, so that mutation testing does
not depend on the author's imagination. Every expression and statement between the solution markers of an answer
cell or an answer file is mutated by the operators below, one edit per mutant:

  keyword      a keyword argument dropped (unless its value is the callee's default: that mutant is equivalent)
  default      an argument replaced by the callee's default, when the callee is known (a function of the notebook,
               or a library function or class named through the notebook's imports, read with `inspect.signature`)
  constant     0 <-> 1, n -> n+1 and n-1, x -> 10x and x/10 for floats, True <-> False
  compare      < <=, > >=, == !=, is / is not, in / not in swapped
  arith        + -, * /, // /, % //, ** *, << >>, & | swapped (also in augmented assignments)
  aggregate    min <-> max, median <-> mean, sum <-> mean exchanged
  realize      `.realize()` removed
  with         a `with` block's context manager removed, its body kept (only when nothing is bound with `as`)
  index        `[0]` <-> `[-1]`
  reversed     `reversed(x)` -> `x`, `for v in xs` -> `for v in reversed(list(xs))` (unless the body never reads v)

Everything is found with `ast` and positions, never with patterns on the source. An edit is (old, new): `old` is whole
lines of the answer holding the mutated node, widened until it occurs exactly once, so that `text.replace(old, new)`
makes exactly that change (the session machinery of autograder.authoring.mutants applies it). A mutant whose text does not parse,
or parses to the same tree as the answer, is dropped; two mutants giving the same text are one."""
from __future__ import annotations
import ast, hashlib, importlib, inspect, random
from dataclasses import dataclass
from autograder.core.cells import BEGIN_SOLUTION, END_SOLUTION

@dataclass(frozen=True)
class Edit:
  target: str        # an answer cell's grade_id or an answer file's name
  task: str          # the grade_id, or `file:Class.method` for an answer file
  line: int          # 1-based line of the mutated node in the target's text
  kind: str          # the operator (see the module docstring)
  what: str          # the change in a few words, e.g. "`<` -> `<=`"
  old: str
  new: str

  @property
  def id(self) -> str:
    """A short name that stays the same while the answer's text does (the reviewed list of equivalent mutants uses it)."""
    return hashlib.sha1(f"{self.target}\0{self.old}\0{self.new}".encode()).hexdigest()[:8]

  def mutant(self) -> dict:
    return {"name": f"{self.task} line {self.line}: {self.what}", "target": self.target, "old": self.old, "new": self.new,
            "generated": True, "id": self.id, "task": self.task, "kind": self.kind, "line": self.line, "what": self.what}

def solution_lines(text:str) -> set[int]:
  """1-based numbers of the lines strictly between the solution markers."""
  out, on = set(), False
  for n, line in enumerate(text.splitlines(), 1):
    if BEGIN_SOLUTION in line: on = True
    elif END_SOLUTION in line: on = False
    elif on: out.add(n)
  return out

# --- callee signatures ---------------------------------------------------------------------------------------------

LITERAL = (type(None), bool, int, float, str)

def _literal(value) -> bool:
  return isinstance(value, LITERAL) or (isinstance(value, tuple) and all(isinstance(v, LITERAL) for v in value))

class Signatures:
  """The parameters and defaults of the callees a piece of code can name: functions defined in `context` (the
  notebook's code), and library objects reached through its imports."""
  def __init__(self, context:list[str]):
    self.defs, self.imports = {}, {}
    for text in context:
      try: tree = ast.parse(_python(text))
      except SyntaxError: continue
      for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)): self.defs[node.name] = node
      for node in ast.walk(tree):
        if isinstance(node, ast.Import):
          for a in node.names: self.imports[a.asname or a.name.split(".")[0]] = (a.name if a.asname else a.name.split(".")[0], None)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
          for a in node.names: self.imports[a.asname or a.name] = (node.module, a.name)
    self._cache = {}

  def params(self, func:ast.expr) -> list[tuple[str, bool, object]]|None:
    """[(name, positional, default or inspect.Parameter.empty)] of the callee `func`, or None when it is unknown."""
    if isinstance(func, ast.Name) and func.id in self.defs: return _ast_params(self.defs[func.id])
    chain = []
    while isinstance(func, ast.Attribute): chain.insert(0, func.attr); func = func.value
    if not isinstance(func, ast.Name) or func.id not in self.imports: return None
    key = (func.id, *chain)
    if key not in self._cache: self._cache[key] = self._inspect(func.id, chain)
    return self._cache[key]

  def _inspect(self, name:str, chain:list[str]):
    module, attr = self.imports[name]
    try:
      obj = importlib.import_module(module)
      if attr is not None: obj = getattr(obj, attr)
      for a in chain: obj = getattr(obj, a)
      if not callable(obj) or inspect.ismodule(obj): return None
      sig = inspect.signature(obj)
    except Exception: return None
    P = inspect.Parameter
    return [(p.name, p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD), p.default) for p in sig.parameters.values()
            if p.kind not in (P.VAR_POSITIONAL, P.VAR_KEYWORD)]

def _python(cell:str) -> str:
  """A notebook cell as plain Python (IPython's magics turned into calls)."""
  try:
    from IPython.core.inputtransformer2 import TransformerManager
    return TransformerManager().transform_cell(cell)
  except Exception: return cell

def _ast_params(fn:ast.FunctionDef) -> list[tuple[str, bool, object]]:
  a, empty = fn.args, inspect.Parameter.empty
  positional = a.posonlyargs + a.args
  defaults = [empty] * (len(positional) - len(a.defaults)) + [_constant(d) for d in a.defaults]
  out = [(p.arg, True, d) for p, d in zip(positional, defaults)]
  out += [(p.arg, False, empty if d is None else _constant(d)) for p, d in zip(a.kwonlyargs, a.kw_defaults)]
  return out

def _constant(node:ast.expr):
  try: value = ast.literal_eval(node)
  except Exception: return inspect.Parameter.empty
  return value if _literal(value) else inspect.Parameter.empty

# --- the operators -------------------------------------------------------------------------------------------------

COMPARE = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
           ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In}
ARITH = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult, ast.FloorDiv: ast.Div, ast.Mod: ast.FloorDiv,
         ast.Pow: ast.Mult, ast.LShift: ast.RShift, ast.RShift: ast.LShift, ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd}
SYMBOL = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=", ast.Is: "is", ast.IsNot: "is not",
          ast.In: "in", ast.NotIn: "not in", ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
          ast.Mod: "%", ast.Pow: "**", ast.LShift: "<<", ast.RShift: ">>", ast.BitAnd: "&", ast.BitOr: "|"}
AGGREGATE = {"min": ["max"], "max": ["min"], "median": ["mean"], "mean": ["median", "sum"], "sum": ["mean"]}
ATOMIC = (ast.Name, ast.Constant, ast.Call, ast.Attribute, ast.Subscript, ast.List, ast.Tuple, ast.Dict, ast.Set)

def _numbers(value) -> list:
  if isinstance(value, bool): return [not value]
  if isinstance(value, int): return [1] if value == 0 else [0, 2] if value == 1 else [value + 1, value - 1]
  if isinstance(value, float): return [1.0] if value == 0 else [value * 10, value / 10]
  return []

class Source:
  """A text with a map from ast positions (line, UTF-8 byte column) to character offsets."""
  def __init__(self, text:str):
    self.text, self.starts = text, [0]
    for line in text.splitlines(keepends=True): self.starts.append(self.starts[-1] + len(line))
    self.lines = text.splitlines(keepends=True)

  def offset(self, line:int, col:int) -> int:
    return self.starts[line - 1] + len(self.lines[line - 1].encode()[:col].decode(errors="ignore")) if line <= len(self.lines) else len(self.text)

  def span(self, node) -> tuple[int, int]:
    return self.offset(node.lineno, node.col_offset), self.offset(node.end_lineno, node.end_col_offset)

  def segment(self, node) -> str:
    s, e = self.span(node)
    return self.text[s:e]

def _short(text:str, n:int=60) -> str:
  text = " ".join(text.split())
  return text if len(text) <= n else text[:n - 3] + "..."

class Generator(ast.NodeVisitor):
  """Collects (line, kind, what, start, end, replacement) for every mutation of the nodes on `lines`."""
  def __init__(self, src:Source, lines:set[int], signatures:Signatures):
    self.src, self.lines, self.sigs = src, lines, signatures
    self.found, self.scope = [], []

  def inside(self, node) -> bool:
    return getattr(node, "lineno", None) in self.lines and getattr(node, "end_lineno", None) in self.lines

  def add(self, node, kind:str, what:str, start:int, end:int, replacement:str):
    self.found.append((node.lineno, kind, what, start, end, replacement, ".".join(self.scope)))

  def replace(self, node, kind:str, what:str, replacement:str):
    s, e = self.src.span(node)
    self.add(node, kind, what, s, e, replacement)

  def operator(self, node, left, right, old, new, kind):
    """Swap the operator symbol that sits between `left` and `right`, keeping the text around it."""
    gap_start, gap_end = self.src.span(left)[1], self.src.span(right)[0]
    gap = self.src.text[gap_start:gap_end]
    keep = " \t\n\\()"
    i = next((k for k, ch in enumerate(gap) if ch not in keep), None)
    j = next((k for k in range(len(gap), 0, -1) if gap[k - 1] not in keep), None)
    if i is None or " ".join(gap[i:j].split()) != SYMBOL[old]: return     # a comment or something else in between
    self.add(node, kind, f"`{SYMBOL[old]}` -> `{SYMBOL[new]}`", gap_start + i, gap_start + j, SYMBOL[new])

  # scopes, and what is never mutated
  def visit_FunctionDef(self, node):
    self.scope.append(node.name)
    for stmt in node.body:
      if not (stmt is node.body[0] and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)):
        self.visit(stmt)
    for d in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]: self.visit(d)
    self.scope.pop()
  visit_AsyncFunctionDef = visit_FunctionDef

  def visit_ClassDef(self, node):
    self.scope.append(node.name)
    for stmt in node.body: self.visit(stmt)
    self.scope.pop()

  def visit_JoinedStr(self, node): pass     # f-strings: their parts have no reliable positions
  def visit_arg(self, node): pass           # annotations

  def visit_AnnAssign(self, node):
    if node.value is not None: self.visit(node.value)

  # the operators
  def visit_Constant(self, node):
    if self.inside(node) and not isinstance(node.value, (str, bytes)) and node.value is not None and node.value is not ...:
      for v in _numbers(node.value): self.replace(node, "constant", f"`{self.src.segment(node)}` -> `{v!r}`", repr(v))

  def visit_Compare(self, node):
    if self.inside(node):
      for left, op, right in zip([node.left] + node.comparators[:-1], node.ops, node.comparators):
        self.operator(node, left, right, type(op), COMPARE[type(op)], "compare")
    self.generic_visit(node)

  def visit_BinOp(self, node):
    if self.inside(node) and type(node.op) in ARITH: self.operator(node, node.left, node.right, type(node.op), ARITH[type(node.op)], "arith")
    self.generic_visit(node)

  def visit_AugAssign(self, node):
    if self.inside(node) and type(node.op) in ARITH:
      old, new = type(node.op), ARITH[type(node.op)]
      s, e = self.src.span(node.target)[1], self.src.span(node.value)[0]
      gap = self.src.text[s:e]
      if gap.strip() == SYMBOL[old] + "=":
        k = gap.index(SYMBOL[old] + "=")
        self.add(node, "arith", f"`{SYMBOL[old]}=` -> `{SYMBOL[new]}=`", s + k, s + k + len(SYMBOL[old]) + 1, SYMBOL[new] + "=")
    self.generic_visit(node)

  def visit_Subscript(self, node):
    if self.inside(node):
      sl = node.slice
      if isinstance(sl, ast.Constant) and sl.value == 0 and not isinstance(sl.value, bool): self.replace(sl, "index", "`[0]` -> `[-1]`", "-1")
      if isinstance(sl, ast.UnaryOp) and isinstance(sl.op, ast.USub) and isinstance(sl.operand, ast.Constant) and sl.operand.value == 1:
        self.replace(sl, "index", "`[-1]` -> `[0]`", "0")
    self.generic_visit(node)

  def visit_For(self, node):
    bound = {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}
    read = {n.id for stmt in node.body + node.orelse for n in ast.walk(stmt) if isinstance(n, ast.Name)}
    if not bound & read: return self.generic_visit(node)    # the iterations do not differ: the order cannot matter
    if self.inside(node.iter) and not (isinstance(node.iter, ast.Call) and isinstance(node.iter.func, ast.Name) and node.iter.func.id == "reversed"):
      self.replace(node.iter, "reversed", f"`for ... in {_short(self.src.segment(node.iter), 30)}` reversed",
                   f"reversed(list({self.src.segment(node.iter)}))")
    self.generic_visit(node)

  def visit_With(self, node):
    if self.inside(node) and all(item.optional_vars is None for item in node.items):
      header = ", ".join(_short(self.src.segment(i.context_expr), 40) for i in node.items)
      self.drop_with(node, f"`with {header}:` removed (body kept)")
    self.generic_visit(node)

  def drop_with(self, node, what:str):
    src, first = self.src, node.body[0]
    if first.lineno == node.lineno:                        # `with x: body` on one line
      s, e = src.span(node)
      self.add(node, "with", what, s, e, src.text[src.offset(first.lineno, first.col_offset):e])
      return
    if node.end_lineno > len(src.lines): return
    indent = first.col_offset - node.col_offset
    body = src.lines[first.lineno - 1:node.end_lineno]
    if not all(not line.strip() or line[:indent].isspace() for line in body): return
    new = "".join(line[indent:] if line.strip() else line for line in body)
    s = src.starts[node.lineno - 1] + node.col_offset
    self.add(node, "with", what, s, src.starts[node.end_lineno], new[node.col_offset:])

  def visit_Call(self, node):
    if self.inside(node): self.call(node)
    self.generic_visit(node)

  def call(self, node):
    src, func = self.src, node.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    # min/max/median/mean/sum
    for other in AGGREGATE.get(name, []):
      if isinstance(func, ast.Name) and other not in ("min", "max"): continue      # no builtin mean or median
      s, e = src.span(func)
      self.add(node, "aggregate", f"`{name}` -> `{other}`", e - len(name), e, other)
    if isinstance(func, ast.Attribute) and name == "realize" and not node.args and not node.keywords:
      self.replace(node, "realize", f"`.realize()` removed", src.segment(func.value))
    if name == "reversed" and isinstance(func, ast.Name) and len(node.args) == 1 and not node.keywords:
      arg = node.args[0]
      self.replace(node, "reversed", "`reversed(...)` dropped", src.segment(arg) if isinstance(arg, ATOMIC) else f"({src.segment(arg)})")
    params = self.sigs.params(func)
    defaults = {p: d for p, _, d in params or [] if d is not inspect.Parameter.empty}
    # keyword arguments dropped, or replaced by the default
    args = sorted([a for a in node.args] + [k for k in node.keywords], key=lambda a: (a.lineno, a.col_offset))
    for k in node.keywords:
      if k.arg is None: continue
      value = _constant(k.value)
      if k.arg in defaults and value is not inspect.Parameter.empty and value == defaults[k.arg] and type(value) is type(defaults[k.arg]): continue
      j = args.index(k)
      if j > 0: s, e = src.span(args[j - 1])[1], src.span(k)[1]
      elif j + 1 < len(args): s, e = src.span(k)[0], src.span(args[j + 1])[0]
      else: s, e = src.span(k)
      self.add(node, "keyword", f"keyword `{_short(src.segment(k), 40)}` dropped", s, e, "")
      if k.arg in defaults and value != defaults[k.arg]:
        self.replace(k.value, "default", f"`{k.arg}={_short(src.segment(k.value), 30)}` -> default `{defaults[k.arg]!r}`", repr(defaults[k.arg]))
    # positional arguments replaced by the default
    if params is not None and not any(isinstance(a, ast.Starred) for a in node.args):
      positional = [p for p in params if p[1]]
      if positional and positional[0][0] in ("self", "cls") and isinstance(func, ast.Attribute): positional = positional[1:]
      for a, (p, _, d) in zip(node.args, positional):
        if d is inspect.Parameter.empty or (_constant(a) is not inspect.Parameter.empty and _constant(a) == d): continue
        self.replace(a, "default", f"argument `{p}={_short(src.segment(a), 30)}` -> default `{d!r}`", repr(d))

def _edit(src:Source, start:int, end:int, replacement:str) -> tuple[str, str, str]|None:
  """(old, new, mutated text): `old` is the whole lines around [start, end), widened until it occurs once."""
  text = src.text
  mutated = text[:start] + replacement + text[end:]
  ls = text.rfind("\n", 0, start) + 1
  le = text.find("\n", max(end, start + 1) - 1)
  le = len(text) if le < 0 else le + 1
  while text.count(text[ls:le]) != 1:
    if ls > 0: ls = text.rfind("\n", 0, ls - 1) + 1
    elif le < len(text):
      le = text.find("\n", le)
      le = len(text) if le < 0 else le + 1
    else: return None
  grow = len(mutated) - len(text)
  return text[ls:le], mutated[ls:le + grow], mutated

def generate(text:str, target:str, context:list[str]|None=None) -> list[Edit]:
  """Every mutant of the solution regions of `text` (an answer cell or an answer file named `target`). `context`: the
  notebook's code, where callees are looked up."""
  lines = solution_lines(text)
  try: tree = ast.parse(text)
  except SyntaxError: return []
  if not lines: return []
  src = Source(text)
  gen = Generator(src, lines, Signatures((context or []) + [text]))
  gen.visit(tree)
  original, seen, out = ast.dump(tree), set(), []
  for line, kind, what, s, e, replacement, scope in sorted(gen.found, key=lambda f: (f[3], f[4], f[1])):
    made = _edit(src, s, e, replacement)
    if made is None: continue
    old, new, mutated = made
    if mutated in seen: continue
    try: changed = ast.dump(ast.parse(mutated)) != original
    except SyntaxError: continue
    if not changed: continue
    seen.add(mutated)
    task = target if not target.endswith(".py") else f"{target}:{scope}" if scope else target
    out.append(Edit(target, task, line, kind, what, old, new))
  return out

def sample(edits:list[Edit], max_per_task:int|None, seed:int) -> list[Edit]:
  """At most `max_per_task` edits of each task, drawn with a seeded generator (the same every run), in text order."""
  if not max_per_task: return edits
  by_task = {}
  for e in edits: by_task.setdefault(e.task, []).append(e)
  out = []
  for task, group in by_task.items():
    out += group if len(group) <= max_per_task else random.Random(f"{seed}:{task}").sample(group, max_per_task)
  order = {id(e): n for n, e in enumerate(edits)}
  return sorted(out, key=lambda e: order[id(e)])

def scope_at(text:str, line:int) -> str:
  """`Class.method` (or `function`) holding 1-based `line` of `text`, '' at the top level."""
  try: tree = ast.parse(text)
  except SyntaxError: return ""
  names, body = [], tree.body
  while True:
    inner = next((n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.lineno <= line <= n.end_lineno), None)
    if inner is None: return ".".join(names)
    names.append(inner.name); body = inner.body
