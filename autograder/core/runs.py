"""Running a module for grading: the set-up every run shares (`run_folder`), a run of the assembled notebook in the
sandbox under the module's limits (`run_module`), and the reference run, cached by the hash of the module's files,
the grader and the library versions, in a folder no kernel can see (`reference`)."""
from __future__ import annotations
import copy, fcntl, hashlib, importlib.metadata, json, os, platform, re, sqlite3, sys, tempfile, time
from contextlib import closing, contextmanager
from dataclasses import replace
from pathlib import Path
from nbformat.v4 import new_code_cell
from autograder.core import sandbox
from autograder.core.assemble import assemble, prepare_workdir, remove_tree
from autograder.core.cause import run_cause
from autograder.core.cells import defined_names, grade_id, is_answer, is_isolated, is_test, needs_libraries, without_hidden
from autograder.core.course import DATA, PACKAGE
from autograder.core.execute import limits, run_notebook, run_parent
from autograder.core.limits import Limits
from autograder.core.module import Module
from autograder.core.results import Outcome, ReferenceRun, RunStatus, from_json, write_json
from autograder.core.settings import cell_setting
from autograder.core.transform import RECORDER, prepare
from autograder.core.verdict import outcome

def cache_root() -> Path:
  """Where the grader keeps reference observations (never inside a sandbox's view)."""
  if os.environ.get("AUTOGRADER_CACHE"): return Path(os.environ["AUTOGRADER_CACHE"])
  return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tinygrad-workbook"

def tinygrad_cache() -> Path:
  """The trusted tinygrad compile/BEAM cache: runs get a copy; only reference runs write back."""
  if os.environ.get("CACHEDB"): return Path(os.environ["CACHEDB"])
  return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tinygrad" / "cache.db"

def copy_db(src:Path|None, dst:Path):
  """Copy a tinygrad cache (an sqlite file) safely, even while another process writes it; nothing when there is none."""
  if src is None or not Path(src).is_file(): return
  try:
    dst.parent.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(f"file:{src}?mode=ro", uri=True, timeout=60)) as a, closing(sqlite3.connect(dst, timeout=60)) as b:
      a.backup(b)                                          # (a connection's own `with` commits but does not close it)
  except sqlite3.Error: pass

@contextmanager
def run_folder(module:Module, files:dict[str, bytes]|None, seed_db:Path|None, sandboxed:bool, prefix:str="grade"):
  """The one set-up of every run of a module (a grading run, a mutation session): a fresh folder under the temporary
  folder holding the working copy of the module (its support files, with the learner's `files`; None: the source's
  own), a copy of the tinygrad cache `seed_db`, and the grader's package where the kernel imports it from. Yields
  (run folder, working folder, the environment the kernel needs); the folder is removed afterwards, whatever the
  kernel left in it."""
  run_dir = Path(tempfile.mkdtemp(prefix=f"{prefix}-{module.name}-", dir=run_parent()))
  try:
    workdir = run_dir / module.name
    prepare_workdir(module.folder, files, workdir, module.settings["learner_files"])
    copy_db(seed_db, run_dir / "cache.db")
    sandbox.provide_package(run_dir, sandboxed)
    yield run_dir, workdir, {"CACHEDB": str(run_dir / "cache.db"), "WORKBOOK_DATA": str(DATA)}
  finally:
    remove_tree(run_dir)

def sandbox_prefix(run_dir:Path, workdir:Path, settings:dict, allowed:Limits, learner:bool=True, libraries:bool=True) -> list[str]:
  """The sandbox a run's kernel starts in: the course data readable, less what the module hides from a learner's run
  (its hidden data, and its forbidden libraries unless `libraries` is False: the kernel of the tests that need them)."""
  hide = [DATA / h for h in settings["hide_data"]] if learner else []
  banned = settings["forbidden_libraries"] if learner and libraries else []
  return sandbox.command(run_dir, workdir, reads=[DATA] if DATA.is_dir() else [], hide=hide, tmp_mb=allowed.tmp_mb, libraries=banned)

REFERENCE_SLACK = 2.0          # the trusted reference run gets twice the limits: a loaded machine must not fail the oracle

def _checker_notebook(prepared, assembled):
  """The isolated tests with what they need and nothing of the learner's notebook code: the mode cell, the setup
  cells (trusted cells before the first answer, or marked `autograder.checker`), and the answers' sources as text."""
  first_answer = next((i for i, c in enumerate(prepared.cells) if is_answer(c)), len(prepared.cells))
  setup = [c for i, c in enumerate(prepared.cells) if c.cell_type == "code" and not is_answer(c) and not is_test(c)
           and (i < first_answer or cell_setting(c, "checker"))]
  answers = {name: c.source for c in assembled.cells if is_answer(c) for name in defined_names(c.source)}
  out = copy.deepcopy(prepared)
  out.cells = setup + [new_code_cell(f"{RECORDER}.set_answers({answers!r})")] + [c for c in prepared.cells if is_isolated(c)]
  return out

