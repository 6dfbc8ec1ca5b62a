"""Suspicious code in a learner's answers, for an instructor to review. A static reading (the code is parsed in the
grader's process, never run) of each answer cell and answer file; flags do not change the score. A module can allow
what its tasks need (`metadata.autograder.allow_flags`, e.g. module 07's backend runs clang and uses ctypes).

What a rule looks for is what an answer needs to get around a check in its own process: writing the library or the
grader (an alias of a module or class counts as the module: `gc = GlobalCounters; gc.kernel_count = 5`), writing a
counter the checks once read, pausing the profile hook that watches forbidden functions, reaching a function by a name
put together at run time (`getattr`, `operator.attrgetter("ops.aten.quantize_per_channel")`), reading the grader's
state (`check.__globals__`) or the kernel's history (`In`), running code the answer does not spell out (`exec`,
`runpy` of a file it wrote), a library the module forbids, a process that leaves the kernel's session."""
from __future__ import annotations
import ast, functools, re, sys
from dataclasses import dataclass, field
from autograder.core.names import assigned, binds
from autograder.core.results import Flag
from autograder.core.transform import python_source

GRADED_MODULES = {"numpy", "np", "torch", "tinygrad", "autograder", "builtins", "sys", "IPython", "GlobalCounters", "Tensor",
                  "Device", "nbformat", "math", "time", "statistics"}
# Packages whose names, imported or aliased in an answer, stand for what the checks and the libraries are made of.
GRADED_PACKAGES = {"numpy", "torch", "tinygrad", "autograder", "builtins", "sys", "IPython", "ipykernel", "nbformat", "math", "time",
                   "statistics", "os", "threading", "gc", "inspect", "linecache", "operator", "functools", "gguf", "onnx",
                   "onnxruntime", "transformers", "importlib", "runpy", "types", "random", "posix", "subprocess"}
COUNTERS = {"kernel_count", "global_ops", "global_mem", "time_sum_s", "mem_used"}        # GlobalCounters' figures
TRACING = {"setprofile", "settrace", "setprofile_all_threads", "settrace_all_threads", "getprofile", "gettrace", "monitoring", "_settraceallthreads"}
HIDDEN_STATE = {"__globals__", "__closure__", "__defaults__", "__kwdefaults__", "func_globals", "cell_contents"}
HISTORY = {"In", "Out", "_ih", "_oh", "_dh", "_i", "_ii", "_iii"}                        # IPython's history of the kernel's cells
LOADERS = {"run_path", "run_module", "spec_from_file_location", "module_from_spec", "SourceFileLoader", "SourcelessFileLoader",
           "ExtensionFileLoader", "load_source", "load_compiled", "zipimporter", "exec_module", "load_module"}
SESSION = {"posix_spawn", "posix_spawnp", "setsid", "setpgid", "setpgrp", "forkpty", "fork", "spawnl", "spawnle", "spawnlp",
           "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe", "daemon_context"}
SESSION_KEYWORDS = {"start_new_session", "setsid", "setpgroup", "process_group", "preexec_fn"}
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
PROGRAMS = {("os", "system"), ("os", "popen"), ("os", "execv"), ("os", "execvp"), ("os", "spawnv"), ("os", "execve"), ("os", "execl"),
            ("os", "execle"), ("os", "execlp"), ("os", "execlpe"), ("os", "execvpe")}
SUSPICIOUS_TEXT = ("/proc", "../", "/work/", ".git")
# Words that name the grader's own things; matched as words (a config key such as `hidden_size` is not the word hidden).
SUSPICIOUS_WORDS = re.compile(r"(?<![A-Za-z0-9_])(solutions|hidden|autograder|observation)(?![A-Za-z0-9_])|hidden tests|hidden\(", re.IGNORECASE)
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

