"""core.names: which names a piece of Python reads and binds, by Python's scoping rules. One analysis serves the cut of
`check --task`, the hidden-data tracking of grading and the author's lint, so each rule below holds for all three."""
import ast
import pytest
from autograder.core.names import assigned, binds, everywhere, exposed, imported, reads, unbinds

def stmt(code:str) -> ast.stmt: return ast.parse(code).body[0]
def block(code:str) -> list[ast.stmt]: return ast.parse(code).body

@pytest.mark.parametrize("code, read, needed, bound", [        # reads: in any order; needed: read before bound (exposed)
  ("x = y + 1", {"y"}, {"y"}, {"x"}),
  ("x += 1", {"x"}, {"x"}, {"x"}),
  ("a.b[c] = d", {"a", "c", "d"}, {"a", "c", "d"}, set()),                  # an item or attribute store binds no name
  ("def f(p, *q, k=default, **r):\n    return p + g + local\n    local = 1", {"default", "g"}, {"default", "g"}, {"f"}),   # parameters and locals stay inside
  ("def f():\n    global G\n    G = 1\n    return G", {"G"}, {"G"}, {"f"}),   # a global is not a local: it is read outside
  ("def f():\n    x = 1\n    def h():\n        nonlocal x\n        return x + y\n    return h", {"y"}, {"y"}, {"f"}),
  ("@deco(arg)\nclass C(Base, metaclass=M):\n    attr = value\n    other = attr", {"deco", "arg", "Base", "M", "value"}, {"deco", "arg", "Base", "M", "value"}, {"C"}),
  ("f = lambda a, b=dflt: a + b + c", {"dflt", "c"}, {"dflt", "c"}, {"f"}),
  ("out = [i * k for i in items if i > lim]", {"k", "items", "lim"}, {"k", "items", "lim"}, {"out"}),   # a comprehension's target is its own
  ("out = {k: v for k, v in pairs for w in v}", {"pairs"}, {"pairs"}, {"out"}),
  ("out = [y := f(x) for x in xs]", {"f", "xs"}, {"f", "xs"}, {"out", "y"}),   # a walrus in a comprehension binds outside it
  ("if (n := len(a)) > 3: print(n)", {"len", "a", "print", "n"}, {"len", "a", "print"}, {"n"}),
  ("for i, (j, k) in pairs: total = i + j + k", {"pairs", "i", "j", "k"}, {"pairs"}, {"i", "j", "k", "total"}),
  ("with open(p) as f, lock: data = f.read()", {"open", "p", "lock", "f"}, {"open", "p", "lock"}, {"f", "data"}),
  ("try:\n    import torch\nexcept ImportError as e:\n    torch = None\n    why = e", {"ImportError", "e"}, {"ImportError"}, {"torch", "e", "why"}),
  ("import numpy.linalg as la, os.path", set(), set(), {"la", "os"}),
  ("from math import *", set(), set(), {"*"}),
  ("del x, y[0]", {"y"}, {"y"}, set()),
  ("match v:\n    case [a, *rest]: pass\n    case {'k': b, **more}: pass\n    case C(c) as whole: pass", {"v", "C"}, {"v", "C"}, {"a", "rest", "b", "more", "c", "whole"}),
])
def test_reads_and_binds(code, read, needed, bound):
  assert (reads(stmt(code)), exposed([stmt(code)]), binds(stmt(code))) == (read, needed, bound)

def test_del_unbinds_and_binds_nothing():
  assert unbinds(stmt("del x, y[0]")) == {"x"} and binds(stmt("del x")) == set()
  assert unbinds(stmt("def f():\n    del z")) == set()                      # a function's own del stays inside it

def test_exposed_follows_the_order_of_statements():
  assert exposed(block("x = 1\ny = x + z")) == {"z"}                         # x is bound before it is read
  assert exposed(block("y = x\nx = 1")) == {"x"}                             # x is read before it is bound
  assert exposed(block("for v in vs:\n    w = v\n    u = w + t")) == {"vs", "t"}   # a loop variable and a name bound in the body
  assert exposed(block("if c:\n    a = 1\nelse:\n    b = a")) == {"c", "a"}  # a branch may not run: the else reads a from outside
  assert exposed(block("try:\n    r = risky()\nexcept E as e:\n    log(e)")) == {"risky", "E", "log"}

def test_a_function_reads_what_its_body_reads_from_outside():
  """A `def` reads what its body needs when it is called: the cut keeps the helper it uses, and hidden data that it
  reads taints what calling it returns."""
  f = stmt("def f(x):\n    y = helper(x)\n    return [z for z in y if z > limit]")
  assert reads(f) == {"helper", "limit"} and binds(f) == {"f"}

def test_imported_and_everywhere():
  tree = ast.parse("import a.b as c\ndef f(p):\n    from m import n\n    q = 1\n    del r")
  assert imported(tree) == {"c", "n"}
  assert everywhere([tree]) == {"c", "n", "f", "p", "q", "r"}               # every scope, parameters and deletions included
  assert everywhere(block("try:\n    pass\nexcept E as e:\n    pass\nmatch v:\n    case [a, *b]: pass")) == {"e", "a", "b"}

def test_assigned_is_what_binds_finds_set_as_a_variable():
  """The lint asks which variables code computes: not imports or definitions, not a nested scope's locals; a function
  that declares a name `global` sets the module's (when called)."""
  code = "import m\ndef f(p):\n    global G\n    G = L = p\nclass C:\n    attr = 1\nx, y[0] = 1, 2\nn += 1\nout = [w := i for i in r]\nfor k in r: pass\ntry:\n    pass\nexcept E as e:\n    pass"
  assert assigned(ast.parse(code)) == {"G", "x", "n", "out", "w", "k"}
  assert binds(ast.parse(code)) == {"m", "f", "C", "x", "n", "out", "w", "k", "e"}

def test_reads_may_leave_out_what_an_update_reads_of_itself():
  assert reads(stmt("n += step"), updates=False) == {"step"} and reads(stmt("n = n + step"), updates=False) == {"n", "step"}
  assert reads(stmt("def f():\n    global n\n    n += 1"), updates=False) == set() and reads(stmt("def f():\n    global n\n    n += 1")) == {"n"}