def parts_of(prepared, assembled) -> list[tuple[object, bool]]:
  """The kernels a run takes, each (notebook, whether the module's forbidden libraries are hidden there): the isolated
  tests with what they need, the notebook without them and without the tests that need the libraries, and those tests
  after every other code cell but the tests (set-up, answers: what a test may read)."""
  plain = lambda c: not is_isolated(c) and not needs_libraries(c)
  out = []
  if any(is_isolated(c) for c in prepared.cells): out.append((_checker_notebook(prepared, assembled), True))
  main = copy.deepcopy(prepared)
  main.cells = [c for c in main.cells if plain(c)]
  out.append((main, True))
  if any(needs_libraries(c) for c in prepared.cells):
    part = copy.deepcopy(prepared)
    part.cells = [c for c in part.cells if c.cell_type == "code" and (needs_libraries(c) or (plain(c) and not is_test(c)))]
    out.append((part, False))
  return out

def run_module(nb, module:Module, files:dict[str, bytes]|None, learner:bool, on_cell=None, seed_db:Path|None=None,
               errors:list|None=None, start_db:Path|None=None) -> tuple[dict[str, Outcome], RunStatus, str, str]:
  """Run the assembled notebook `nb` (prepared for a learner or for the reference run) in a sandbox holding a working
  copy of the module, with the learner's `files` (see assemble.Submission; None: the source's own), under the
  module's resource limits (see core/limits.py). Isolated tests run first, in a kernel of their own. Returns (the outcome
  of each test by id, the run's status, its message (of a completed run: a note, or ""), the sandbox used). `seed_db`: the tinygrad cache a learner's run starts from (the one
  the reference run left, so that BEAM searches and compiles the reference did are found again); a reference run
  writes its cache there. `errors`, a list: gets {"cell", "error"} for each cell other than a test that raised (the
  canary's set-up failures). `start_db`: where a reference run's cache starts instead of the trusted one (see
  reference)."""
  settings = module.settings
  prepared = prepare(nb, learner=learner)
  ok, why = sandbox.available()
  outcomes, status, message, note = {}, RunStatus.COMPLETED, "", ""
  for part, hidden in parts_of(prepared, nb):
    seed = seed_db if learner and seed_db is not None and seed_db.is_file() else start_db if start_db is not None and start_db.is_file() else tinygrad_cache()
    with run_folder(module, files, seed, sandboxed=ok) as (run_dir, workdir, env):
      allowed = Limits.of(settings) if learner else Limits.of(settings).scaled(REFERENCE_SLACK)
      prefix = sandbox_prefix(run_dir, workdir, settings, allowed, learner, libraries=hidden) if ok else []
      cell_limit, limit = limits(module.notebook)
      slack = 1.0 if learner else REFERENCE_SLACK
      if learner and hidden and not ok and settings["forbidden_libraries"]:       # no sandbox: only the checks' import hook (a suggestion)
        env = {**env, "AUTOGRADER_FORBIDDEN_LIBRARIES": ",".join(settings["forbidden_libraries"])}
      run = run_notebook(part, workdir, cell_limit * slack, limit * slack, on_cell=on_cell, run_dir=run_dir, sandbox=prefix, env=env, limits=allowed)
      if not learner:
        copy_db(run_dir / "cache.db", tinygrad_cache())
        if seed_db is not None: copy_db(run_dir / "cache.db", seed_db)
    outcomes.update({grade_id(c): replace(outcome(c, i, run), message=run.message, cause=run_cause(part, i, run)) for i, c in enumerate(part.cells) if is_test(c)})
    if errors is not None:
      errors += [{"cell": grade_id(c) or f"cell {i}", "error": err} for i, c in enumerate(part.cells)
                 if c.cell_type == "code" and not is_test(c) and (err := outcome(c, i, run).error) is not None]
    if run.status != RunStatus.COMPLETED and status == RunStatus.COMPLETED: status, message = run.status, run.message
    note = note or (run.message if run.status == RunStatus.COMPLETED else "")      # a completed run's note (execute.OUTPUT_DROPPED)
  return outcomes, status, message or note, ("bubblewrap" if ok else f"none ({why})")

