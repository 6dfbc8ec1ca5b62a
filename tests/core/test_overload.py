"""A loaded machine does not spend a notebook's time (issue 43: at load 13 on 2 cores, module 12's reference ran out of
its 480 s): the time a kernel waits for a core is added to its cell and notebook limits (core/execute.py), and a kernel
that sleeps still runs out of them. The kernel and two busy neighbours are pinned to one core, so that the kernel
gets at most a third of it wherever the test runs."""
import subprocess, sys, time
import pytest
from nbformat.v4 import new_code_cell, new_notebook
from autograder.core.execute import run_notebook
from autograder.core.results import CellState, RunStatus

pytestmark = pytest.mark.slow          # about 15 s of a core held busy

SPIN = "import time\nt = time.process_time()\nwhile time.process_time() - t < 1.5: pass\nprint('done')"     # 1.5 s of CPU

def _run(tmp_path, source:str, cell_timeout:float, timeout:float, neighbours:int):
  pin = ["taskset", "-c", "0"]
  busy = [subprocess.Popen(pin + [sys.executable, "-c", "while True: pass"]) for _ in range(neighbours)]
  try:
    (tmp_path / "work").mkdir(exist_ok=True)
    nb = new_notebook(cells=[new_code_cell("x = 1"), new_code_cell(source)])
    start = time.monotonic()
    run = run_notebook(nb, tmp_path / "work", cell_timeout, timeout, run_dir=tmp_path / "run", sandbox=pin)
    return run, time.monotonic() - start
  finally:
    for p in busy: p.kill(); p.wait()

def test_a_cell_kept_waiting_for_a_core_gets_that_time(tmp_path):
  """1.5 s of CPU with a third of a core is 4.5 s or more on the wall clock: over its 3 s limit, not over its own."""
  run, seconds = _run(tmp_path, SPIN, cell_timeout=3, timeout=8, neighbours=2)
  assert run.status == RunStatus.COMPLETED and run.cells[1] == CellState.RAN, (run.status, run.message, run.waited, seconds)
  assert run.waited > 1.5, f"the kernel waited {run.waited:.1f} s for a core beside two busy neighbours ({seconds:.1f} s in all)"

def test_a_sleeping_cell_still_runs_out_of_its_time_beside_neighbours(tmp_path):
  """Waiting for a core is what is added, not waiting as such: a cell that sleeps is stopped at its limit."""
  run, seconds = _run(tmp_path, "import time\ntime.sleep(30)", cell_timeout=3, timeout=60, neighbours=2)
  assert run.cells[1] == CellState.TIMEOUT and run.status == RunStatus.TIMEOUT, (run.status, run.message, run.waited)
  assert seconds < 20, f"the sleeping cell was stopped after {seconds:.1f} s (limit 3 s)"
