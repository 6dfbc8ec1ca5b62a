"""Who had the CPU while a test loaded the machine: every process's CPU time, sampled from /proc in a thread, so that a
run that crawls (the ~900 s self-checks beside noisy neighbours of three full runs, 30 s alone) says where the time
went: to the neighbours, to the kernel under test, or to something else on the machine."""
import collections, os, platform, threading, time
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")

def _stat(pid:str) -> tuple[float, int, int, str]|None:
  """(CPU seconds, session id, nice, state: R running or runnable, S asleep, D in the disk) of a process, or None once
  it is gone."""
  try: text = Path(f"/proc/{pid}/stat").read_text()
  except OSError: return None
  fields = text[text.rindex(")") + 2:].split()            # after "pid (comm) ": state is fields[0]
  return (int(fields[11]) + int(fields[12])) / TICK, int(fields[3]), int(fields[16]), fields[0]

# x86-64 numbers of the calls a waiting process sits in: a kernel that waits on a lock, a pipe or a child says which
# (elsewhere the numbers differ: they are shown as numbers)
CALLS = {} if platform.machine() != "x86_64" else {0: "read", 7: "poll", 23: "select", 35: "nanosleep", 61: "wait4", 73: "flock", 74: "fsync", 75: "fdatasync",
         202: "futex", 230: "clock_nanosleep", 232: "epoll_wait", 270: "pselect6", 271: "ppoll", 281: "epoll_pwait"}

def _doing(pid:str, state:str) -> str:
  """What a process's main thread is doing: its state and, asleep, the system call it waits in."""
  if state == "R": return "R"
  try: call = Path(f"/proc/{pid}/syscall").read_text().split()[0]
  except (OSError, IndexError): return "?"
  return f"{state} {CALLS.get(int(call), f'call {call}') if call.lstrip('-').isdigit() else call}"

def _about(pid:str) -> str:
  """A process's command line, its cpu control group and its autogroup, in one line."""
  def read(name:str) -> str:
    try: return " ".join(Path(f"/proc/{pid}/{name}").read_bytes().replace(b"\0", b" ").decode(errors="replace").split())
    except OSError: return "?"
  try: groups = Path(f"/proc/{pid}/cgroup").read_text().splitlines()
  except OSError: groups = []
  cpu = next((l.split(":", 2)[2] for l in groups if "cpu" in l.split(":")[1].split(",")), "?")
  return f"{read('cmdline')[:90]} [cgroup {cpu}, {read('autogroup')}]"

class CpuLedger:
  """Samples every `every` seconds between start() and stop(); `summary()` lists the processes that used the CPU."""
  def __init__(self, every:float=5.0):
    self.every, self.first, self.last, self.about, self.done = every, {}, {}, {}, threading.Event()
    self.doing:dict[str, collections.Counter] = collections.defaultdict(collections.Counter)   # pid: what each sample saw
    self.begin = self.end = time.monotonic()

  def sample(self):
    born = bool(self.last)                                 # after the first sample, a new process's time is all in the window
    for pid in os.listdir("/proc"):
      if not pid.isdigit() or (s := _stat(pid)) is None: continue
      if pid not in self.first:
        self.first[pid] = 0.0 if born else s[0]
        self.about[pid] = f"session {s[1]}, nice {s[2]}: {_about(pid)}"
      self.last[pid] = s[0]
      self.doing[pid][_doing(pid, s[3])] += 1

  def start(self) -> "CpuLedger":
    self.begin = time.monotonic(); self.sample()
    def loop():
      while not self.done.wait(self.every): self.sample()
    threading.Thread(target=loop, daemon=True).start()
    return self

  def stop(self):
    self.sample(); self.done.set(); self.end = time.monotonic()

  def summary(self, top:int=12) -> str:
    used = sorted(((self.last[p] - self.first[p], p) for p in self.last), reverse=True)
    wall = self.end - self.begin
    lines = [f"{wall:.0f} s of wall time, {sum(u for u, _ in used):.0f} s of CPU on {os.cpu_count()} cores:"]
    seen = lambda p: ", ".join(f"{what} {n}" for what, n in self.doing[p].most_common(3))
    lines += [f"  {u:7.1f} s  pid {p} {self.about[p]}\n           samples: {seen(p)}" for u, p in used[:top] if u >= 0.5]
    return "\n".join(lines)
