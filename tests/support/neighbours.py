"""Noisy neighbours: busy processes that keep every core occupied while a test runs, started and stopped by the test
(and killed with it: each one ends by itself after `limit` seconds, whatever happens to the test)."""
import contextlib, fcntl, functools, os, re, subprocess, sys, tempfile, time
from pathlib import Path
from autograder.core.assemble import read_notebook
from autograder.core.cells import grade_id, is_test
from autograder.core.course import REPO, module_names, notebook_path

DECIDES = re.compile(r"\b(check_ratio|decide)\(")            # a verdict on a ratio of times (authoring.md, rule 2)

@functools.cache
def deciding_cells() -> dict[str, frozenset[str]]:
  """{module: the test cells whose verdict is a ratio of real times}, read from the solution notebooks: the cells that
  run beside noisy neighbours (a sanity bound, rule 3, is 20x from the reference by construction; a count, rule 1,
  does not move with the load)."""
  out = {}
  for m in module_names(REPO / "solutions"):
    cells = frozenset(grade_id(c) for c in read_notebook(notebook_path(REPO / "solutions", m)).cells if is_test(c) and DECIDES.search(c.source))
    if cells: out[m] = cells
  return out

TIMED = frozenset(deciding_cells())        # the modules with such a cell (course/instructors/authoring.md's table, rule 2)

BUSY = "import time, sys\nend = time.monotonic() + float(sys.argv[1])\nx = 0\nwhile time.monotonic() < end:\n  for i in range(10000): x += i * i\n"

LOCK, GATE = (Path(tempfile.gettempdir()) / f"workbook-noisy-neighbours.{kind}" for kind in ("lock", "gate"))
_state = {"shared": None, "exclusive": False}      # this process's hold: a shared lock's file, whether it holds the load

@contextlib.contextmanager
def machine_share():
  """Around every kernel a test runs (conftest.py): a shared hold that load_lock waits out. On 2 cores a grading
  beside another test's neighbours got a quarter of a core and ran out of its wall-clock limits (full run of
  2026-12-03: three attacks and a toy class lost points that alone they kept). Waits at the gate while a load is
  wanted, so that gradings queued behind one another cannot keep the load out."""
  if _state["exclusive"] or _state["shared"] is not None: yield; return    # inside this process's own load, or nested
  with open(GATE, "w") as gate:
    fcntl.flock(gate, fcntl.LOCK_SH)
    share = open(LOCK, "w"); fcntl.flock(share, fcntl.LOCK_SH)
  _state["shared"] = share
  try: yield
  finally: _state["shared"] = None; share.close()

@contextlib.contextmanager
def load_lock():
  """One test at a time loads the whole machine on purpose (noisy neighbours, graded hogs, a class graded with two
  jobs), and nothing else grades meanwhile: a lock shared by the pytest workers. Two at once (the neighbours of a
  self-check beside a graded fork bomb, 2026-12-02) starve both. A hold of this process's own (a mutation session
  whose control reaches a timed cell) is let go first, so that two workers asking at once cannot wait on each other."""
  if _state["exclusive"]: yield; return                                  # already this process's
  share = _state["shared"]
  if share is not None: fcntl.flock(share, fcntl.LOCK_UN)
  with open(GATE, "w") as gate, open(LOCK, "w") as lock:
    fcntl.flock(gate, fcntl.LOCK_EX); fcntl.flock(lock, fcntl.LOCK_EX)
    _state["exclusive"] = True
    try: yield
    finally: _state["exclusive"] = False
  if share is not None and _state["shared"] is share: fcntl.flock(share, fcntl.LOCK_SH)   # (not if its run ended meanwhile)

@contextlib.contextmanager
def noisy_neighbours(count:int|None=None, limit:float=900.0):
  """`count` busy processes (default: one per core) for the duration of the block, at most `limit` seconds. One set at a
  time on the machine (load_lock): two tests' neighbours at once would be two per core."""
  with load_lock():
    procs = [subprocess.Popen([sys.executable, "-c", BUSY, str(limit)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for _ in range(count or os.cpu_count() or 2)]
    try: yield procs
    finally:
      for p in procs: p.kill()
      for p in procs: p.wait()

class NeighboursAround:
  """on_control_cell for authoring.mutants.run: neighbours while a deciding cell of `module` runs, none otherwise."""
  def __init__(self, module:str, limit:float=600.0):
    self.cells, self.limit, self.seen, self.running = deciding_cells().get(module, frozenset()), limit, set(), None
    self.waited = 0.0            # seconds spent waiting for the machine (load_lock): they count in the control's time
  def __call__(self, cell:str|None):
    if cell not in self.cells: return self.stop()
    self.seen.add(cell)
    if self.running is None:
      start, self.running = time.monotonic(), contextlib.ExitStack()
      self.running.enter_context(noisy_neighbours(limit=self.limit))
      self.waited += time.monotonic() - start
  def stop(self):
    if self.running is not None: self.running.close(); self.running = None
