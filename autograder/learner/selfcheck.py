"""The learner's self-check: build the notebook the way grading does (the learner's answer cells, every other cell from
the released starter), run its visible tests in a fresh kernel, and say, task by task, what passes, what fails and
where in the learner's own code an error came from. It also says plainly what grading will ignore: code outside the
answer cells, and answer cells whose type or id changed."""
from __future__ import annotations
import ast, copy, datetime, json, os, re, time
from dataclasses import replace
from pathlib import Path
from nbformat import NotebookNode
from autograder.core.assemble import Unreadable, read_notebook, assemble, answer_cells
from autograder.core.files import read_safe
from autograder.core.manifest import MANIFEST, read as manifest_of, sha256
from autograder.core.transform import python_source
from autograder.core.cause import error_cause, explain, frames, needs, trim
from autograder.core.cells import is_answer, is_test, grade_id, graded_without_libraries, hint, points, task_titles, defined_names
from autograder.core.execute import Run, limits, run_notebook
from autograder.core.hints import released_hints, read_opened, opened_line, pointer
from autograder.core.settings import cell_setting, module_settings
from autograder.core.results import CellState, ModuleResult, ModuleStatus, RunStatus, TestResult, TestStatus
from autograder.core.verdict import FAILED, SKIPPED, NOT_ATTEMPTED, OUTPUT_ERROR, REPLY_ERROR, outcome, error_text, clean

ANSI = re.compile(r"\x1b\[[0-9;]*m")
CELL_FRAME = re.compile(r"Cell In\[(\d+)\], line (\d+)")
FILE_FRAME = re.compile(r"File (\S+?):(\d+), in ")
RELEASED = ".released"
LAST_CHECK = ".last_check.json"         # each test's last self-check result, for `autograder progress` (not committed)
UNKNOWN_STATUS = "?"                     # a last result whose status the file does not say

def released_path(path:Path) -> Path:
  """Where release keeps the pristine starter of a module's notebook."""
  return path.parent / RELEASED / path.name

def differences(starter:NotebookNode, mine:NotebookNode) -> list[str]:
  """What grading will not take from the learner's notebook, one sentence each."""
  out = []
  found = answer_cells(starter, mine)
  starter_ids = {grade_id(c) for c in starter.cells if grade_id(c)}
  for i, cell in enumerate(starter.cells):
    gid = grade_id(cell)
    if is_answer(cell):
      same_id = [c for c in mine.cells if grade_id(c) == gid]
      if same_id and same_id[-1].cell_type != "code":
        out.append(f"answer cell {gid} is now a {same_id[-1].cell_type} cell: grading runs its text as code all the same, and so does "
                   "this check; turn it back into a code cell so that your notebook runs it too")
      elif found.get(i) is None: out.append(f"no answer cell {gid} (grading uses the unanswered stub)")
      elif not same_id: out.append(f"answer cell {gid} lost its id; grading found it by the names it defines ({', '.join(sorted(defined_names(cell.source)))})")
    elif cell.cell_type == "code" and gid:
      same = [c for c in mine.cells if grade_id(c) == gid]
      if same and same[-1].source != cell.source: out.append(f"cell {gid} differs from the released one: grading runs the released cell")
  used = {id(c) for c in found.values() if c is not None}
  for n, cell in enumerate(mine.cells):
    if cell.cell_type == "code" and id(cell) not in used and grade_id(cell) not in starter_ids and cell.source.strip():
      out.append(f"cell {n + 1} ({cell.source.strip().splitlines()[0][:40]!r}) is code outside the answer cells: grading ignores it")
  return out

def _imports(source:str) -> set[str]:
  """The top-level names of the modules a piece of code imports (absolute imports only)."""
  try: tree = ast.parse(python_source(source))
  except (SyntaxError, ValueError, RecursionError):
    try: tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError): return set()
  out = set()
  for n in ast.walk(tree):
    if isinstance(n, ast.Import): out |= {a.name.split(".")[0] for a in n.names}
    elif isinstance(n, ast.ImportFrom) and n.module and not n.level: out.add(n.module.split(".")[0])
  return out

