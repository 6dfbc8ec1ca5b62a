"""Mutation testing of a module's tests: wrong variants of the reference answers must each lose points. Two sources:
the hand-written mutants of tests/mutants/NN_name.py (bugs a learner plausibly writes), and, with `generated`, mutants
made mechanically from the reference answers by autograder.authoring.mutagen (an argument dropped, a constant changed, an
operator swapped...), which do not depend on the author's imagination.

All of a module's mutants run in one kernel (two where some tests need the module's forbidden libraries: see parts,
as grading does): the solution's answers first, then for each mutant its edit, the tests it
must fail (its task's tests), and the solution back again; last, every test of the module with the solution (the
control: it must pass, or the session itself is unsound). The session runs as grading runs a learner's notebook: in
the sandbox, under the module's limits (its time and CPU time scaled to the session's length), the oracle cut out, so
the control is also the solution graded (the suite's "the solution gets full marks"). Each test is judged against the reference run, exactly as
grading judges it; the checks also compare with the reference's records as they go (checks.stop_at_first_difference),
so a wrong variant stops at the first check it fails instead of running the rest of its test, and its tests after the
first that raised are left out (`caught_before`): one failing test is enough to lose points. A mutant that kills
the kernel (or runs the session out of time) is caught, and the session starts again, set-up cells first, from the
mutant after it. A skipped test (a CUDA test without CUDA) catches nothing.

A generated mutant that survives with observations equal to the solution's is a candidate *equivalent* mutant (no
observable difference); the reviewed ones are listed, with a reason each, in tests/mutants/equivalent/NN_name.txt and
left out of the score: caught / (generated - equivalent)."""
from __future__ import annotations
import copy, json, re, runpy, time
from dataclasses import replace
from pathlib import Path
from nbformat.v4 import new_code_cell
from autograder.authoring import ledger
from autograder.authoring.mutagen import generate, sample, scope_at
from autograder.core.assemble import assemble
from autograder.core.cells import grade_id, has_solution_region, is_answer, is_test, needs_libraries, points
from autograder.core.execute import limits, run_notebook
from autograder.core.limits import Limits
from autograder.core.module import Module
from autograder.core.results import CellState, Observation, RunStatus, TestResult, TestStatus, to_json
from autograder.core.runs import reference, run_folder, sandbox_prefix, tinygrad_cache
from autograder.core.sandbox import available
from autograder.core.transform import RECORDER, prepare
from autograder.core.verdict import REPLY_ERROR, SKIPPED, first_failing_check, judge, outcome

def load(path:Path) -> list[dict]:
  return list(runpy.run_path(str(path))["MUTANTS"])

def task_tests(source, target:str) -> list[str]:
  """The test cells that follow answer cell `target`, up to the next answer cell."""
  ids, on = [], False
  for c in source.cells:
    if is_answer(c): on = grade_id(c) == target
    elif on and is_test(c): ids.append(grade_id(c))
  return ids

def _file_cell(name:str, text:str):
  return new_code_cell(f"import pathlib as __p, sys as __s, importlib as __i\n__p.Path({name!r}).write_text({text!r})\n"
                       f"__s.modules.pop({Path(name).stem!r}, None); __i.invalidate_caches()")

def _words(text:str) -> set[str]: return set(re.findall(r"\w+", text))

def file_tests(source, target:str, scope:str) -> list[str]:
  """The tests of an answer file's function `scope` (`Class.method`): those that name the method (a dunder method: its
  class), else those that name the file's module."""
  tests = [c for c in source.cells if is_test(c)]
  parts = [p for p in scope.split(".") if p]
  names = [n for n in reversed(parts) if not (n.startswith("__") and n.endswith("__"))] + [Path(target).stem]
  for name in names:
    found = [grade_id(c) for c in tests if name in _words(c.source)]
    if found: return found
  return [grade_id(c) for c in tests]

def answer_texts(module:Module) -> dict[str, str]:
  """The answers a mutant can target: answer cells by grade_id, answer files (with solution regions) by name."""
  out = {grade_id(c): c.source for c in module.notebook.cells if is_answer(c)}
  for p in sorted(module.folder.iterdir()):
    if p.is_file() and p.suffix == ".py" and has_solution_region(p.read_text()): out[p.name] = p.read_text()
  return out

def task_of(mutant:dict, texts:dict[str, str]) -> str:
  """The task a mutant belongs to: its answer cell, or `file:Class.method` for an answer file."""
  if mutant.get("task"): return mutant["task"]
  target, text = mutant["target"], texts.get(mutant["target"], "")
  if not target.endswith(".py") or mutant["old"] not in text: return target
  scope = scope_at(text, text[:text.index(mutant["old"])].count("\n") + 1)
  return f"{target}:{scope}" if scope else target

