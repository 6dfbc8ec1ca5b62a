"""Grade a submission folder against the trusted source folder, module by module, into one report.

For each module: the reference run (the trusted solution, oracle included, in a kernel of its own; cached by the
hash of the module's files, the grader and the library versions, in a folder no kernel can see), then the learner's
run (their answers with the trusted cells, oracle cut out, in the sandbox), then the verdict in this process."""
from __future__ import annotations
import copy, fcntl, hashlib, importlib.metadata, json, os, platform, sqlite3, sys, tempfile, time
from contextlib import closing
from pathlib import Path
from autograder import sandbox
from autograder.assemble import Unreadable, read_notebook, parse_notebook, read_submission, assemble, prepare_workdir, module_settings, remove_tree
from autograder.cells import grade_id, is_answer, is_test, is_isolated, points, task_titles, defined_names, hint
from autograder.course import DATA, notebook_path
from autograder.execute import limits, run_notebook, run_parent
from autograder.flags import flags
from autograder.limits import Limits
from autograder.transform import RECORDER, hidden_text, prepare, notebook_sites
from autograder.verdict import Redactor, judge, outcome
from autograder.cause import explain, run_cause
from autograder.hints import collect as collect_hints, opened_hints, pointer as hint_pointer

def cache_root() -> Path:
  """Where the grader keeps reference observations (never inside a sandbox's view)."""
  if os.environ.get("AUTOGRADER_CACHE"): return Path(os.environ["AUTOGRADER_CACHE"])
  return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tinygrad-workbook"

def tinygrad_cache() -> Path:
  """The trusted tinygrad compile/BEAM cache: runs get a copy; only reference runs write back."""
  if os.environ.get("CACHEDB"): return Path(os.environ["CACHEDB"])
  return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tinygrad" / "cache.db"

def _copy_db(src:Path, dst:Path):
  if not src.is_file(): return
  try:
    dst.parent.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(f"file:{src}?mode=ro", uri=True, timeout=60)) as a, closing(sqlite3.connect(dst, timeout=60)) as b:
      a.backup(b)                                          # (a connection's own `with` commits but does not close it)
  except sqlite3.Error: pass

REFERENCE_SLACK = 2.0          # the trusted reference run gets twice the limits: a loaded machine must not fail the oracle

def _checker_notebook(prepared, assembled):
  """The isolated tests with what they need and nothing of the learner's notebook code: the mode cell, the setup
  cells (trusted cells before the first answer, or marked `autograder.checker`), and the answers' sources as text."""
  from nbformat.v4 import new_code_cell
  first_answer = next((i for i, c in enumerate(prepared.cells) if is_answer(c)), len(prepared.cells))
  setup = [c for i, c in enumerate(prepared.cells) if c.cell_type == "code" and not is_answer(c) and not is_test(c)
           and (i < first_answer or c.get("metadata", {}).get("autograder", {}).get("checker"))]
  answers = {name: c.source for c in assembled.cells if is_answer(c) for name in defined_names(c.source)}
  out = copy.deepcopy(prepared)
  out.cells = setup + [new_code_cell(f"{RECORDER}.set_answers({answers!r})")] + [c for c in prepared.cells if is_isolated(c)]
  return out