def release_notes(folder:Path, pristine:Path, shipped:dict|None, answers:list[tuple[str, str]]) -> tuple[list[str], bool]:
  """What the self-check says about the module folder against what release shipped (core/manifest.py): (notes,
  whether the `.released` copy it builds from was edited). A support file the learner changed is noted (grading uses
  the course's), and so is an answer (cell or answer file) that imports a file of the folder that grading will not
  take: grading takes the answer files and `learner_files` from the learner, every other file from the course."""
  if shipped is None:
    return ([f"no release manifest at {RELEASED}/{MANIFEST}: this check cannot tell whether {RELEASED}/ was edited"] if pristine.is_file() else []), False
  notes, edited = [], False
  if pristine.is_file() and sha256(pristine.read_bytes()) != shipped["notebook"]:
    edited = True
    notes.append(f"{RELEASED}/{pristine.name} differs from what release shipped: this check builds the notebook from it, grading from the "
                 f"course, so these results do not predict grading; restore it (git checkout -- {RELEASED}/{pristine.name})")
  own = set(shipped["answer_files"]) | set(shipped["learner_files"])
  for rel, digest in sorted(shipped["files"].items()):
    if rel in own: continue
    data = read_safe(folder, rel)
    if data is None: notes.append(f"{rel}, a file release shipped, is missing here: grading uses the course's")
    elif sha256(data) != digest: notes.append(f"{rel} differs from the file release shipped: grading uses the course's, not yours")
  taken = set(shipped["files"]) | own
  for where, source in answers:
    for name in sorted(_imports(source)):
      for rel in (f"{name}.py", f"{name}/__init__.py", name):
        if not (folder / rel).exists() or rel in taken or any(t.startswith(f"{name}/") for t in taken): continue
        notes.append(f"{where} imports {name} from {rel} in this folder, which grading does not take (it takes only the answer files"
                     + (f" {', '.join(sorted(shipped['answer_files']))}" if shipped["answer_files"] else "") + " and the course's own files): "
                     "move that code into an answer cell")
        break
  return notes, edited

def learner_line(nb:NotebookNode, run:Run, test_index:int, workdir:Path) -> str|None:
  """Where the error of a test cell came from in the learner's own code: the deepest frame that is not a test cell."""
  reply = run.replies.get(test_index, {})
  err = reply if reply.get("status") == REPLY_ERROR else next((o for o in nb.cells[test_index].get("outputs", []) if o.output_type == OUTPUT_ERROR), None)
  if err is None: return None
  found = None
  for frame in ANSI.sub("", "\n".join(err.get("traceback", []))).splitlines():
    if (m := CELL_FRAME.search(frame)):
      index = run.execution_counts.get(int(m[1]))
      if index is None or is_test(nb.cells[index]): continue
      lines, n = nb.cells[index].source.splitlines(), int(m[2])
      where = grade_id(nb.cells[index]) or f"cell {index + 1}"
      found = f"{where}, line {n}: {lines[n-1].strip()}" if 0 < n <= len(lines) else f"{where}, line {n}"
    elif (m := FILE_FRAME.search(frame)):
      path = Path(m[1]).expanduser()
      if path.is_file() and workdir.resolve() in path.resolve().parents:
        try: lines, n = path.read_text(errors="replace").splitlines(), int(m[2])
        except (OSError, ValueError): continue
        found = f"{path.name}, line {n}: {lines[n-1].strip()}" if 0 < n <= len(lines) else f"{path.name}, line {n}"
  return found

def result_of(cell:NotebookNode, index:int, run:Run, task:str, hidden:bool) -> TestResult:
  """A visible test's result, judged on the spot: it passes when its cell ran without error."""
  o = outcome(cell, index, run)
  result = TestResult(grade_id(cell), task, points(cell), hidden_checks=hidden)
  if o.state != CellState.RAN: return replace(result, status=TestStatus(o.state), message=clean(run.message or o.state))
  if o.error is None: return replace(result, status=TestStatus.PASSED, score=points(cell))
  ename = o.error[0]
  status = TestStatus.SKIPPED if ename in SKIPPED else TestStatus.FAILED if ename in FAILED else TestStatus.ERROR
  message = str(o.error[1]).strip() if ename == "CheckFailed" else error_text(*o.error)    # worded as grading words it
  return replace(result, status=status, message=clean(message), ename=ename)

def traceback_of(nb:NotebookNode, run:Run, index:int) -> list:
  reply = run.replies.get(index, {})
  if reply.get("status") == REPLY_ERROR: return reply.get("traceback", [])
  return next((o.get("traceback", []) for o in nb.cells[index].get("outputs", []) if o.output_type == OUTPUT_ERROR), [])

