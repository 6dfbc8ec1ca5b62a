"""Suspicious code in a learner's answers, for an instructor to review. A static reading (the code is parsed in the
grader's process, never run) of each answer cell and answer file; flags do not change the score. A module can allow
what its tasks need (`metadata.autograder.allow_flags`, e.g. module 07's backend runs clang and uses ctypes)."""
from __future__ import annotations
import ast
from autograder.core.results import Flag
from autograder.core.transform import python_source

GRADED_MODULES = {"numpy", "np", "torch", "tinygrad", "autograder", "builtins", "sys", "IPython", "GlobalCounters", "Tensor",
                  "Device", "nbformat", "math", "time", "statistics"}
NAMESPACE = {"globals", "locals", "vars"}
DYNAMIC = {"exec", "eval", "compile", "__import__"}
# Running code the answer does not spell out: the dynamic builtins however they are reached (`builtins.exec`, an alias,
# `getattr(builtins, "ex" + "ec")`, `from builtins import exec as run`), code objects (marshal, `__code__`,
# types.FunctionType / CodeType) and imports by a computed name. A copy shipped as a base64 marshal payload needs some
# of these (classroom/similarity.py decodes it for the comparison).
CODE_ATTRIBUTES = {"FunctionType", "CodeType", "LambdaType", "__code__", "co_code", "func_code", "import_module"}
CODE_MODULES = {"marshal", "builtins", "types", "importlib", "codeop", "code"}       # whose dynamic parts are reached by attribute
DYNAMIC_TEXT = DYNAMIC | {"marshal", "builtins", "__builtins__", "FunctionType", "CodeType", "__code__", "import_module"}
FRAMES = {"_getframe", "currentframe", "stack", "getouterframes", "getinnerframes", "f_back", "f_globals", "f_locals", "f_builtins"}
PROCESS = {("os", "_exit"), ("os", "kill"), ("os", "killpg"), ("os", "abort"), ("sys", "exit"), ("os", "fork"), ("os", "setsid")}
PROGRAMS = {("os", "system"), ("os", "popen"), ("os", "execv"), ("os", "execvp"), ("os", "spawnv")}
SUSPICIOUS_TEXT = ("/proc", "solutions", "hidden", "autograder", "../", "/work/", ".git", "observation")
OVERRIDES = {"__eq__", "__ne__", "__bool__", "__len__", "__hash__", "__instancecheck__", "__subclasscheck__"}
ATTRIBUTE_OVERRIDES = {"__getattr__", "__getattribute__"}
# An answer that carries the answers: a table of the public test set's labels, a dump of expected values. Longer than
# any honest answer of the course writes (the longest literal in a reference answer is a few hundred characters).
MAX_LITERAL_CHARS, MAX_LITERAL_ITEMS = 4000, 1000

def _root(node:ast.AST) -> str|None:
  while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)): node = node.value if not isinstance(node, ast.Call) else node.func
  return node.id if isinstance(node, ast.Name) else None

def _dotted(node:ast.AST) -> tuple[str, ...]:
  parts = []
  while isinstance(node, ast.Attribute): parts.append(node.attr); node = node.value
  if isinstance(node, ast.Name): parts.append(node.id)
  return tuple(reversed(parts))

def _text(node:ast.AST) -> str|None:
  """A string the code spells out, also in pieces: "gra" + "dient", "".join(["gra", "dient"]), f"{'gra'}dient"."""
  if isinstance(node, ast.Constant) and isinstance(node.value, str): return node.value
  if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
    a, b = _text(node.left), _text(node.right)
    return a + b if a is not None and b is not None else None
  if isinstance(node, ast.JoinedStr):
    parts = [_text(v.value if isinstance(v, ast.FormattedValue) else v) for v in node.values]
    return "".join(parts) if all(p is not None for p in parts) else None
  if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join" and node.args \
     and isinstance(node.args[0], (ast.List, ast.Tuple)) and (sep := _text(node.func.value)) is not None:
    parts = [_text(e) for e in node.args[0].elts]
    return sep.join(parts) if all(p is not None for p in parts) else None
  return None

