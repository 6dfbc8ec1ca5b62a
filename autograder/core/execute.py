"""Run a notebook cell by cell in a fresh kernel with nbclient, with a time limit per cell and one per notebook.
A cell that runs out of time is interrupted and the rest still runs (while the notebook has time left); a kernel that
dies ends the run. The notebook limit holds on the wall clock whatever the kernel does: a watchdog kills the kernel
(and, in the sandbox, every process it started) when it is spent. Nothing here raises because of what the notebook
does. The kernel process's own stdout and stderr (not the cells' outputs) go nowhere."""
from __future__ import annotations
import os, signal, subprocess, sys, tempfile, threading, time
from dataclasses import dataclass, field
from pathlib import Path
from nbformat import NotebookNode
from nbclient import NotebookClient
from nbclient.exceptions import DeadKernelError
from nbclient.util import ensure_async, run_sync
from autograder.core.limits import Group, disk_used, tree_cpu
from autograder.core.results import CellState, RunStatus
from autograder.core.sandbox import SandboxedKernelManager, package_dir
from autograder.core.settings import module_settings

TIMEOUT_ENAME = "CellTimeout"
STARTUP_TIMEOUT = 180                  # seconds a kernel may take to answer its first message (see run_notebook)
PASSED_ENV = ("LANG", "LC_ALL", "DEV", "PARALLEL", "TZ", "LD_LIBRARY_PATH", "CUDA_PATH", "NVRTC_PATH", "CUDA_VISIBLE_DEVICES",
              "NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES")     # what a GPU needs besides its device files

@dataclass
class Run:
  status: RunStatus = RunStatus.COMPLETED
  cells: dict[int, CellState] = field(default_factory=dict)  # code cell index -> its state
  execution_counts: dict[int, int] = field(default_factory=dict)
  replies: dict[int, dict] = field(default_factory=dict)     # code cell index -> the kernel's execute_reply content
  message: str = ""

def kernel_env(run_dir:Path, workdir:Path, extra:dict|None=None, base:dict|None=None) -> dict[str, str]:
  """The kernel's whole environment: a few variables of ours (the CPU device unless one was chosen, a plotting backend
  that needs no screen), the module folder on the path (for compile workers too), and every writable place inside
  the run's folder. Nothing else of the grader's environment reaches the kernel, unless `base` (a self-check on the
  learner's own machine keeps their whole environment)."""
  env = dict(base) if base is not None else {k: os.environ[k] for k in PASSED_ENV if k in os.environ}
  env.pop("JPY_PARENT_PID", None)
  paths = [str(workdir)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p] if base is not None else [str(package_dir(run_dir)), str(workdir)]
  env.update(PYTHONPATH=os.pathsep.join(paths), MPLBACKEND="Agg", JUPYTER_RUNTIME_DIR=str(run_dir / "rt"))
  if base is None:
    env.update(PATH=os.pathsep.join([str(Path(sys.executable).parent), "/usr/local/bin", "/usr/bin", "/bin"]),
               HOME=str(run_dir / "home"), TMPDIR="/tmp", PYTHONDONTWRITEBYTECODE="1", MPLCONFIGDIR=str(run_dir / "home" / "mpl"),
               IPYTHONDIR=str(run_dir / "home" / "ipython"), XDG_CACHE_HOME=str(run_dir / "home" / "cache"))
  env.setdefault("DEV", "CPU")
  env.update(extra or {})
  for d in ("home", "rt"): (run_dir / d).mkdir(parents=True, exist_ok=True)
  if base is None:                                         # no history file: a cell's text stays out of the run folder
    profile = run_dir / "home" / "ipython" / "profile_default"
    profile.mkdir(parents=True, exist_ok=True)
    (profile / "ipython_kernel_config.py").write_text("c.HistoryManager.enabled = False\n")
  return env

def limits(source:NotebookNode) -> tuple[float, float]:
  """(per-cell, per-notebook) seconds, from the source notebook's `metadata.autograder`."""
  own = module_settings(source)
  return float(own["cell_timeout"]), float(own["timeout"])

# Bytes of output a cell, and a whole run of a notebook, may send the grader; the rest is dropped, the records of the checks
# made after that point with it (a flood must not fill the grader's memory: 128 MB printed over four cells took it from
# 66 to 207 MB when only the cell was capped). A cell gets half the notebook's: one flooding cell leaves room for the rest.
MAX_CELL_OUTPUT, MAX_NOTEBOOK_OUTPUT = 16 << 20, 32 << 20
OUTPUT_DROPPED = (f"the notebook printed more than the grader keeps ({MAX_CELL_OUTPUT >> 20} MiB a cell, {MAX_NOTEBOOK_OUTPUT >> 20} MiB a run): "
                  "the rest of its output was dropped, with the record of any check made after that point")