LIBRARIES = ("tinygrad", "torch", "numpy", "transformers", "onnxruntime", "gguf")   # the ones a module's verdicts can hang on

def version_hash(module:Module):
  """Everything a module's verdicts depend on: every file of the module and of the grader, the libraries' versions,
  Python's minor version, the machine's architecture and the device. The reference cache and the mutation ledger
  (authoring/ledger.py) both key on it."""
  h = hashlib.sha256()
  for folder in (module.folder, PACKAGE):
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
      h.update(str(path.relative_to(folder)).encode()); h.update(path.read_bytes())
  for pkg in LIBRARIES:
    try: h.update(f"{pkg}={importlib.metadata.version(pkg)}".encode())
    except importlib.metadata.PackageNotFoundError: pass
  h.update(f"{sys.version_info[:2]}|{platform.machine()}|{os.environ.get('DEV', 'CPU')}".encode())
  return h

def module_key(module:Module) -> str:
  """A reference run's version. Unlike a ledger, which travels with the repository, a run stays on its machine: it also
  keys on the exact Python build."""
  h = version_hash(module)
  h.update(sys.version.encode())
  return h.hexdigest()[:20]

KEEP_VERSIONS = 4              # reference runs kept per module and kind: each edit of a module or the grader makes a new one

def device_tag() -> str:
  """The device in a reference run's file name, empty for the default CPU device: runs on a second target (the suite's
  DEV=CPU::x86_64,x86-64-v3) are kept and pruned apart from the native ones."""
  dev = os.environ.get("DEV", "CPU")
  return "" if dev == "CPU" else "-" + re.sub(r"[^A-Za-z0-9]+", "_", dev).strip("_")

def prune(folder:Path, module:str, visible:bool, keep:int=KEEP_VERSIONS, tag:str|None=None):
  """Remove all but the `keep` most recently used reference runs of `module` on this device (its .json, tinygrad cache
  and lock), so that a checkout edited for weeks does not fill the disk (one module's run can hold 30 MB). A version
  whose lock another grader holds is left alone."""
  tag = device_tag() if tag is None else tag
  stem = re.compile(rf"{re.escape(module + tag)}-[0-9a-f]{{20}}{'-visible' if visible else ''}$")
  versions = sorted((p for p in folder.glob(f"{module}-*.json") if stem.fullmatch(p.stem)), key=lambda p: p.stat().st_mtime, reverse=True)
  for old in versions[keep:]:
    with open(old.with_suffix(".lock"), "w") as lock:
      try: fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
      except BlockingIOError: continue
      for part in (".json", ".db", ".db-wal", ".db-shm", ".tmp"): old.with_suffix(part).unlink(missing_ok=True)
      old.with_suffix(".lock").unlink(missing_ok=True)

def reference(module:Module, on_cell=None, visible:bool=False) -> ReferenceRun:
  """The reference run's outcome per test cell, computed once per version of the module and cached. `visible`: the run
  of the learner's copy instead (the solution with every hidden-test region removed, the oracle kept): the values
  release ships for the visible checks (authoring/ship.py), computed where no hidden input exists."""
  folder = cache_root() / "reference"
  folder.mkdir(parents=True, exist_ok=True)
  stem = folder / f"{module.name}{device_tag()}-{module_key(module)}"
  path, twin = (Path(f"{stem}-visible.json"), Path(f"{stem}.db")) if visible else (Path(f"{stem}.json"), Path(f"{stem}-visible.db"))   # twin: the other run of this version
  with open(path.with_suffix(".lock"), "w") as lock:
    fcntl.flock(lock, fcntl.LOCK_EX)                       # parallel graders compute a module's reference once
    if path.is_file():
      try: result = from_json(ReferenceRun, json.loads(path.read_text()))
      except ValueError: pass
      else:
        os.utime(path)                                     # most recently used: the last to be pruned
        return result
    source = module.fresh()
    if visible:
      for cell in source.cells:
        if is_test(cell): cell.source = without_hidden(cell.source)
    start = time.monotonic()
    tests, status, message, _ = run_module(assemble(source, source), module, None, learner=False, on_cell=on_cell, seed_db=path.with_suffix(".db"),
                                           start_db=twin)     # its compiles and BEAM searches, when the suite's other worker made them
    result = ReferenceRun(status, message, round(time.monotonic() - start, 2), tests, str(path.with_suffix(".db")))
    if result.clean:
      tmp = path.with_suffix(".tmp")                       # only a clean reference is kept: a slow machine must not poison the cache
      write_json(tmp, result, indent=None)
      tmp.replace(path)
  prune(folder, module.name, visible)
  return result