def run_module(nb, module:str, source_root:Path, files:dict[str, bytes]|None, learner:bool, on_cell=None, seed_db:Path|None=None) -> tuple[dict, str, str, str]:
  """Run the assembled notebook `nb` (prepared for a learner or for the reference run) in a sandbox holding a working
  copy of the module, with the learner's `files` (see assemble.Submission; None: the source's own), under the
  module's resource limits (see limits.py). Isolated tests run first, in a kernel of their own. Returns (the outcome
  of each test by id, the run's status, its message, the sandbox used). `seed_db`: the tinygrad cache a learner's run starts from (the one
  the reference run left, so that BEAM searches and compiles the reference did are found again); a reference run
  writes its cache there."""
  settings = module_settings(nb)
  prepared = prepare(nb, learner=learner)
  parts = [prepared]
  if any(is_isolated(c) for c in prepared.cells):
    parts = [_checker_notebook(prepared, nb), copy.deepcopy(prepared)]
    parts[1].cells = [c for c in parts[1].cells if not is_isolated(c)]
  ok, why = sandbox.available()
  outcomes, status, message = {}, "completed", ""
  for part in parts:
    run_dir = Path(tempfile.mkdtemp(prefix=f"grade-{module}-", dir=run_parent()))
    try:
      workdir = run_dir / module
      prepare_workdir(Path(source_root) / module, files, workdir, settings.get("learner_files", []))
      _copy_db(seed_db if learner and seed_db is not None and seed_db.is_file() else tinygrad_cache(), run_dir / "cache.db")
      sandbox.provide_package(run_dir, ok)
      hide = [DATA / h for h in settings.get("hide_data", [])] if learner else []
      allowed = Limits.of(settings) if learner else Limits.of(settings).scaled(REFERENCE_SLACK)
      prefix = sandbox.command(run_dir, workdir, reads=[DATA] if DATA.is_dir() else [], hide=hide, tmp_mb=allowed.tmp_mb) if ok else []
      extra = {"CACHEDB": str(run_dir / "cache.db"), "WORKBOOK_DATA": str(DATA)}
      cell_limit, limit = limits(nb)
      slack = 1.0 if learner else REFERENCE_SLACK
      run = run_notebook(part, workdir, cell_limit * slack, limit * slack, on_cell=on_cell, run_dir=run_dir, sandbox=prefix, env=extra, limits=allowed)
      if not learner:
        _copy_db(run_dir / "cache.db", tinygrad_cache())
        if seed_db is not None: _copy_db(run_dir / "cache.db", seed_db)
    finally:
      remove_tree(run_dir)
    outcomes.update({grade_id(c): outcome(c, i, run) | {"message": run.message, "cause": run_cause(part, i, run)} for i, c in enumerate(part.cells) if is_test(c)})
    if run.status != "completed" and status == "completed": status, message = run.status, run.message
  return outcomes, status, message, ("bubblewrap" if ok else f"none ({why})")

def _module_key(source_dir:Path) -> str:
  h = hashlib.sha256()
  for path in sorted(p for p in Path(source_dir).rglob("*") if p.is_file() and "__pycache__" not in p.parts):
    h.update(str(path.relative_to(source_dir)).encode()); h.update(path.read_bytes())
  for path in sorted(Path(__file__).parent.glob("*.py")): h.update(path.read_bytes())
  for pkg in ("tinygrad", "torch", "numpy"):
    try: h.update(importlib.metadata.version(pkg).encode())
    except importlib.metadata.PackageNotFoundError: pass
  h.update(f"{sys.version}|{platform.machine()}|{os.environ.get('DEV', 'CPU')}".encode())
  return h.hexdigest()[:20]

def reference(module:str, source_root:Path, on_cell=None) -> dict:
  """The reference run's outcome per test cell, computed once per version of the module and cached."""
  folder = cache_root() / "reference"
  folder.mkdir(parents=True, exist_ok=True)
  path = folder / f"{module}-{_module_key(Path(source_root) / module)}.json"
  with open(path.with_suffix(".lock"), "w") as lock:
    fcntl.flock(lock, fcntl.LOCK_EX)                       # parallel graders compute a module's reference once
    if path.is_file():
      try: return json.loads(path.read_text())
      except ValueError: pass
    source = read_notebook(notebook_path(source_root, module))
    start = time.monotonic()
    tests, status, message, _ = run_module(assemble(source, source), module, source_root, None, learner=False, on_cell=on_cell,
                                           seed_db=path.with_suffix(".db"))
    result = {"status": status, "message": message, "seconds": round(time.monotonic() - start, 2), "tests": tests, "db": str(path.with_suffix(".db"))}
    if status == "completed" and all(t["state"] == "ran" and (t["error"] is None or t["error"][0] == "CheckSkipped") for t in tests.values()):
      tmp = path.with_suffix(".tmp")                       # only a clean reference is kept: a slow machine must not poison the cache
      tmp.write_text(json.dumps(result))
      tmp.replace(path)
    return result