class CappedClient(NotebookClient):
  """nbclient, keeping at most MAX_CELL_OUTPUT bytes of output per cell and MAX_NOTEBOOK_OUTPUT per run; `dropped`
  says whether it dropped any."""
  dropped = False
  def output(self, outs, msg, display_id, cell_index):
    content = msg.get("content", {})
    size = len(str(content.get("text", ""))) + sum(len(str(v)) for v in content.get("data", {}).values())
    used = self.__dict__.setdefault("_output_bytes", {})
    used[cell_index] = used.get(cell_index, 0) + size
    self._total_bytes = getattr(self, "_total_bytes", 0) + size
    if used[cell_index] > MAX_CELL_OUTPUT or self._total_bytes > MAX_NOTEBOOK_OUTPUT:
      self.dropped = True
      return None
    return super().output(outs, msg, display_id, cell_index)

from jupyter_client.asynchronous import AsyncKernelClient

class CappedKernelClient(AsyncKernelClient):
  """A kernel client whose output channel queues at most 1000 messages (ZMQ's default, made explicit) and refuses any
  message over 8 MB (the kernel that sends one is cut off): with the per-cell cap of CappedClient, what a kernel
  prints occupies at most about a gigabyte of the grader's memory at any moment."""
  def _create_connected_socket(self, channel, identity=None):
    import zmq
    sock = self.context.socket(zmq.SUB if channel == "iopub" else {"shell": zmq.DEALER, "stdin": zmq.DEALER, "control": zmq.DEALER, "hb": zmq.REQ}[channel])
    sock.linger = 1000
    if identity: sock.identity = identity
    if getattr(self, "curve_publickey", None) is not None:
      sock.curve_secretkey, sock.curve_publickey, sock.curve_serverkey = self.curve_secretkey, self.curve_publickey, self.curve_publickey
    if channel == "iopub": sock.rcvhwm, sock.maxmsgsize = 1000, 8 << 20
    sock.connect(self._make_url(channel))
    return sock

def _kill_group(km:SandboxedKernelManager):
  proc = getattr(getattr(km, "provisioner", None), "process", None)
  if proc is None: return
  try: os.killpg(proc.pid, signal.SIGKILL)
  except (ProcessLookupError, PermissionError, OSError):
    try: proc.kill()
    except Exception: pass

def _release(client:NotebookClient, km:SandboxedKernelManager):
  """What a run would leave in the grader's process once its kernel is killed: the client's channels (a heartbeat
  thread that pings the dead kernel every second) and the zmq contexts of client and manager (two threads each), the
  manager's sockets, and the kernel's process entry. nbclient stops none of them for a manager it was given. A pytest
  worker that had run some hundred kernels spent a sixth of a core on their heartbeats, and a self-check of 13 in it
  took 766 s for 18 s of the kernel's CPU (2026-12-04; alone: 20 s)."""
  async def cleanup(): await ensure_async(km.cleanup_resources())
  for step in (lambda: client.kc is not None and client.kc.stop_channels(),
               lambda: (proc := getattr(getattr(km, "provisioner", None), "process", None)) is not None and proc.wait(timeout=5),
               run_sync(cleanup)):
    try: step()
    except Exception: pass

def run_parent() -> str:
  """Where a run's folder goes: the temporary folder, unless its path is too long for the kernel's unix sockets
  (108 bytes at most, with the run's own names after it), then /tmp."""
  tmp = tempfile.gettempdir()
  return tmp if len(tmp) <= 40 else "/tmp"

