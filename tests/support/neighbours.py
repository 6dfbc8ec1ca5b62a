"""Noisy neighbours: busy processes that keep every core occupied while a test runs, started and stopped by the test
(and killed with it: each one ends by itself after `limit` seconds, whatever happens to the test)."""
import contextlib, fcntl, functools, os, re, subprocess, sys, tempfile
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

@contextlib.contextmanager
def load_lock():
  """One test at a time loads the whole machine on purpose (noisy neighbours, graded hogs, a class graded with two
  jobs): a lock file shared by the pytest workers. Two at once (the neighbours of a self-check beside a graded fork bomb, 2026-12-02) starve both."""
  with open(Path(tempfile.gettempdir()) / "workbook-noisy-neighbours.lock", "w") as lock:
    fcntl.flock(lock, fcntl.LOCK_EX)
    yield

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
  def __call__(self, cell:str|None):
    if cell not in self.cells: return self.stop()
    self.seen.add(cell)
    if self.running is None: self.running = contextlib.ExitStack(); self.running.enter_context(noisy_neighbours(limit=self.limit))
  def stop(self):
    if self.running is not None: self.running.close(); self.running = None
