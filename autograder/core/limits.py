"""What a learner's kernel may use: memory, disk, processes, CPU time (wall time is limited per cell and per notebook,
see execute).

Enforced in layers, each where the machine allows it:
* rlimits on the kernel and everything it starts (`prlimit`, util-linux): data memory per process (RLIMIT_DATA: an
  allocation beyond it raises MemoryError; not RLIMIT_AS, which counts the address space that malloc's per-thread
  arenas and a GPU driver reserve without using it), size of any one file (RLIMIT_FSIZE: a write beyond it fails with EFBIG),
  processes (RLIMIT_NPROC; counted per user and user namespace: inside bubblewrap's own user namespace, which an
  unprivileged grader such as a GitHub runner gets, it counts the sandbox's processes only; root is exempt), CPU time
  per process, all its threads together (RLIMIT_CPU: `cpu_seconds`, by default CPU_PER_WALL times the notebook's
  time limit; SIGXCPU, then SIGKILL five seconds later);
* the sandbox's /tmp is a tmpfs of a fixed size (bubblewrap `--size`), so it cannot take the host's shared memory, and
  its /dev/shm is a folder of the run folder (so it counts in the disk limit, below) instead of an unsized tmpfs;
* the run folder (the only other writable place) is measured every half second and the kernel is stopped when what
  it holds passes the disk limit;
* where the grader may create control groups (cgroup v1 `pids`/`memory`/`cpu`: root in a container, say), the
  kernel's whole process tree also gets a total memory and process count, and one CPU share (`cpu.shares`, the same
  for every kernel: a kernel with 300 threads gets what a kernel with one gets when both want the CPU, so one learner
  cannot starve the one graded beside it with `grade-all --jobs N`); the report then tells a memory kill apart from a
  crash. Without control groups (a GitHub runner: unprivileged, cgroup v2 not delegated) the CPU is shared between
  sessions where the kernel's scheduler groups them (`/proc/sys/kernel/sched_autogroup_enabled`, on by default on
  Ubuntu): each kernel is started in a session of its own, so two kernels share the CPU evenly whatever their
  threads; a kernel that starts new sessions (setsid) escapes it, up to the process limit.
A module sets its own in `metadata.autograder.limits` (`memory_mb`, `disk_mb`, `tmp_mb`, `processes`, `cpu_seconds`)."""
from __future__ import annotations
import os, shutil, uuid
from dataclasses import dataclass, replace
from pathlib import Path

CPU_PER_WALL = 4                 # default CPU-time limit per process: this many times the notebook's wall-clock limit

@dataclass(frozen=True)
class Limits:
  memory_mb: int = 4096            # tinygrad + torch kernels take 1-2 GB; module 04 trains a CNN
  disk_mb: int = 1024              # the run folder: the module's files, the compile cache, what the notebook writes
  tmp_mb: int = 256                # the sandbox's /tmp
  processes: int = 512             # threads count too: torch's and tinygrad's pools grow with the machine's cores
  cpu_seconds: int = 0             # CPU time of any one process of the kernel; 0: CPU_PER_WALL times the notebook's time limit

  @classmethod
  def of(cls, settings:dict) -> "Limits":
    own = settings.get("limits", {}) or {}
    out = cls(**{k: int(own[k]) for k in cls.__dataclass_fields__ if k in own})
    if not out.cpu_seconds: out = replace(out, cpu_seconds=int(CPU_PER_WALL * float(settings.get("timeout") or 120)))
    return out

  def scaled(self, factor:float) -> "Limits":
    return Limits(*(int(getattr(self, k) * factor) for k in self.__dataclass_fields__))

  def prefix(self) -> list[str]:
    """The rlimits as a command prefix (nothing where prlimit is missing)."""
    if shutil.which("prlimit") is None: return []
    mb = 1 << 20
    cpu = [f"--cpu={self.cpu_seconds}:{self.cpu_seconds + 5}"] if self.cpu_seconds else []
    return ["prlimit", f"--data={self.memory_mb * mb}", f"--fsize={self.disk_mb * mb}", f"--nproc={self.processes}", *cpu, "--"]

