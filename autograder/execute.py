"""Run a notebook cell by cell in a fresh kernel with nbclient, with a time limit per cell and one per notebook.
A cell that runs out of time is interrupted and the rest still runs (while the notebook has time left); a kernel that
dies ends the run. Nothing here raises because of what the notebook does. The kernel process's own stdout and
stderr (not the cells' outputs) go nowhere: what a crashing cell writes there must not reach a log."""
from __future__ import annotations
import os, subprocess, time
from dataclasses import dataclass, field
from pathlib import Path
from nbformat import NotebookNode
from nbclient import NotebookClient
from nbclient.exceptions import DeadKernelError

DEFAULT_CELL_TIMEOUT, DEFAULT_TIMEOUT = 60, 120
TIMEOUT_ENAME = "CellTimeout"

@dataclass
class Run:
  status: str = "completed"                                # completed | timeout | kernel_died
  cells: dict[int, str] = field(default_factory=dict)      # code cell index -> ran | timeout | not_run
  execution_counts: dict[int, int] = field(default_factory=dict)
  replies: dict[int, dict] = field(default_factory=dict)     # code cell index -> the kernel's execute_reply content
  message: str = ""

def kernel_env(workdir:Path) -> dict[str, str]:
  """The kernel's environment: ours, plus the module folder on the path (for compile workers too), the CPU device
  unless one was chosen (it saves the GPU probe), and a plotting backend that needs no screen."""
  env = dict(os.environ)
  env["PYTHONPATH"] = os.pathsep.join([str(workdir)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
  env.setdefault("DEV", "CPU")
  env.setdefault("MPLBACKEND", "Agg")
  env.pop("JPY_PARENT_PID", None)
  return env

def limits(source:NotebookNode) -> tuple[float, float]:
  """(per-cell, per-notebook) seconds, from the source notebook's `metadata.autograder`."""
  own = source.metadata.get("autograder", {})
  return float(own.get("cell_timeout", DEFAULT_CELL_TIMEOUT)), float(own.get("timeout", DEFAULT_TIMEOUT))

def run_notebook(nb:NotebookNode, workdir:Path, cell_timeout:float, timeout:float, on_cell=None) -> Run:
  """Execute `nb` in place (outputs land in its cells) with `workdir` as the kernel's working folder.
  `on_cell(done, total)` is called after each code cell, for progress."""
  run = Run()
  code = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
  run.cells = {i: "not_run" for i in code}
  # nbclient's interrupt path, not CellTimeoutError: after that error its output poller keeps running and swallows the
  # next cells' outputs. The timeout reply carries TIMEOUT_ENAME so the cell can be told apart from an ordinary error.
  client = NotebookClient(nb, timeout=int(cell_timeout), allow_errors=True, interrupt_on_timeout=True,
                          error_on_timeout={"ename": TIMEOUT_ENAME, "evalue": "", "traceback": []},
                          kernel_name="python3", resources={"metadata": {"path": str(workdir)}}, startup_timeout=60,
                          on_cell_executed=lambda cell, cell_index, execute_reply: run.replies.__setitem__(cell_index, execute_reply["content"]))
  deadline = time.monotonic() + timeout
  try:
    with client.setup_kernel(env=kernel_env(workdir), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
      for n, i in enumerate(code):
        remaining = deadline - time.monotonic()
        if remaining < 1:
          run.status, run.message = "timeout", f"the notebook ran out of its {timeout:.0f} s"
          break
        client.timeout = max(1, int(min(cell_timeout, remaining)))
        client.execute_cell(nb.cells[i], i, execution_count=n + 1)
        run.execution_counts[n + 1] = i
        run.cells[i] = "ran"
        if run.replies.get(i, {}).get("ename") == TIMEOUT_ENAME:
          run.cells[i], run.status = "timeout", "timeout"
          run.message = run.message or f"a cell ran longer than {client.timeout} s and was interrupted"
        if on_cell: on_cell(n + 1, len(code))
  except DeadKernelError:
    run.status, run.message = "kernel_died", "the kernel died (a crash or an exit in the notebook's code)"
  except Exception as e:                                   # the kernel never started, or stopped answering
    run.status, run.message = "kernel_died", f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:200]
  return run
