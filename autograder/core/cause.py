"""Messages that find the cause of a failing test, the same in self-check and grading.

* Which function raised: the frames of the error's traceback that lie in answer cells name the learner's function
  that raised; when it belongs to another task, the test depends on that task ("depends on Task 2.1,
  exp_fusion_rule, which raised NotImplementedError").
* Which other tasks a test uses: a name a test cell reads that an answer cell of another task defines, or that a
  cell computed from such a function (`savings = jit_savings(step)`), ties the test to that task; a failing check in
  it may come from there. Only the visible lines of a test are read, so that nothing is said about hidden checks.

Every text here comes from the trusted notebook (task titles, function names) or is a line number; the traceback of
a learner's run is only searched for frame headers.
"""
from __future__ import annotations
import ast, re
from nbformat import NotebookNode
from autograder.core.cells import TASK, defined_names, grade_id, headings, is_answer, is_test
from autograder.core.hints import is_hint_cell
from autograder.core.names import binds, exposed
from autograder.core.transform import hidden_lines, python_source
from autograder.core.results import UNFINISHED, TestResult, TestStatus
from autograder.core.verdict import REPLY_ERROR, learner_error

ANSI = re.compile(r"\x1b\[[0-9;]*m")
FRAME = re.compile(r"Cell In\[(\d+)\], line (\d+)(?:, in ([A-Za-z_][A-Za-z0-9_]*))?")
MAX_TRACEBACK = 400                              # entries of a traceback that are read (a learner's run may send many)

def cell_tasks(nb:NotebookNode) -> dict[int, str]:
  """Each code cell's task ('Task 2.1', or '' before the first task), by cell index: the last task the markdown above
  it named, as for test titles."""
  out, task = {}, ""
  for i, cell in enumerate(nb.cells):
    if is_hint_cell(cell): continue
    if cell.cell_type == "markdown":
      if (m := TASK.search(cell.source)): task = f"Task {m[1]}"
      elif headings(cell.source): task = ""
    elif cell.cell_type == "code": out[i] = task
  return out

def frames(traceback:list, execution_counts:dict[int, int]) -> list[tuple[int, int, str]]:
  """(cell index, line, function) of each notebook frame of a traceback, outermost first; `execution_counts` maps
  the numbers of `In[n]` to cell indices."""
  out = []
  for entry in (traceback or [])[:MAX_TRACEBACK]:
    if not isinstance(entry, str): continue
    for m in FRAME.finditer(ANSI.sub("", entry[:100_000])):
      if (index := execution_counts.get(int(m[1]))) is not None: out.append((index, int(m[2]), m[3] or ""))
  return out

def raised_in(nb:NotebookNode, frame_list:list[tuple[int, int, str]]) -> dict|None:
  """The deepest frame in an answer cell: {"cell", "task", "function", "line"} (cell by grade_id), or None."""
  tasks = cell_tasks(nb)
  for index, line, function in reversed(frame_list):
    if 0 <= index < len(nb.cells) and is_answer(nb.cells[index]):
      names = sorted(defined_names(nb.cells[index].source))
      own = function and function != "<module>" and function in nb.cells[index].source   # a name the answer spells: no text from elsewhere
      name = function if own else (names[0] if len(names) == 1 else "")
      return {"cell": grade_id(nb.cells[index]) or f"cell {index + 1}", "task": tasks.get(index, ""), "function": name, "line": line}
  return None

def error_cause(nb:NotebookNode, test_index:int, ename:str, frame_list:list[tuple[int, int, str]]) -> str|None:
  """What a test's error says about its cause: another task's function that raised, or the own function that is
  still a stub. None when the traceback reaches no answer cell."""
  where = raised_in(nb, frame_list)
  if where is None: return None
  own = cell_tasks(nb).get(test_index, "")
  name = where["function"] or where["cell"]
  if where["task"] and where["task"] != own: return f"depends on {where['task']}, {name}, which raised {ename}"
  if ename == "NotImplementedError": return f"not attempted: {name} still raises NotImplementedError"
  return None

# ---- which other tasks a test uses (static) --------------------------------------------------------------------------

def _statements(source:str) -> list[tuple[set[str], set[str]]]:
  """(names read from before it, names bound) of each top-level statement of a cell; a definition binds only its own
  name, and a loop's own variable is not read from before it."""
  try: tree = ast.parse(python_source(source))
  except SyntaxError: return []
  return [(exposed([stmt]), binds(stmt)) for stmt in tree.body]