def task_cells(nb:NotebookNode, task:str) -> dict[int, str]:
  """The cells a check of one task runs, in order, with the source each runs: every answer cell before the task's
  last test, the task's test cells, the other cells that store a name one of those reads (a backward pass over the
  notebook: a cell is kept when a later kept cell needs what it stores), and the set-up cells before the first answer
  that do something besides storing names (setting a variable of the environment, a magic). A set-up cell runs cut
  to the statements that are needed (an `import torch` that no kept cell uses costs a second)."""
  titles = task_titles(nb)
  tests = [i for i, t in titles.items() if t == task]
  if not tests: raise UnknownTask(task, sorted({t for t in titles.values() if t.startswith("Task ")}, key=_task_key))
  first_answer = next((i for i, c in enumerate(nb.cells) if is_answer(c)), len(nb.cells))
  keep, needed = {i: nb.cells[i].source for i in tests}, set()
  for i in range(max(tests), -1, -1):
    cell = nb.cells[i]
    if cell.cell_type != "code": continue
    if i < first_answer and not is_test(cell):
      cut, need = trim(cell.source, needed)
      if cut is not None: keep[i], needed = cut, need
      continue
    loads, stores = needs(cell.source)
    if i in keep or is_answer(cell) or stores & needed:
      keep[i] = cell.source
      needed = (needed - stores) | loads
  return dict(sorted(keep.items()))

def _task_key(task:str) -> tuple:
  return tuple(int(x) for x in task.removeprefix("Task ").split(".") if x.isdigit())

class UnknownTask(Exception):
  def __init__(self, task:str, tasks:list[str]):
    super().__init__(f"no test of {task} in this notebook; its tasks: {', '.join(t.removeprefix('Task ') for t in tasks)}")
    self.tasks = tasks

def _run(nb:NotebookNode, order:list[int], workdir:Path, starter:NotebookNode, sources:dict[int, str]|None=None) -> Run:
  """Run the cells `order` of `nb` (in place; a cell in `sources` runs that source instead, its outputs kept apart)
  after a cell that installs the error locator, and give the run's records by the cells' indices in `nb`."""
  from nbformat.v4 import new_code_cell
  runnable = copy.copy(nb)
  cut = lambda i: new_code_cell(sources[i], metadata=nb.cells[i].metadata) if sources and sources[i] != nb.cells[i].source else nb.cells[i]
  runnable.cells = [new_code_cell("import autograder.notebook.locate as __autograder_locate\n__autograder_locate.install()")] + [cut(i) for i in order]
  run = run_notebook(runnable, workdir, *limits(starter), base_env=dict(os.environ))
  where = [-1] + order
  run.cells = {where[k]: v for k, v in run.cells.items() if k}
  run.replies = {where[k]: v for k, v in run.replies.items() if k}
  run.execution_counts = {n: where[k] for n, k in run.execution_counts.items() if k}
  return run

def hidden_checks(cell:NotebookNode) -> bool:
  """Whether grading adds hidden checks to this test cell (release marks the learner's copy)."""
  return cell_setting(cell, "hidden_checks")

BESIDE = "; the course machine "          # what a check prints once a figure passes against a shipped one (checks._beside)

def figures(cell:NotebookNode, limit:int=8) -> list[str]:
  """The learner's figures beside the course machine's, as the test cell's checks printed them (at most `limit`)."""
  text = "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream" and o.get("name") == "stdout")
  return [clean(line, 200) for line in text.splitlines() if BESIDE in line][:limit]

def test_lines(result:TestResult, opened:str) -> list[str]:
  """What the self-check prints for one test: status, id, task, message; for a pass, whether grading adds hidden
  checks to it and for how many points; the hints opened."""
  title = f" ({result.task})" if result.task else ""
  if result.status == TestStatus.PASSED:
    secret = f"; grading adds hidden checks on other inputs ({result.max_score:g} points)" if result.hidden_checks else ""
    return [f"  {result.status:<15} {result.id}{title}{secret}" + (f"; {opened}" if opened else "")]
  if result.status == TestStatus.ERROR and result.message.startswith("NotImplementedError"):
    why = result.message.removeprefix("NotImplementedError: not attempted (").removesuffix(")") if "not attempted" in result.message else "the function still raises it"
    return [f"  not attempted   {result.id}{title}: {why.replace(' raises it', ' raises NotImplementedError')}"]
  return [f"  {result.status:<15} {result.id}{title}: {result.message}"]