def _v1(controller:str) -> Path|None:
  """The writable cgroup v1 folder of `controller` this process is in, or None."""
  try:
    for line in Path("/proc/self/cgroup").read_text().splitlines():
      _, names, path = line.split(":", 2)
      if controller in names.split(","):
        folder = Path("/sys/fs/cgroup") / controller / path.lstrip("/")
        return folder if os.access(folder, os.W_OK) else None
  except (OSError, ValueError): pass
  return None

CPU_SHARES = 1024                # every kernel's group the same weight (cgroup v1's default): shares are split per group, not per thread

class Group:
  """A control group for one run's kernel, where the machine lets the grader make one; otherwise empty."""
  def __init__(self, limits:Limits):
    self.folders, self.limits = [], limits
    name = f"autograder-{uuid.uuid4().hex[:12]}"
    for controller, settings in (("pids", {"pids.max": limits.processes}),
                                 ("memory", {"memory.limit_in_bytes": limits.memory_mb << 20, "memory.memsw.limit_in_bytes": limits.memory_mb << 20}),
                                 ("cpu", {"cpu.shares": CPU_SHARES})):
      parent = _v1(controller)
      if parent is None: continue
      try:
        (parent / name).mkdir()
        for key, value in settings.items():
          try: (parent / name / key).write_text(str(value))
          except OSError: pass                         # (memsw exists only with swap accounting)
        self.folders.append(parent / name)
      except OSError: pass

  def prefix(self) -> list[str]:
    """A command prefix that moves the kernel into the group before it starts."""
    if not self.folders: return []
    return ["sh", "-c", 'while [ "$1" != "--" ]; do echo $$ > "$1"; shift; done; shift; exec "$@"', "sh"] + \
           [str(f / "cgroup.procs") for f in self.folders] + ["--"]

  def hit(self) -> str:
    """Which limit the group reached ("memory limit exceeded", ...), or ""."""
    for f in self.folders:
      try:
        if (f / "memory.oom_control").is_file() and any(l.split() == ["oom_kill", l.split()[-1]] and l.split()[-1] != "0"
                                                        for l in (f / "memory.oom_control").read_text().splitlines()):
          return f"memory limit exceeded ({self.limits.memory_mb} MB)"
        if (f / "pids.events").is_file() and any(l.startswith("max") and l.split()[-1] != "0" for l in (f / "pids.events").read_text().splitlines()):
          return f"process limit reached ({self.limits.processes} processes)"
      except (OSError, ValueError): pass
    return ""

  def close(self):
    import signal, time
    for f in self.folders:
      for _ in range(50):
        try:
          pids = [int(p) for p in (f / "cgroup.procs").read_text().split()]
          for p in pids:
            try: os.kill(p, signal.SIGKILL)
            except OSError: pass
          f.rmdir(); break
        except OSError: time.sleep(0.1)

def disk_used(folder:Path) -> int:
  """Bytes in the files under `folder` (links not followed)."""
  total, todo = 0, [str(folder)]
  while todo:
    try:
      with os.scandir(todo.pop()) as it:
        for e in it:
          try:
            if e.is_dir(follow_symlinks=False): todo.append(e.path)
            elif e.is_file(follow_symlinks=False): total += e.stat(follow_symlinks=False).st_blocks * 512
          except OSError: pass
    except OSError: pass
  return total

def _children(pid:int) -> list[int]:
  out = []
  try:
    for task in os.listdir(f"/proc/{pid}/task"):
      try: out += [int(c) for c in open(f"/proc/{pid}/task/{task}/children").read().split()]
      except (OSError, ValueError): pass
  except OSError: pass
  return out

def tree_cpu(pid:int) -> float:
  """The most CPU time (user + system, seconds) any one process of `pid`'s tree has used so far (RLIMIT_CPU counts per
  process); 0 when /proc cannot tell."""
  tick, best, todo, seen = os.sysconf("SC_CLK_TCK"), 0.0, [pid], set()
  while todo and len(seen) < 4096:
    p = todo.pop()
    if p in seen: continue
    seen.add(p)
    try:
      fields = open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()
      best = max(best, (int(fields[11]) + int(fields[12])) / tick)
    except (OSError, ValueError, IndexError): pass
    todo += _children(p)
  return best
