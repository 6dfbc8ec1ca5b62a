"""Grade a submission folder against the trusted source folder, module by module, into one report.

For each module: the reference run (the trusted solution, oracle included, in a kernel of its own; cached by the
hash of the module's files, the grader and the library versions, in a folder no kernel can see), then the learner's
run (their answers with the trusted cells, oracle cut out, in the sandbox), then the verdict in this process."""
from __future__ import annotations
import ast, sys, time, traceback
from pathlib import Path
from autograder.core.assemble import Unreadable, assemble, parse_notebook, read_submission
from autograder.core.cause import explain
from autograder.core.cells import clear_solutions, grade_id, graded_without_libraries, hint, is_answer, is_test, points
from autograder.core.hints import collect as collect_hints, opened_hints, pointer as hint_pointer
from autograder.core.module import Module
from autograder.core.names import imported
from autograder.core.results import Flag, ModuleResult, ModuleStatus, Outcome, ReferenceRun, Report, RunStatus, TestResult, TestStatus
from autograder.core.runs import reference, run_module
from autograder.core.transform import hidden_text, notebook_sites, python_source, visible_strings
from autograder.core.verdict import Redactor, judge, metrics
from autograder.grading.flags import Context, flags, importable_names
from autograder.notebook.checks import __all__ as checks_all

def _unexecuted(source, message:str, status:TestStatus=TestStatus.NOT_RUN) -> list[TestResult]:
  return [TestResult(grade_id(c), None, points(c), status, 0.0, message) for c in source.cells if is_test(c)]

def learner_answers(assembled, module:Module, files:dict[str, bytes]) -> list[tuple[str, str]]:
  """(where, text) of the learner's answer cells and answer files, for the flags and the similarity report."""
  out = [(grade_id(c) or f"cell {i + 1}", c.source) for i, c in enumerate(assembled.cells) if is_answer(c)]
  for name in module.answer_files:
    try:
      if name in files: out.append((name, files[name].decode()))
    except UnicodeDecodeError: pass
  return out

def _tree(source:str) -> ast.AST:
  try: return ast.parse(python_source(source))
  except SyntaxError: return ast.Module(body=[], type_ignores=[])