def generated(module:Module, max_per_task:int|None=None, seed:int=0) -> list[dict]:
  """The generated mutants of a module (see autograder.authoring.mutagen), at most `max_per_task` per task (a seeded sample)."""
  source = module.notebook
  context = [c.source for c in source.cells if c.cell_type == "code" and not is_test(c)]
  edits = []
  for target, text in answer_texts(module).items(): edits += generate(text, target, context)
  out = []
  for e in sample(edits, max_per_task, seed):
    m = e.mutant()
    if e.target.endswith(".py"): m["tests"] = file_tests(source, e.target, e.task.partition(":")[2])
    out.append(m)
  return out

def load_equivalent(path:Path) -> dict[str, str]:
  """{mutant id: reason} from a reviewed list: one `id reason` a line; `#` starts a comment line."""
  if not Path(path).is_file(): return {}
  out = {}
  for line in Path(path).read_text().splitlines():
    if line.strip() and not line.lstrip().startswith("#"):
      key, _, reason = line.strip().partition(" ")
      out[key] = reason.strip()
  return out

def mutant_tests(source, m:dict) -> list[str]:
  return m.get("tests") or task_tests(source, m["target"])

def session(module:Module, mutants:list[dict], records:Path|None=None, part:set[str]|None=None):
  """The notebook of a mutation session, [(mutant index or None for the control, test id, cell index)], and the cell
  index where each mutant's part starts (the set-up cells come before the first). `records`: a file of the reference
  run's records that the checks compare with as they go (checks.stop_at_first_difference). `part`: the tests this
  session runs (a kernel of grading's: see parts below), None for all; each mutant gets its tests among them."""
  source = module.notebook
  base = prepare(assemble(source, source), learner=True)
  if records is not None: base.cells.insert(1, new_code_cell(f"{RECORDER}.stop_at_first_difference({str(records)!r})"))
  texts = answer_texts(module)
  answers = {grade_id(c) for c in source.cells if is_answer(c)}
  tests = {grade_id(c): c for c in base.cells if is_test(c)}
  files = {p.name: p.read_text() for p in module.folder.iterdir() if p.is_file() and p.suffix == ".py"}
  cells = [c for c in base.cells if not is_test(c)]
  where, starts = [], []
  def cell_of(target, text):
    return new_code_cell(text) if target in answers else _file_cell(target, text)
  for n, m in enumerate(mutants):
    target = m["target"]
    text = texts.get(target, files.get(target))
    if text is None or m["old"] not in text: raise ValueError(f"mutant {m['name']!r}: {m['old']!r} is not in {target}")
    if m.get("generated") and text.count(m["old"]) != 1: raise ValueError(f"mutant {m['name']!r}: {m['old']!r} is not once in {target}")
    starts.append(len(cells))
    cells.append(cell_of(target, text.replace(m["old"], m["new"])))
    for tid in mutant_tests(source, m):
      if part is None or tid in part: where.append((n, tid, len(cells))); cells.append(copy.deepcopy(tests[tid]))
    cells.append(cell_of(target, text))
  starts.append(len(cells))
  for tid in tests:
    if part is None or tid in part: where.append((None, tid, len(cells))); cells.append(copy.deepcopy(tests[tid]))
  nb = copy.deepcopy(base); nb.cells = cells
  return nb, where, starts

def caught_before(where:list[tuple], ref:dict):
  """The executor's `skip`: a test cell of a mutant is left out once an earlier test of the same mutant raised, which
  fails that test (judge: the reference raised nothing there), unless the reference skipped it (a CUDA test here)."""
  mutant_of = {i: n for n, _, i in where if n is not None}
  earlier = {}
  for n, tid, i in where:
    if n is not None and not (ref.tests[tid].error and ref.tests[tid].error[0] in SKIPPED): earlier.setdefault(n, []).append(i)
  def raised(run, j): return run.replies.get(j, {}).get("status") == REPLY_ERROR and run.replies[j].get("ename") not in SKIPPED
  def skip(i:int, run) -> bool:
    n = mutant_of.get(i)
    return n is not None and any(raised(run, j) for j in earlier.get(n, []) if j < i)
  return skip

def _values(observations:list[Observation]) -> str:
  """What a test observed, as text: 4 and 4.0 differ (a float where an int is expected is a difference)."""
  return json.dumps([(o.site, o.k, o.actual) for o in observations], sort_keys=True, default=repr)