def _acts(stmt:ast.stmt) -> bool:
  """Whether a top-level statement does something besides storing names: a call or magic as a statement, or an
  assignment into an attribute or an item (`os.environ.setdefault(...)`, `torch.manual_seed(0)`); a branch, `try` or
  `with` acts when a statement in it does (a loop is taken for a demonstration). `%matplotlib` does not: it only
  says where figures are shown, a check shows none, and its kernel draws with Agg anyway."""
  if isinstance(stmt, ast.Expr):
    call = stmt.value
    return not isinstance(call, ast.Constant) and not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
      and call.func.attr == "run_line_magic" and call.args and isinstance(call.args[0], ast.Constant) and call.args[0].value == "matplotlib")
  if isinstance(stmt, (ast.If, ast.Try, ast.With)):
    inner = stmt.body + stmt.orelse if isinstance(stmt, ast.If) else stmt.body
    if isinstance(stmt, ast.Try): inner = inner + stmt.orelse + stmt.finalbody + [s for h in stmt.handlers for s in h.body]
    return any(_acts(s) for s in inner)
  if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
    return any(not isinstance(n, ast.Name) for t in targets for n in ([t] if not isinstance(t, (ast.Tuple, ast.List)) else t.elts))
  return False

def trim(source:str, needed:set[str]) -> tuple[str|None, set[str]]:
  """A set-up cell cut to what is needed: its top-level statements that act (see _acts), import with `*`, or store a
  name in `needed` or read by a statement kept after them; the others become empty lines, so line numbers stay.
  Returns (the cut source, or None when no statement is kept; the names it reads from the cells before it). A cell
  that does not parse, or whose cut would not, is kept whole."""
  try: tree = ast.parse(python_source(source))
  except SyntaxError: return source, set(needed)
  span = lambda stmt: set(range(min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", [])]), stmt.end_lineno + 1))
  keep, need = set(), set(needed)
  for stmt in reversed(tree.body):
    stores = binds(stmt)
    if _acts(stmt) or "*" in stores or stores & need: keep |= span(stmt); need = (need - stores) | exposed([stmt])
  if not keep: return None, set(needed)
  drop = set().union(*(span(stmt) for stmt in tree.body)) - keep
  kept = "".join("\n" if n in drop else line for n, line in enumerate(source.splitlines(keepends=True), 1))
  try: ast.parse(python_source(kept))
  except SyntaxError: return source, (set(needed) - set().union(*map(binds, tree.body))) | exposed(tree.body)
  return kept, need

def needs(source:str) -> tuple[set[str], set[str]]:
  """(names a cell reads before storing them, names it stores)."""
  try: tree = ast.parse(python_source(source))
  except SyntaxError: return set(), set()
  return exposed(tree.body), set().union(*(binds(s) for s in tree.body)) if tree.body else set()

def visible_source(source:str) -> str:
  """A test cell without its hidden-test lines."""
  hidden = hidden_lines(source)
  return "\n".join("" if n in hidden else line for n, line in enumerate(source.splitlines(), 1))

def task_uses(nb:NotebookNode, trusted:NotebookNode|None=None) -> dict[int, dict[str, str]]:
  """For each test cell (by index), the other tasks whose answers its visible lines use: {task: function}. A name
  carries the tasks of the answers its statement read, until a statement stores it again; an answer function carries
  what its own cell uses of other tasks' answers, so a test of plan_formats is not told about what choose_format, of
  the same task, calls. `nb` is the notebook as run (the learner's answers: what their code uses, not what the
  solution's does); `trusted`, its source with the same cells: only the answer functions it defines are named."""
  tasks = cell_tasks(nb)
  producers: dict[str, dict[str, str]] = {}       # name -> {task: the answer function behind it, and what that one uses}
  out = {}
  for i, cell in enumerate(nb.cells):
    if cell.cell_type != "code": continue
    task = tasks.get(i, "")
    answers = defined_names((trusted or nb).cells[i].source) & defined_names(cell.source) if is_answer(cell) else set()
    everything: dict[str, str] = {}
    for loads, stores in _statements(visible_source(cell.source) if is_test(cell) else cell.source):
      used = {t: f for name in loads for t, f in producers.get(name, {}).items()}
      everything.update(used)
      for name in stores:
        if name in answers: producers[name] = {task: name} if task else {}
        elif used: producers[name] = dict(used)
        else: producers.pop(name, None)
    if answers:
      deps = {t: f for t, f in everything.items() if t != task}
      for name in answers: producers[name] = {**deps, **producers.get(name, {})}
    elif is_test(cell): out[i] = {t: f for t, f in everything.items() if t and t != task}
  return out

def tested_names(nb:NotebookNode, trusted:NotebookNode|None=None) -> dict[int, set[str]]:
  """For each test cell (by index), the answer functions of its own task that its visible lines name."""
  tasks = cell_tasks(nb)
  answers: dict[str, set[str]] = {}
  for i, cell in enumerate(nb.cells):
    if cell.cell_type == "code" and is_answer(cell):
      answers.setdefault(tasks.get(i, ""), set()).update(defined_names((trusted or nb).cells[i].source) & defined_names(cell.source))
  return {i: set().union(*(loads for loads, _ in _statements(visible_source(cell.source))), set()) & answers.get(tasks.get(i, ""), set())
          for i, cell in enumerate(nb.cells) if cell.cell_type == "code" and is_test(cell)}

def uses_note(uses:dict[str, str], failing:dict[str, set[str]|None]) -> str:
  """A sentence for a failing test that uses other tasks' answers; '' when it uses none. `failing`: the tasks with a
  failing test, each with the answer functions its failing tests name (None: not known, any of them), so that a
  function whose own test passes is not blamed for another function of its task."""
  if not uses: return ""
  bad = [f"{f} ({t})" for t, f in uses.items() if t in failing and (failing[t] is None or f in failing[t])]
  if bad: return f"it uses {', '.join(bad)}, whose test fails too: fix that first"
  return f"it uses {', '.join(f'{f} ({t})' for t, f in uses.items())}: a wrong value from there fails this test too"

# ---- grading ----------------------------------------------------------------------------------------------------------

def run_cause(nb:NotebookNode, index:int, run) -> str:
  """The cause of a test cell's error in a run (see `error_cause`), '' when none is found. `nb` is the notebook the
  run executed (indices as in `run`)."""
  reply = run.replies.get(index, {})
  if reply.get("status") != REPLY_ERROR or reply.get("ename") in ("CheckFailed", "CheckSkipped"): return ""
  tb = reply.get("traceback") if isinstance(reply.get("traceback"), list) else []
  return error_cause(nb, index, learner_error(str(reply.get("ename", "Error"))), frames(tb, run.execution_counts)) or ""

def explain(tests:list[TestResult], causes:dict[str, str], source:NotebookNode, failing_elsewhere:set[str]=frozenset(),
            trusted:NotebookNode|None=None):
  """The messages of failing tests, the same in grading and self-check: a test whose error came from another task's
  function says which (instead of the bare error), a stub of its own says it is not attempted, and a failing test
  that uses other tasks' answers says so. `tests` are results (changed in place), `causes` the run's causes by test
  id, `failing_elsewhere` tasks known to fail that these results do not hold (a check of one task). `source` is the
  notebook as run (the learner's answers), `trusted` its source where the two differ (see task_uses)."""
  broken = (TestStatus.FAILED, TestStatus.ERROR)
  if not any(t.status in broken for t in tests): return
  index = {grade_id(c): i for i, c in enumerate(source.cells) if is_test(c)}
  uses, named = task_uses(source, trusted), tested_names(source, trusted)
  failing: dict[str, set[str]|None] = {task: None for task in failing_elsewhere}
  for t in tests:
    if t.status in UNFINISHED and failing.get(t.task or "", set()) is not None:
      failing[t.task or ""] = failing.get(t.task or "", set()) | named.get(index.get(t.id, -1), set())
  for t in tests:
    if t.status not in broken: continue
    cause = causes.get(t.id, "")
    if cause.startswith("depends on"):
      t.message = cause if t.message.startswith("NotImplementedError") else f"{cause} ({t.message})"
    elif cause.startswith("not attempted"):
      t.message = f"NotImplementedError: not attempted ({cause.removeprefix('not attempted: ').replace(' NotImplementedError', ' it')})"   # verdict.not_attempted reads the first word
    elif (note := uses_note(uses.get(index.get(t.id, -1), {}), {k: v for k, v in failing.items() if k != (t.task or "")})):
      t.message = f"{t.message}; {note}"