@dataclass
class Context:
  """What the grader knows of the module, for the flags of its answers.
  forbidden   : names of the functions its tests forbid (forbidden() blocks, as the reference run recorded them)
  inside      : {forbidden name: the functions of the reference's answers that ran while a block forbidding it was open}
  reference   : the names of the functions the reference's answers define (one that is not `inside` for a name may
                mention it: module 03's grads_by_backward calls backward, which only grads_by_gradient's test forbids)
  libraries   : the module's forbidden_libraries; `barred` the answers (their `where`) graded without them
  roots       : the names the trusted cells import (Tensor, nn, torch, ...): writing one of them is patching a library
  trusted     : the names the trusted cells import or define as functions and classes, and the check vocabulary: an
                answer that binds one at its top level changes what the tests call (`GlobalCounters = Stuck`)
  importable  : top-level names an answer may import: the standard library, installed packages, the module's files
  given       : the string constants of the released starter's answers (the contracts' docstrings): not the learner's"""
  forbidden: set = field(default_factory=set)
  inside: dict = field(default_factory=dict)
  reference: set = field(default_factory=set)
  libraries: list = field(default_factory=list)
  barred: set|None = None
  roots: set = field(default_factory=set)
  importable: set|None = None
  given: set = field(default_factory=set)
  trusted: set = field(default_factory=set)

@functools.cache
def _installed() -> frozenset[str]:
  import importlib.metadata as md
  return frozenset(sys.stdlib_module_names) | frozenset(sys.builtin_module_names) | frozenset(md.packages_distributions()) | {"__future__"}

def importable_names(folder_names:set[str]=frozenset()) -> set[str]:
  """Top-level module names an answer can import without writing a file: the standard library, the installed
  distributions' top-level names, and `folder_names` (the module's own files)."""
  return set(_installed()) | set(folder_names)

def _graded_names(tree:ast.AST, roots:set[str]) -> set[str]:
  """The names in `tree` that stand for a graded package, a library class or the grader: GRADED_MODULES, the trusted
  cells' imports (`roots`), what the answer imports from GRADED_PACKAGES, and, to a fixed point, every name bound to
  one of those or to an attribute of one (`gc = GlobalCounters`, `rz = tinygrad.engine.realize`,
  `m = sys.modules["tinygrad"]`): an alias reaches the same object."""
  out = set(GRADED_MODULES) | set(roots)
  for n in ast.walk(tree):
    if isinstance(n, ast.Import):
      out |= {(a.asname or a.name).split(".")[0] for a in n.names if a.name.split(".")[0] in GRADED_PACKAGES}
    elif isinstance(n, ast.ImportFrom) and n.module and n.module.split(".")[0] in GRADED_PACKAGES:
      out |= {a.asname or a.name for a in n.names if a.name != "*"}
  pairs = []
  for n in ast.walk(tree):
    value = n.value if isinstance(n, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) else None
    if value is None or not isinstance(value, (ast.Name, ast.Attribute, ast.Subscript)): continue
    if isinstance(value, ast.Subscript) and _dotted(value.value) != ("sys", "modules"): continue
    targets = n.targets if isinstance(n, ast.Assign) else [n.target]
    pairs += [(t.id, value) for t in targets if isinstance(t, ast.Name)]
  while True:
    new = {name for name, value in pairs if name not in out and _root(value) in out}
    if not new: return out
    out |= new

def _functions(tree:ast.AST) -> dict[ast.AST, str]:
  """Each node under a function definition: the name of the innermost function that holds it."""
  out = {}
  def walk(node, inner):
    for child in ast.iter_child_nodes(node):
      here = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else inner
      if here is not None: out[child] = here
      walk(child, here)
  walk(tree, None)
  return out

def _parts(text:str) -> set[str]:
  """The names a string may stand for: itself and its dotted parts ("ops.aten.quantize_per_channel")."""
  return {text} | set(text.split(".")) if len(text) <= 200 else {text}