def library_notes(starter:NotebookNode, answers:dict[str, str]) -> list[str]:
  """A note for each answer that imports one of the module's forbidden libraries where grading runs its task's tests
  without them (see core/sandbox.py): here the library is installed and the answer may pass, graded it fails."""
  banned, barred, out = module_settings(starter)["forbidden_libraries"], graded_without_libraries(starter), []
  for gid, source in sorted(answers.items()):
    if gid not in barred: continue
    try: tree = ast.parse(python_source(source))
    except (SyntaxError, ValueError, RecursionError): continue
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    names += [f"{n.module}.{a.name}" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module and not n.level for a in n.names]
    hit = sorted({lib for name in names for lib in banned if name == lib or name.startswith(lib + ".")})
    if hit: out.append(f"answer cell {gid} imports {', '.join(hit)}: this module's answers may not use {'it' if len(hit) == 1 else 'them'}, "
                       "and grading runs its tests where it is not installed (the test will fail there)")
  return out

def self_check(path:Path, log=print, task:str|None=None) -> ModuleResult:
  """Run the notebook at `path` as grading would build it, print one line (or more) per test, and return the
  module's part of a report (the same shape as grading's; "passed" is whether everything that ran passed). With
  `task` ('Task 3.2'), run only what that task's tests need and report those; results are kept in LAST_CHECK."""
  start = time.monotonic()
  mine = read_notebook(path)
  pristine = released_path(path)
  try: starter = read_notebook(pristine) if pristine.is_file() else mine
  except Unreadable as e: raise Unreadable(f"its released copy {RELEASED}/{pristine.name}: {e}") from None
  if starter is mine: log(f"  note: no released copy at {pristine}; running your notebook as it is")
  notes = differences(starter, mine)
  found = answer_cells(starter, mine)
  shipped = manifest_of(path.parent)
  answers = [(f"answer cell {grade_id(starter.cells[i]) or i + 1}", c.source) for i, c in found.items() if c is not None]
  answers += [(name, data.decode("utf-8", "replace")) for name in (shipped or {}).get("answer_files", []) if (data := read_safe(path.parent, name)) is not None]
  more, edited = release_notes(path.parent, pristine, shipped, answers)
  notes += more + library_notes(starter, {grade_id(starter.cells[i]) or "": c.source for i, c in found.items() if c is not None})
  for line in notes: log(f"  note: {line}")
  nb = assemble(starter, mine)
  titles = task_titles(nb)
  sources = task_cells(nb, task) if task else None
  order = list(sources) if task else [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
  if task: log(f"  only {task}: {sum(1 for i in order if is_test(nb.cells[i]) and titles.get(i) == task)} test cell(s) and the {len(order)} cell(s) they need")
  run = _run(nb, order, path.parent, starter, sources)
  for index in order:                                      # a failing set-up or answer cell explains the tests after it
    cell, reply = nb.cells[index], run.replies.get(index, {})
    if cell.cell_type != "code" or is_test(cell) or reply.get("status") != REPLY_ERROR or reply.get("ename") in NOT_ATTEMPTED: continue
    line = f"cell {grade_id(cell) or index + 1} ({'your answer' if is_answer(cell) else 'not a test'}) raised {clean(error_text(reply.get('ename', 'Error'), reply.get('evalue', '')))}; the tests after it may fail because of it"
    notes.append(line); log(f"  note: {line}")
  hints, opened = released_hints(path.parent), read_opened(path.parent)
  tests = [i for i in order if is_test(nb.cells[i]) and (task is None or titles.get(i) == task)]
  results = [result_of(nb.cells[i], i, run, titles.get(i, ""), hidden_checks(nb.cells[i])) for i in tests]
  causes = {r.id: error_cause(nb, i, r.ename, frames(traceback_of(nb, run, i), run.execution_counts)) or ""
            for i, r in zip(tests, results) if r.status in (TestStatus.FAILED, TestStatus.ERROR) and r.ename != "CheckFailed"}
  elsewhere = {t["task"] for t in (load_last(path.parent) or {}).get("tests", {}).values()
               if t.get("status") not in (TestStatus.PASSED, TestStatus.SKIPPED, None)} if task else set()   # a task's check knows the others from the last check
  explain(results, causes, nb, elsewhere, trusted=starter)   # worded as grading words them
  first_open = None
  for index, result in zip(tests, results):
    if result.status not in (TestStatus.PASSED, TestStatus.SKIPPED): first_open = first_open or result.task or result.id
    for line in test_lines(result, opened_line(result.task, opened, hints)): log(line)
    if result.status == TestStatus.PASSED:
      for line in figures(nb.cells[index]): log(f"                  {line}")
    if result.status not in (TestStatus.FAILED, TestStatus.ERROR): continue
    if result.ename not in ("CheckFailed", None) and not result.message.startswith(("depends on", "NotImplementedError")):
      if (where := learner_line(nb, run, index, path.parent)): log(f"                  in your code at {where}")
    help_text = hint(nb.cells[index], pointer(path.parent.name, result.task) if hints and result.task in hints else "")
    if help_text: log(f"                  {help_text}" + (f" ({opened_line(result.task, opened, hints)})" if hints and result.task in hints else ""))
  passed = sum(r.status == TestStatus.PASSED for r in results)
  skipped = sum(r.status == TestStatus.SKIPPED for r in results)
  if run.status != RunStatus.COMPLETED: log(f"  the run stopped early: {run.message}")
  hidden = [r for r in results if r.hidden_checks]
  log(f"{passed}/{len(results)} visible checks passed" + (f" ({skipped} skipped: this machine cannot run them)" if skipped else "")
      + (f"; next, look at: {first_open}" if first_open else "") + (f" (built from an edited {RELEASED}/ copy: not what grading runs)" if edited else ""))
  if hidden:
    log(f"grading adds hidden checks on other inputs to {len(hidden)} of these {len(results)} tests ({sum(r.max_score for r in hidden):g} of "
        f"{sum(r.max_score for r in results):g} points): a test's points need its hidden checks too, so passing here is not a promised score")
  report = ModuleResult(path.parent.name, ModuleStatus.GRADED if run.status == RunStatus.COMPLETED else ModuleStatus(run.status), clean(run.message),
                        notes=notes, score=sum(r.score for r in results), max_score=sum(r.max_score for r in results),
                        seconds=round(time.monotonic() - start, 2), tests=results, task=task or "", released_edited=edited,
                        passed=passed == len(results) and run.status == RunStatus.COMPLETED and not edited,
                        hints_opened={t: [min(opened.get(t, 0), len(v)), len(v)] for t, v in hints.items()} if hints else None)
  save_last(path.parent, report)
  return report

# ---- the last results, for `autograder progress` ----------------------------------------------------------------------

def load_last(folder:Path) -> dict|None:
  """The last results kept in a module folder, read as untrusted data (the file is the learner's): entries that are
  not tables are dropped and every field takes its type (a status and a message are text, points are numbers);
  None when there is no readable file."""
  try: data = json.loads((Path(folder) / LAST_CHECK).read_text())
  except (OSError, ValueError, RecursionError): return None
  if not isinstance(data, dict) or not isinstance(data.get("tests"), dict): return None
  text = lambda v: v if isinstance(v, str) else ""
  number = lambda v: float(v) if type(v) in (int, float) and v == v and abs(v) < 1e12 else 0.0
  tests = {str(k): {"task": text(t.get("task")), "status": text(t.get("status")) or UNKNOWN_STATUS, "score": number(t.get("score")),
                    "max_score": number(t.get("max_score")), "message": text(t.get("message")), "hidden_checks": t.get("hidden_checks") is True,
                    "when": text(t.get("when"))} for k, t in data["tests"].items() if isinstance(t, dict)}
  return {"version": data.get("version"), "module": text(data.get("module")), "when": text(data.get("when")), "tests": tests}

def save_last(folder:Path, report:ModuleResult):
  """Keep each test's last result (a check of one task updates that task's tests only)."""
  when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
  last = (load_last(folder) or {}) if report.task else {}
  tests = dict(last.get("tests", {}))
  for r in report.tests:
    tests[r.id] = {"task": r.task or "", "status": r.status, "score": r.score, "max_score": r.max_score,
                   "message": r.message, "hidden_checks": bool(r.hidden_checks), "when": when}
  data = {"version": 1, "module": report.module, "when": when, "tests": tests}
  try: (Path(folder) / LAST_CHECK).write_text(json.dumps(data, indent=1) + "\n")
  except OSError: pass