def flag_context(module:Module, ref:ReferenceRun) -> Context:
  """What the flags know of a module (grading.flags.Context): the names its tests forbid and the reference's functions
  that ran inside those blocks (from the reference run), the functions its solution defines, its forbidden libraries
  and which answers are graded without them, the names its trusted cells import, and what an answer can import."""
  source, inside = module.notebook, {}
  for t in ref.tests.values():
    for name, called in t.forbidden_in.items(): inside.setdefault(name, set()).update(called)
  answers = [c.source for c in source.cells if is_answer(c)] + [(module.folder / f).read_text(errors="replace") for f in module.answer_files]
  defined = {n.name for text in answers for n in ast.walk(_tree(text)) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
  trusted_trees = [_tree(c.source) for c in source.cells if c.cell_type == "code" and not is_answer(c)]
  roots = set().union(*(imported(t) for t in trusted_trees)) - {"*"}
  vocabulary = set(checks_all) | {n.name for t in trusted_trees for n in t.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
  barred = set(module.answer_files) | graded_without_libraries(source)
  files = {p.stem if p.suffix == ".py" else p.name for p in module.folder.iterdir() if p.suffix == ".py" or (p.is_dir() and (p / "__init__.py").exists())}
  given = {n.value for text in answers for n in ast.walk(_tree(clear_solutions(text))) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
  return Context(set().union(*(set(t.forbidden) for t in ref.tests.values())), inside, defined, list(module.settings["forbidden_libraries"]),
                 barred, roots, importable_names(files), given, (roots | vocabulary) - defined)

def solution_flags(module:Module) -> list[Flag]:
  """The flags the reference solution's answers raise (the suite requires none): its reference run supplies the
  forbidden names (cached when a grading or a mutation session ran it)."""
  files = {name: (module.folder / name).read_bytes() for name in module.answer_files}
  return flags(learner_answers(assemble(module.notebook, module.fresh()), module, files), module.settings["allow_flags"], flag_context(module, reference(module)))

def grade_module(module:Module, submission_root:Path, on_cell=None) -> ModuleResult:
  """One module's part of the report; `on_cell(done, total)` is called as code cells finish. The submission is read
  once, here (assemble.read_submission); nothing later opens the submission folder."""
  start = time.monotonic()
  source = module.notebook                                 # the trusted source must read; if not, that is ours to fix
  status, message, tests, module_flags, used, opened = ModuleStatus.GRADED, "", None, [], "", None
  mine = read_submission(module, Path(submission_root))
  if mine.refused: status, message = ModuleStatus.UNREADABLE, mine.refused
  elif mine.notebook_text is None: status, message = ModuleStatus.MISSING, mine.missing
  else:
    try: submission = parse_notebook(mine.notebook_text)
    except Unreadable as e: status, message = ModuleStatus.UNREADABLE, f"cannot read {module.name}.ipynb: {e}"
  if status == ModuleStatus.GRADED:
    ref = reference(module, on_cell=on_cell)
    assembled = assemble(source, submission)
    got, run_status, run_message, used = run_module(assembled, module, mine.files, learner=True, on_cell=on_cell,
                                                    seed_db=Path(ref.db) if ref.db else None)
    redact = Redactor(hidden_text(source))
    titles = module.titles
    missing = Outcome()
    known = notebook_sites(source)
    shown = visible_strings(source) | {str(o.name) for t in ref.tests.values() for o in t.observations if not o.hidden}
    tests = [judge(TestResult(grade_id(c), titles.get(grade_id(c), ""), points(c)), ref.tests.get(grade_id(c), missing),
                   got.get(grade_id(c), missing), got.get(grade_id(c), missing).message, redact, known, shown)
             for c in source.cells if is_test(c)]
    for t in tests: t.metrics = metrics(ref.tests[t.id].observations, got[t.id].observations) if t.id in ref.tests and t.id in got else None
    explain(tests, {k: v.cause for k, v in got.items()}, assembled, trusted=source)     # causes, told as the self-check does
    for t in tests: t.message = redact(t.message)
    hinted = collect_hints(source)
    hints = {grade_id(c): hint(c, hint_pointer(module.name, titles.get(grade_id(c), "")) if titles.get(grade_id(c)) in hinted else "") for c in source.cells if is_test(c)}
    for t in tests:
      if t.status != TestStatus.PASSED and hints.get(t.id): t.hint = hints[t.id]
    opened = opened_hints(mine.opened_hints, hinted).get("hints_opened")
    if run_status != RunStatus.COMPLETED: status, message = ModuleStatus(run_status), redact(run_message)
    elif run_message: message = redact(run_message)           # a completed run's note (its output over the cap, dropped)
    if mine.unread: message = "; ".join(x for x in (message, f"not read, so graded as not submitted: {', '.join(mine.unread)}") if x)
    module_flags = flags(learner_answers(assembled, module, mine.files), module.settings["allow_flags"], flag_context(module, ref))
    module_flags += [Flag(t.id, "forged observation", t.forged) for t in tests if t.forged]
  if tests is None: tests = _unexecuted(source, message)
  return ModuleResult(module.name, status, message, used, module_flags, hints_opened=opened, score=sum(t.score for t in tests),
                      max_score=sum(t.max_score for t in tests), seconds=round(time.monotonic() - start, 2), tests=tests)

def failed_module(module:Module, error:Exception, seconds:float=0.0) -> ModuleResult:
  """A module whose grading raised in the grader (a bug of ours, or input we did not foresee): its tests, unscored,
  with a message that names the exception's type only (its text may quote what the learner's files hold)."""
  message = f"the grader failed on this module ({type(error).__name__}); the other modules were graded: tell your instructor"
  try: tests = _unexecuted(module.notebook, message)
  except Exception: tests = []
  return ModuleResult(module.name, ModuleStatus.GRADER_ERROR, message, "", [], score=0.0, max_score=sum(t.max_score for t in tests),
                      seconds=round(seconds, 2), tests=tests)

def grade(modules:list[Module], submission_root:Path, on_module=None, on_cell=None) -> Report:
  """Every module's part of the report. A module whose grading raises becomes a `grader_error` row of that module (the
  traceback goes to stderr, for the instructor): no module can cost another its grade."""
  results = []
  for module in modules:
    start = time.monotonic()
    try: results.append(grade_module(module, submission_root, on_cell))
    except Exception as e:
      traceback.print_exc(file=sys.stderr)
      results.append(failed_module(module, e, time.monotonic() - start))
    if on_module: on_module(results[-1])
  return Report.of(results)