def scan(source:str, where:str, forbidden:set[str]|Context=frozenset()) -> list[Flag]:
  """The flags of one piece of code: [Flag("ans_x, line 3", rule, what)]. `forbidden`: the names of the functions the
  module's tests forbid during the learner's calls (tinygrad's own `gradient`, `dot`, ...), or the whole Context:
  any mention of one (an attribute, a name, a string however it is put together, a dotted part of one) outside a
  function of the reference that may use it, and any attribute of a library read by a computed name
  (`getattr(Tensor, name)`, `operator.attrgetter(name)`), is flagged, since such a reference taken outside a
  forbidden block reaches the same function."""
  ctx = forbidden if isinstance(forbidden, Context) else Context(forbidden=set(forbidden))
  forbidden = ctx.forbidden
  try: tree = ast.parse(source)
  except SyntaxError:
    try: tree = ast.parse(python_source(source))
    except SyntaxError: return []
  out = []
  def flag(node, rule, what): out.append(Flag(f"{where}, line {getattr(node, 'lineno', '?')}", rule, what))
  aliases = _aliases(tree)
  graded = _graded_names(tree, ctx.roots)
  inner = _functions(tree)
  barred = ctx.libraries and (ctx.barred is None or where in ctx.barred)
  def allowed(node, name):
    """A forbidden name mentioned inside a function of the reference that never ran inside a block forbidding it."""
    fn = inner.get(node)
    return fn is not None and fn in ctx.reference and fn not in ctx.inside.get(name, ())
  for stmt in tree.body:                                   # the answer's top level: names the tests read
    if isinstance(stmt, (ast.Import, ast.ImportFrom)): continue
    for name in sorted((assigned(stmt) | binds(stmt)) & ctx.trusted):
      flag(stmt, "monkeypatching", f"rebinds {name}, a name of the notebook's trusted cells")
  for n in ast.walk(tree):
    if (what := _dynamic(n, aliases)) is not None: flag(n, "dynamic code", what)
    if isinstance(n, ast.Constant) and isinstance(n.value, (str, bytes)) and len(n.value) > MAX_LITERAL_CHARS:
      flag(n, "large constant table", f"a {type(n.value).__name__} literal of {len(n.value):,} characters")
    elif isinstance(n, (ast.List, ast.Tuple, ast.Set, ast.Dict)) and len(n.keys if isinstance(n, ast.Dict) else n.elts) > MAX_LITERAL_ITEMS:
      flag(n, "large constant table", f"a literal {type(n).__name__.lower()} of {len(n.keys if isinstance(n, ast.Dict) else n.elts):,} items")
    if forbidden:
      said = n.attr if isinstance(n, ast.Attribute) else n.id if isinstance(n, ast.Name) else _text(n) if isinstance(n, (ast.Constant, ast.BinOp, ast.JoinedStr, ast.Call)) else None
      own = isinstance(n, ast.Name) and n.id in ctx.reference        # a bare name the answers define: the answer's own function
      hits = sorted(name for name in (_parts(said) if isinstance(said, str) and not own else ()) if name in forbidden and not allowed(n, name))
      if hits: flag(n, "forbidden function", f"refers to {hits[0]}")
      if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("getattr", "vars") and len(n.args) >= (2 if n.func.id == "getattr" else 1) \
         and (n.func.id == "vars" or _text(n.args[1]) is None) and (not isinstance(n.args[0], ast.Name) or _root(n.args[0]) in graded):
        flag(n, "forbidden function", f"reads an attribute by a computed name ({n.func.id})")
      if isinstance(n, ast.Call) and _dotted(n.func)[-1:] in (("attrgetter",), ("methodcaller",)) and any(_text(a) is None for a in n.args[:1]):
        flag(n, "forbidden function", f"reads an attribute by a computed name ({_dotted(n.func)[-1]})")
    if barred and (lib := _library(n, ctx.libraries)) is not None: flag(n, "forbidden library", f"uses {lib}, which this task may not")
    if isinstance(n, ast.Attribute) and n.attr in TRACING and (n.attr != "monitoring" or _root(n) in graded):
      flag(n, "tracing hook", f"uses .{n.attr} (the hook that watches forbidden functions)")
    elif isinstance(n, ast.ImportFrom) and n.module in ("sys", "threading") and any(a.name in TRACING for a in n.names):
      flag(n, "tracing hook", f"imports {next(a.name for a in n.names if a.name in TRACING)} from {n.module}")
    elif isinstance(n, (ast.Constant, ast.BinOp, ast.JoinedStr)) and (said := _text(n)) is not None and said in TRACING | HIDDEN_STATE:
      flag(n, "tracing hook" if said in TRACING else "function internals", f"names {said!r} in a string")
    if isinstance(n, ast.Attribute) and n.attr in HIDDEN_STATE: flag(n, "function internals", f"uses .{n.attr} (what a function closes over: the checks' own state)")
    if isinstance(n, ast.Name) and (n.id in HISTORY or re.fullmatch(r"_i\d+", n.id)) and isinstance(n.ctx, ast.Load):
      flag(n, "IPython internals", f"reads {n.id} (the kernel's history of cells)")
    if (isinstance(n, ast.Attribute) and n.attr in LOADERS) or (isinstance(n, ast.Name) and n.id in LOADERS and isinstance(n.ctx, ast.Load)):
      flag(n, "runs learner-written files", f"uses {n.attr if isinstance(n, ast.Attribute) else n.id}")
    elif isinstance(n, (ast.Import, ast.ImportFrom)):
      for name in [a.name for a in n.names] if isinstance(n, ast.Import) else ([n.module] if n.module and not n.level else []):
        top = name.split(".")[0]
        if top in ("runpy", "zipimport", "imp"): flag(n, "runs learner-written files", f"imports {name}")
        elif ctx.importable is not None and top not in ctx.importable: flag(n, "runs learner-written files", f"imports {name}, a module no installed package or file of the module provides")
      if isinstance(n, ast.ImportFrom) and n.level: flag(n, "runs learner-written files", "a relative import")
    elif isinstance(n, ast.Call) and (written := _writes_python(n)) is not None:
      flag(n, "runs learner-written files", f"writes {written[:60]!r}, a Python file")
    if isinstance(n, ast.Attribute) and n.attr in SESSION and (n.attr not in ("fork", "daemon_context") or _root(n) in graded):
      flag(n, "process control", f"uses {n.attr} (a process of its own, or a session of its own)")
    elif isinstance(n, ast.ImportFrom) and n.module in ("os", "posix") and any(a.name in SESSION or a.name == "*" for a in n.names):
      flag(n, "process control", f"imports {next(a.name for a in n.names if a.name in SESSION or a.name == '*')} from {n.module}")
    elif isinstance(n, ast.keyword) and n.arg in SESSION_KEYWORDS:
      flag(n.value, "process control", f"starts a process with {n.arg}= (a session of its own)")
    if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "getattr" and len(n.args) >= 2 and _root(n.args[0]) in ("os", "posix", "subprocess", "sys", "threading"):
      said = _text(n.args[1])
      if said is None or said in SESSION | TRACING | {"system", "popen", "_exit", "kill", "execv", "execve"}:
        flag(n, "process control", f"reads {_root(n.args[0])} by a {'computed name' if said is None else repr(said)}")
    if isinstance(n, ast.keyword) and n.arg in ("update_stats", "do_update_stats") and not (isinstance(n.value, ast.Constant) and n.value.value is True):
      flag(n.value, "writes a counter", f"runs kernels with {n.arg}={ast.unparse(n.value)[:20]} (the counters do not see them)")
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
      elif isinstance(n.func, ast.Name) and n.func.id in ("setattr", "delattr") and len(n.args) >= 2 and _text(n.args[1]) in COUNTERS:
        flag(n, "writes a counter", f"{n.func.id} of {_text(n.args[1])}")
      elif isinstance(n.func, ast.Name) and n.func.id in ("setattr", "delattr") and n.args and (_root(n.args[0]) in graded or not isinstance(n.args[0], (ast.Name, ast.Attribute))):
        flag(n, "monkeypatching", f"{n.func.id} on {_root(n.args[0]) or ast.unparse(n.args[0])[:40]}")
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
          elif isinstance(tt, ast.Attribute) and tt.attr in COUNTERS:
            flag(n, "writes a counter", f"assigns to {ast.unparse(tt)[:60]}")
          elif isinstance(tt, (ast.Attribute, ast.Subscript)) and (_root(tt) in graded or any(isinstance(x, ast.Attribute) and x.attr == "__dict__" for x in ast.walk(tt))):
            flag(n, "monkeypatching", f"assigns to {ast.unparse(tt)[:60]}")
    elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name in OVERRIDES:
      flag(n, "comparison override", f"defines {n.name}")
    elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name in ATTRIBUTE_OVERRIDES:
      flag(n, "attribute override", f"defines {n.name}")
    elif isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value not in ctx.given and (any(s in n.value for s in SUSPICIOUS_TEXT) or SUSPICIOUS_WORDS.search(n.value)):
      flag(n, "reads outside the working folder", f"mentions {n.value[:60]!r}")
  return out