def run_notebook(nb:NotebookNode, workdir:Path, cell_timeout:float, timeout:float, on_cell=None, run_dir:Path|None=None,
                 sandbox:list[str]|None=None, env:dict|None=None, base_env:dict|None=None, limits=None, skip=None) -> Run:
  """Execute `nb` in place (outputs land in its cells) with `workdir` as the kernel's working folder. `sandbox` is
  the command prefix the kernel starts in (see sandbox.command), `run_dir` the folder holding everything the kernel
  may write besides `workdir` (default: a temporary folder). `on_cell(done, total)` is called after each code cell, for progress.
  `skip(index, run)`, asked before each code cell: True leaves the cell out (its state is `skipped`)."""
  if run_dir is None:
    with tempfile.TemporaryDirectory(prefix="autograder-run-", dir=run_parent()) as tmp:
      return run_notebook(nb, workdir, cell_timeout, timeout, on_cell, Path(tmp), sandbox, env, base_env, limits, skip)
  run = Run()
  group = Group(limits) if limits is not None else None
  code = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
  run.cells = {i: CellState.NOT_RUN for i in code}
  km = SandboxedKernelManager(kernel_name="python3", transport="ipc", ip=str(run_dir / "rt" / "kernel"),
                              connection_file=str(run_dir / "rt" / "kernel.json"))
  km.prefix = (group.prefix() + limits.prefix() if limits is not None else []) + list(sandbox or [])
  km.client_class = "autograder.core.execute.CappedKernelClient"
  # nbclient's interrupt path, not CellTimeoutError: after that error its output poller keeps running and swallows the
  # next cells' outputs. The timeout reply carries TIMEOUT_ENAME so the cell can be told apart from an ordinary error.
  # A kernel's start waits up to STARTUP_TIMEOUT: at load 10 (a full run of 2026-12-02, its toy gradings writing GBs of
  # copied caches) two kernels took over 60 s to answer, and a slow start must not cost a learner their module.
  client = CappedClient(nb, km=km, timeout=int(cell_timeout), allow_errors=True, interrupt_on_timeout=True,
                          error_on_timeout={"ename": TIMEOUT_ENAME, "evalue": "", "traceback": []},
                          kernel_name="python3", resources={"metadata": {"path": str(workdir)}}, startup_timeout=STARTUP_TIMEOUT,
                          on_cell_executed=lambda cell, cell_index, execute_reply: run.replies.__setitem__(cell_index, execute_reply["content"]))
  deadline = time.monotonic() + timeout
  spent = threading.Event()
  def watchdog():                                          # the notebook's limit, whatever the kernel does
    if not spent.wait(max(0.0, deadline - time.monotonic()) + 10): _kill_group(km)
  over_disk, cpu_used = threading.Event(), [0.0]
  def disk_watch():                                        # the run folder is the kernel's disk: stop it when too full
    while limits is not None and not spent.wait(0.5):
      if disk_used(run_dir) > limits.disk_mb << 20: over_disk.set(); _kill_group(km); return
      proc = getattr(getattr(km, "provisioner", None), "process", None)
      if proc is not None and limits.cpu_seconds: cpu_used[0] = max(cpu_used[0], tree_cpu(proc.pid))   # to tell a CPU-limit kill from a crash
  threading.Thread(target=watchdog, daemon=True).start()
  threading.Thread(target=disk_watch, daemon=True).start()
  try:
    with client.setup_kernel(env=kernel_env(run_dir, workdir, env, base_env), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
      try: os.unlink(km.connection_file)                   # the key stays in the grader; nothing in the sandbox needs the file now
      except OSError: pass
      count = 0                                            # IPython's In[n]: nbclient sends no empty cell, so they take no number
      for n, i in enumerate(code):
        remaining = deadline - time.monotonic()
        if remaining < 1:
          run.status, run.message = RunStatus.TIMEOUT, f"the notebook ran out of its {timeout:.0f} s"
          break
        if skip is not None and skip(i, run):
          run.cells[i] = CellState.SKIPPED
          if on_cell: on_cell(n + 1, len(code))
          continue
        client.timeout = max(1, int(min(cell_timeout, remaining)))
        client.execute_cell(nb.cells[i], i, execution_count=n + 1)
        if nb.cells[i].source.strip(): count += 1; run.execution_counts[count] = i
        run.cells[i] = CellState.RAN
        if run.replies.get(i, {}).get("ename") == TIMEOUT_ENAME:
          run.cells[i], run.status = CellState.TIMEOUT, RunStatus.TIMEOUT
          run.message = run.message or f"a cell ran longer than {client.timeout} s and was interrupted"
        if on_cell: on_cell(n + 1, len(code))
  except DeadKernelError:
    run.status = RunStatus.TIMEOUT if time.monotonic() >= deadline else RunStatus.KERNEL_DIED
    run.message = f"the notebook ran out of its {timeout:.0f} s" if run.status == RunStatus.TIMEOUT else "the kernel died (a crash or an exit in the notebook's code)"
  except Exception as e:                                   # the kernel never started, or stopped answering
    run.status, run.message = RunStatus.KERNEL_DIED, f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:200]
  finally:
    spent.set()
    _kill_group(km)
    _release(client, km)
    if client.dropped and run.status == RunStatus.COMPLETED: run.message = OUTPUT_DROPPED
    hit = f"disk limit exceeded (more than {limits.disk_mb} MB written)" if over_disk.is_set() else group.hit() if group is not None else ""
    if not hit and limits is not None and limits.cpu_seconds and run.status == RunStatus.KERNEL_DIED and cpu_used[0] >= limits.cpu_seconds - 1.5:
      hit = f"CPU-time limit exceeded ({limits.cpu_seconds} s of CPU in one process)"
    if not hit and limits is not None and any(r.get("ename") == "MemoryError" for r in run.replies.values()):
      hit = f"memory limit exceeded ({limits.memory_mb} MB)"
    if hit:
      run.status, run.message = {"disk": RunStatus.DISK_LIMIT, "memo": RunStatus.MEMORY_LIMIT, "proc": RunStatus.PROCESS_LIMIT, "CPU-": RunStatus.CPU_LIMIT}[hit[:4]], hit
    if group is not None: group.close()
  return run