def _aliases(tree:ast.AST) -> dict[str, str]:
  """{name bound in the code: the module of CODE_MODULES (or the dynamic builtin) it stands for}, from its imports."""
  out = {"__builtins__": "builtins"}
  for n in ast.walk(tree):
    if isinstance(n, ast.Import):
      for a in n.names:
        if a.name.split(".")[0] in CODE_MODULES: out[(a.asname or a.name).split(".")[0]] = a.name.split(".")[0]
    elif isinstance(n, ast.ImportFrom) and n.module and n.module.split(".")[0] in CODE_MODULES:
      for a in n.names: out[a.asname or a.name] = f"{n.module}.{a.name}"
  return out

def _dynamic(n:ast.AST, aliases:dict[str, str]) -> str|None:
  """What a node does that runs code the answer does not spell out, or None."""
  if isinstance(n, ast.Import):
    hits = [a.name for a in n.names if a.name.split(".")[0] in ("marshal", "codeop", "code")]
    return f"imports {hits[0]}" if hits else None
  if isinstance(n, ast.ImportFrom) and n.module:
    root = n.module.split(".")[0]
    hits = [a.name for a in n.names if root in ("marshal", "codeop", "code") or a.name in DYNAMIC | CODE_ATTRIBUTES or a.name == "*" and root in CODE_MODULES]
    return f"imports {hits[0]} from {n.module}" if hits else None
  if isinstance(n, ast.Attribute):
    root = _root(n)
    if n.attr in CODE_ATTRIBUTES: return f"uses .{n.attr}"
    if root is not None and aliases.get(root) in CODE_MODULES and isinstance(n.value, ast.Name):
      if aliases[root] in ("marshal", "codeop", "code") or n.attr in DYNAMIC | {"__dict__", "__getattribute__"}: return f"uses {root}.{n.attr}"
  if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in aliases and n.id != "__builtins__":
    target = aliases[n.id]
    if target.rsplit(".", 1)[-1] in DYNAMIC | CODE_ATTRIBUTES and n.id not in DYNAMIC: return f"uses {n.id} ({target})"
  if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("getattr", "vars") and n.args:
    target = aliases.get(_root(n.args[0]) or "")
    if target in CODE_MODULES: return f"reads {target} by {n.func.id}()"
  if isinstance(n, (ast.Constant, ast.BinOp, ast.JoinedStr)) or (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "join"):
    said = _text(n)
    if said is not None and said.strip() in DYNAMIC_TEXT: return f"names {said.strip()!r} in a string"
  return None