def _writes_python(n:ast.Call) -> str|None:
  """The name of the Python file a call writes (`open("x.py", "w")`, `Path("x.py").write_text(...)`), or None."""
  name = None
  if isinstance(n.func, ast.Name) and n.func.id == "open" and n.args:
    mode = _text(n.args[1]) if len(n.args) > 1 else next((_text(k.value) for k in n.keywords if k.arg == "mode"), "r")
    name = _text(n.args[0]) if mode is None or set(mode) & set("wax+") else None
  elif isinstance(n.func, ast.Attribute) and n.func.attr in ("write_text", "write_bytes") and isinstance(n.func.value, ast.Call) and n.func.value.args:
    name = _text(n.func.value.args[0])
  return name if name is not None and name.strip().endswith((".py", ".pyc", ".pyw", ".so", ".pth")) else None

def _library(n:ast.AST, libraries:list[str]) -> str|None:
  """The forbidden library an import, a name or a string of an answer reaches, or None."""
  def hit(name:str|None) -> str|None:
    return next((lib for lib in libraries if name and (name == lib or name.startswith(lib + "."))), None)
  if isinstance(n, ast.Import): return next((h for a in n.names if (h := hit(a.name))), None)
  if isinstance(n, ast.ImportFrom) and n.module and not n.level:
    return hit(n.module) or next((h for a in n.names if (h := hit(f"{n.module}.{a.name}"))), None)
  if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load): return next((lib for lib in libraries if "." not in lib and n.id == lib), None)
  if isinstance(n, (ast.Constant, ast.BinOp, ast.JoinedStr)) and (said := _text(n)) is not None: return hit(said.strip())
  return None

def flags(answers:list[tuple[str, str]], allow:list[str]=(), forbidden:set[str]|Context=frozenset()) -> list[Flag]:
  """Flags of (where, source) pairs, minus what the module allows: a whole rule ("runs programs") or one finding of a
  rule ("introspection: imports pickle": module 10 ships a model with pickle, and gc or inspect stay flagged).
  `forbidden`: the names the tests forbid, or the whole Context (see Context)."""
  out, seen, allowed = [], set(), set(allow)
  ctx = forbidden if isinstance(forbidden, Context) else Context(forbidden=set(forbidden))
  for where, src in answers:
    for f in sorted(scan(src, where, ctx), key=lambda f: int(f.where.rsplit(" ", 1)[-1]) if f.where.rsplit(" ", 1)[-1].isdigit() else 0):
      if f.rule not in allowed and f"{f.rule}: {f.what}" not in allowed and (f.where, f.rule) not in seen:
        seen.add((f.where, f.rule)); out.append(f)
  return out