def _unexecuted(source, message:str, status:str="not_run") -> list[dict]:
  return [{"id": grade_id(c), "status": status, "score": 0.0, "max_score": points(c), "message": message}
          for c in source.cells if is_test(c)]

def _learner_answers(assembled, source_dir:Path, files:dict[str, bytes]) -> list[tuple[str, str]]:
  """(where, text) of the learner's answer cells and answer files, for the flags."""
  from autograder.assemble import answer_files
  out = [(grade_id(c) or f"cell {i + 1}", c.source) for i, c in enumerate(assembled.cells) if is_answer(c)]
  for name in answer_files(source_dir):
    try:
      if name in files: out.append((name, files[name].decode()))
    except UnicodeDecodeError: pass
  return out

def grade_module(module:str, source_root:Path, submission_root:Path, on_cell=None) -> dict:
  """One module's part of the report; `on_cell(done, total)` is called as code cells finish. The submission is read
  once, here (assemble.read_submission); nothing later opens the submission folder."""
  start = time.monotonic()
  source = read_notebook(notebook_path(source_root, module))     # the trusted source must read; if not, that is ours to fix
  settings = module_settings(source)
  status, message, tests, module_flags, used, opened = "graded", "", None, [], "", {}
  mine = read_submission(Path(source_root) / module, Path(submission_root), module, settings.get("learner_files", []))
  if mine.notebook_text is None: status, message = "missing", mine.missing
  else:
    try: submission = parse_notebook(mine.notebook_text)
    except Unreadable as e: status, message = "unreadable", f"cannot read {module}.ipynb: {e}"
  if status == "graded":
    ref = reference(module, source_root, on_cell=on_cell)
    assembled = assemble(source, submission)
    got, run_status, run_message, used = run_module(assembled, module, source_root, mine.files, learner=True,
                                                    on_cell=on_cell, seed_db=Path(ref["db"]) if ref.get("db") else None)
    redact = Redactor(hidden_text(source))
    titles = {grade_id(source.cells[i]): t for i, t in task_titles(source).items()}
    missing = {"state": "not_run", "error": None, "observations": [], "message": ""}
    known = notebook_sites(source)
    tests = [judge({"id": grade_id(c), "task": titles.get(grade_id(c), ""), "max_score": points(c)}, ref["tests"].get(grade_id(c), missing),
                   got.get(grade_id(c), missing), got.get(grade_id(c), missing)["message"], redact, known)
             for c in source.cells if is_test(c)]
    explain(tests, {k: v.get("cause", "") for k, v in got.items()}, source)     # causes, told as the self-check does
    for t in tests: t["message"] = redact(t["message"])
    hinted = collect_hints(source)
    hints = {grade_id(c): hint(c, hint_pointer(module, titles.get(grade_id(c), "")) if titles.get(grade_id(c)) in hinted else "") for c in source.cells if is_test(c)}
    for t in tests:
      if t["status"] != "passed" and hints.get(t["id"]): t["hint"] = hints[t["id"]]
    opened = opened_hints(mine.opened_hints, hinted)
    if run_status != "completed": status, message = run_status, redact(run_message)
    banned = set().union(*(set(t.get("forbidden", [])) for t in ref["tests"].values()))
    module_flags = flags(_learner_answers(assembled, Path(source_root) / module, mine.files), settings.get("allow_flags", []), banned)
    for t in tests:
      if (why := t.pop("forged", None)): module_flags.append({"where": t["id"], "rule": "forged observation", "what": why})
  if tests is None: tests = _unexecuted(source, message)
  return {"module": module, "status": status, "message": message, "sandbox": used, "flags": module_flags, **opened,
          "score": sum(t["score"] for t in tests), "max_score": sum(t["max_score"] for t in tests),
          "seconds": round(time.monotonic() - start, 2), "tests": tests}

def grade(modules:list[str], source_root:Path, submission_root:Path, on_module=None, on_cell=None) -> dict:
  results = []
  for module in modules:
    results.append(grade_module(module, source_root, submission_root, on_cell))
    if on_module: on_module(results[-1])
  return {"score": sum(m["score"] for m in results), "max_score": sum(m["max_score"] for m in results), "modules": results}