def scan(source:str, where:str, forbidden:set[str]=frozenset()) -> list[Flag]:
  """The flags of one piece of code: [Flag("ans_x, line 3", rule, what)]. `forbidden`: the
  names of the functions the module's tests forbid during the learner's calls (tinygrad's own `gradient`, `dot`, ...):
  any mention of one (an attribute, a name, a string however it is put together) and any attribute read by a
  computed name (`getattr(Tensor, name)`) is flagged, since such a reference taken outside a forbidden block reaches
  the same function."""
  try: tree = ast.parse(source)
  except SyntaxError:
    try: tree = ast.parse(python_source(source))
    except SyntaxError: return []
  out = []
  def flag(node, rule, what): out.append(Flag(f"{where}, line {getattr(node, 'lineno', '?')}", rule, what))
  aliases = _aliases(tree)
  for n in ast.walk(tree):
    if (what := _dynamic(n, aliases)) is not None: flag(n, "dynamic code", what)
    if isinstance(n, ast.Constant) and isinstance(n.value, (str, bytes)) and len(n.value) > MAX_LITERAL_CHARS:
      flag(n, "large constant table", f"a {type(n.value).__name__} literal of {len(n.value):,} characters")
    elif isinstance(n, (ast.List, ast.Tuple, ast.Set, ast.Dict)) and len(n.keys if isinstance(n, ast.Dict) else n.elts) > MAX_LITERAL_ITEMS:
      flag(n, "large constant table", f"a literal {type(n).__name__.lower()} of {len(n.keys if isinstance(n, ast.Dict) else n.elts):,} items")
    if forbidden:
      said = n.attr if isinstance(n, ast.Attribute) else n.id if isinstance(n, ast.Name) else _text(n) if isinstance(n, (ast.Constant, ast.BinOp, ast.JoinedStr, ast.Call)) else None
      if said is not None and said in forbidden: flag(n, "forbidden function", f"refers to {said}")
      if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("getattr", "vars") and len(n.args) >= (2 if n.func.id == "getattr" else 1) \
         and (n.func.id == "vars" or _text(n.args[1]) is None):
        flag(n, "forbidden function", f"reads an attribute by a computed name ({n.func.id})")
    if isinstance(n, (ast.Import, ast.ImportFrom)):
      names = [a.name for a in n.names] + ([n.module] if isinstance(n, ast.ImportFrom) and n.module else [])
      for name in names:
        top = name.split(".")[0]
        if top in ("IPython", "ipykernel", "jupyter_client", "zmq"): flag(n, "IPython internals", f"imports {name}")
        elif top in ("builtins", "gc", "inspect", "importlib", "pickle", "marshal"): flag(n, "introspection", f"imports {name}")
        elif top in ("subprocess", "pty", "multiprocessing"): flag(n, "runs programs", f"imports {name}")
        elif top in ("ctypes", "cffi"): flag(n, "ctypes", f"imports {name}")
        elif top in ("signal", "resource"): flag(n, "process control", f"imports {name}")
        elif top in ("socket", "urllib", "http", "requests"): flag(n, "network", f"imports {name}")
        elif top == "autograder": flag(n, "touches the grader", f"imports {name}")
    elif isinstance(n, ast.Call):
      d = _dotted(n.func)
      if isinstance(n.func, ast.Name) and n.func.id in NAMESPACE: flag(n, "namespace access", f"calls {n.func.id}()")
      elif isinstance(n.func, ast.Name) and n.func.id in DYNAMIC: flag(n, "dynamic code", f"calls {n.func.id}()")
      elif isinstance(n.func, ast.Name) and n.func.id == "get_ipython": flag(n, "IPython internals", "calls get_ipython()")
      elif isinstance(n.func, ast.Name) and n.func.id in ("setattr", "delattr") and n.args and _root(n.args[0]) in GRADED_MODULES:
        flag(n, "monkeypatching", f"{n.func.id} on {_root(n.args[0])}")
      elif d[-2:] in PROCESS: flag(n, "process control", f"calls {'.'.join(d)}()")
      elif d[-2:] in PROGRAMS: flag(n, "runs programs", f"calls {'.'.join(d)}()")
      elif d and d[-1] in ("publish_display_data", "display"): flag(n, "IPython internals", f"calls {'.'.join(d)}()")
      elif isinstance(n.func, ast.Name) and n.func.id == "open" and n.args and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str) \
           and (n.args[0].value.startswith("/") or ".." in n.args[0].value):
        flag(n, "reads outside the working folder", f"opens {n.args[0].value[:60]!r}")
    elif isinstance(n, ast.Attribute) and n.attr in FRAMES and (n.attr != "stack" or _root(n) == "inspect"):
      flag(n, "frame access", f"uses .{n.attr}")
    elif isinstance(n, ast.Name) and n.id in ("__builtins__", "__loader__", "__spec__"): flag(n, "introspection", f"uses {n.id}")
    elif isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
      targets = n.targets if isinstance(n, (ast.Assign, ast.Delete)) else [n.target]
      for t in targets:
        for tt in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t]):
          if isinstance(tt, ast.Subscript) and _dotted(tt.value) == ("sys", "modules"):
            flag(n, "sys.modules", f"assigns to {ast.unparse(tt)[:60]}")
          elif isinstance(tt, (ast.Attribute, ast.Subscript)) and _root(tt) in GRADED_MODULES:
            flag(n, "monkeypatching", f"assigns to {ast.unparse(tt)[:60]}")
    elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name in OVERRIDES:
      flag(n, "comparison override", f"defines {n.name}")
    elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name in ATTRIBUTE_OVERRIDES:
      flag(n, "attribute override", f"defines {n.name}")
    elif isinstance(n, ast.Constant) and isinstance(n.value, str) and any(s in n.value for s in SUSPICIOUS_TEXT):
      flag(n, "reads outside the working folder", f"mentions {n.value[:60]!r}")
  return out

def flags(answers:list[tuple[str, str]], allow:list[str]=(), forbidden:set[str]=frozenset()) -> list[Flag]:
  """Flags of (where, source) pairs, minus the rules the module allows."""
  out, seen = [], set()
  for where, src in answers:
    for f in sorted(scan(src, where, set(forbidden)), key=lambda f: int(f.where.rsplit(" ", 1)[-1]) if f.where.rsplit(" ", 1)[-1].isdigit() else 0):
      if f.rule not in set(allow) and (f.where, f.rule) not in seen:
        seen.add((f.where, f.rule)); out.append(f)
  return out