def parts(source) -> list[tuple[set[str]|None, bool]]:
  """The kernels a session takes, as grading's (runs.parts_of), each (the tests it runs or None for all, whether the
  module's forbidden libraries are hidden): one when no test needs the libraries; else the tests that do not, the
  libraries hidden, and then those that do, in a kernel with the libraries (its set-up and answers run again there).
  Isolated tests run in the session's kernel (test_honesty grades a module that has them on its own)."""
  tests = [c for c in source.cells if is_test(c)]
  if not any(needs_libraries(c) for c in tests): return [(None, True)]
  return [({grade_id(c) for c in tests if not needs_libraries(c)}, True), ({grade_id(c) for c in tests if needs_libraries(c)}, False)]

def run(module:Module, mutants_file:Path|None, on_cell=None, generate_mutants:bool=False,
        max_per_task:int|None=None, seed:int=0, equivalent_file:Path|None=None, on_control_cell=None, known:set[str]=frozenset(),
        control:bool=True) -> dict:
  """{"mutants": [{"name", "task", "caught", "tests": {id: status}, "message", "same_outputs", "equivalent"...}],
  "control": [problems], "status", "restarts", "seconds", "solution_seconds"}: the last, the set-up and the control
  together, over the session's kernels (about what grading the solution takes). `on_cell(done, total)` reports
  progress; `on_control_cell(id)` is called before each code cell of the control runs, with its grade id (None for a
  cell without one), and with None when the session ends. `known`: the keys of the module's ledger, whose mutants are not
  graded again; with `control=False` a session that has nothing left to grade runs no kernel at all ("ran": False)."""
  start = time.monotonic()
  source = module.notebook
  mutants = load(mutants_file) if mutants_file and Path(mutants_file).is_file() else []
  if generate_mutants: mutants += generated(module, max_per_task, seed)
  texts = answer_texts(module)
  equivalent = load_equivalent(equivalent_file) if equivalent_file else {}
  ref = reference(module)
  points_of = {grade_id(c): points(c) for c in source.cells if is_test(c)}
  version = ledger.version_key(module)
  results = [{**{k: v for k, v in m.items() if k not in ("old", "new")}, "task": task_of(m, texts), "caught": False, "tests": {},
              "message": "", "observed": {}, "old": m["old"], "new": m["new"]} for m in mutants]
  for m, res in zip(mutants, results): res["key"] = ledger.key(version, {**m, "task": res["task"]})
  graded = [i for i, res in enumerate(results) if res["key"] not in known]
  for i in set(range(len(results))) - set(graded): results[i].update(caught=True, ledger=True, message="caught by this version before (the ledger)")
  mutants, session_results = [mutants[i] for i in graded], [results[i] for i in graded]
  state = {"control": [], "control_obs": {}, "status": RunStatus.COMPLETED, "restarts": 0, "solution_seconds": 0.0, "done": 0,
           "total": sum(len(mutant_tests(source, m)) + 2 for m in mutants) + len(points_of)}
  ran = bool(mutants) or control
  if not ran: state["solution_seconds"] = None
  for part, hidden in parts(source) if ran else []:
    _run_part(module, mutants, session_results, ref, points_of, part, hidden, state, on_cell, on_control_cell)
    if state["status"] != RunStatus.COMPLETED: break
  for res in results:
    res["same_outputs"] = not res["caught"] and bool(res["observed"]) and all(
      obs == state["control_obs"].get(tid) or obs == _values(ref.tests[tid].observations) for tid, obs in res["observed"].items())
    res["untested"] = not res["caught"] and all(v == TestStatus.SKIPPED for v in res["tests"].values())   # e.g. CUDA tests, no CUDA here
    res["equivalent"] = equivalent.get(res.get("id", ""))
    del res["observed"]
  return {"module": module.name, "mutants": results, "control": state["control"], "status": state["status"], "restarts": state["restarts"], "ran": ran,
          "solution_seconds": state["solution_seconds"], "max_per_task": max_per_task, "seed": seed, "seconds": round(time.monotonic() - start, 1)}

def _run_part(module:Module, mutants:list[dict], results:list[dict], ref, points_of:dict, part:set[str]|None, hidden:bool,
              state:dict, on_cell, on_control_cell):
  """One kernel of a session (see parts): the mutants with a test in `part`, then the control's tests of `part`;
  a kernel that dies is started again from the mutant after the one that killed it. Fills `results` and `state`."""
  source = module.notebook
  cell_limit, limit = limits(source)
  settings, sandboxed = module.settings, available()[0]
  in_part = lambda m: any(part is None or t in part for t in mutant_tests(source, m))
  pending = [i for i, m in enumerate(mutants) if in_part(m)]
  while True:
    seed_db = Path(ref.db) if ref.db and Path(ref.db).is_file() else tinygrad_cache()
    with run_folder(module, None, seed_db, sandboxed=sandboxed, prefix="mutants") as (run_dir, workdir, env):
      records = run_dir / "reference-records.json"
      records.write_text(json.dumps({tid: to_json(o.observations) for tid, o in ref.tests.items()}))
      nb, where, starts = session(module, [mutants[i] for i in pending], records, part)
      code, ended = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"], {}
      def step(done, n, base=state["done"], pre=starts[0]):
        ended[code[done - 1]] = time.monotonic()               # `done` counts code cells; the session has markdown too
        if on_cell: on_cell(min(state["total"], base + max(0, done - pre)), state["total"])
        if on_control_cell and done < len(code) and code[done] >= starts[-1]: on_control_cell(grade_id(nb.cells[code[done]]))
      scale = 2 + len(pending)
      base_limits = Limits.of(settings)
      allowed = replace(base_limits, cpu_seconds=base_limits.cpu_seconds * scale)
      prefix = sandbox_prefix(run_dir, workdir, settings, allowed, libraries=hidden) if sandboxed else []
      started = time.monotonic()
      r = run_notebook(nb, workdir, cell_limit, limit * scale, on_cell=step, run_dir=run_dir, env=env, sandbox=prefix, limits=allowed,
                       skip=caught_before(where, ref))
      if on_control_cell: on_control_cell(None)
      before = lambda k: max((t for i, t in ended.items() if i < k), default=started)
      if r.status == RunStatus.COMPLETED and state["solution_seconds"] is not None:      # the set-up, then the control's tests
        state["solution_seconds"] = round(state["solution_seconds"] + before(starts[0]) - started + ended[code[-1]] - before(starts[-1]), 1)
      for k, i in enumerate(pending):                                  # each mutant's own cells, where its last one ended
        if starts[k + 1] - 1 in ended: results[i]["seconds"] = round(results[i].get("seconds", 0) + before(starts[k + 1]) - before(starts[k]), 1)
    died = min((i for i, s in r.cells.items() if s == CellState.NOT_RUN), default=None) if r.status != RunStatus.COMPLETED else None
    for n, tid, i in where:
      if (died is not None and i >= died) or r.cells.get(i) == CellState.SKIPPED: continue
      got = outcome(nb.cells[i], i, r)
      verdict = judge(TestResult(tid, max_score=points_of[tid]), ref.tests[tid], got, r.message)
      if got.error and got.error[0] == "DifferenceFound" and first_failing_check(ref.tests[tid].observations, got.observations) is None:
        state["control"].append(f"{tid}: the kernel stopped at a difference the verdict does not see ({got.error[1][:200]}): the session is unsound")
      counts = verdict.status not in (TestStatus.PASSED, TestStatus.SKIPPED)
      if n is None:
        state["control_obs"][tid] = _values(got.observations)
        if counts: state["control"].append(f"{tid} with the solution: {verdict.status}: {verdict.message}")
        continue
      res = results[pending[n]]
      res["tests"][tid], res["observed"][tid] = verdict.status, _values(got.observations)
      if counts and not res["caught"]: res.update(caught=True, message=f"{tid}: {verdict.message}")
    if died is None:
      state["done"] += sum(len(mutant_tests(source, mutants[i])) + 2 for i in pending) + sum(part is None or t in part for t in points_of)
      return
    if died < starts[0]:
      state["status"] = f"the set-up cells did not run: {r.message}"; return
    n = max(k for k in range(len(pending) + 1) if starts[k] <= died)       # len(pending): the control's part
    if n == len(pending):
      state["control"].append(f"the control did not run: {r.message}"); state["solution_seconds"] = None; return
    res = results[pending[n]]
    if not res["caught"]: res.update(caught=True, message=f"the session stopped: {r.message}")
    state["restarts"] += 1
    state["done"] += sum(len(mutant_tests(source, mutants[i])) + 2 for i in pending[:n + 1])
    pending = pending[n + 1:]

def scores(result:dict) -> list[dict]:
  """Per task: hand-written caught/total, generated caught/total, equivalent, score, survivors."""
  tasks = {}
  for m in result["mutants"]:
    t = tasks.setdefault(m["task"], {"task": m["task"], "hand": 0, "hand_caught": 0, "generated": 0, "caught": 0, "equivalent": [],
                                      "candidates": [], "survivors": [], "hand_survivors": []})
    if not m.get("generated"):
      t["hand"] += 1; t["hand_caught"] += m["caught"]
      if not m["caught"]: t["hand_survivors"].append(m["name"])
      continue
    t["generated"] += 1; t["caught"] += m["caught"]
    if m["caught"]: continue
    if m["equivalent"]: t["equivalent"].append(m)
    else:
      t["survivors"].append(m)
      if m["same_outputs"]: t["candidates"].append(m)
  for t in tasks.values():
    counted = t["generated"] - len(t["equivalent"])
    t["score"] = t["caught"] / counted if counted else None
  return list(tasks.values())
