"""The sandbox a grading kernel runs in: bubblewrap (`bwrap`) with its own PID, IPC, UTS and network namespaces, no
capabilities, a read-only view of the system and of Python, its own /tmp, and exactly one writable folder (the run's
folder, holding the working copy of the module). Not in the view: the repository (so no solutions, no hidden tests,
no git history), the reference observations, the grader's reports, other learners' submissions. Every process the
kernel starts lives in the sandbox's PID namespace and dies with it.

A module's `forbidden_libraries` are not in a learner's view either: each one's package folder (or module file), its
compiled copies and its distribution's metadata are covered by a stub that raises ModuleNotFoundError on import, at
every path the view binds them (a virtual environment is bound at its own path and at the one it links to). That is a
barrier the learner's code cannot lift: the files are not in its mount namespace, whatever it does in its process.

Where bubblewrap is missing or cannot create namespaces, `available()` says why and the kernel runs unsandboxed in
its own process group: the grader still reaches its verdict outside the kernel, but the kernel could read any file
the grader can, and a process that leaves its process group can outlive it."""
from __future__ import annotations
import functools, os, shutil, subprocess, sys
from pathlib import Path
from jupyter_client.manager import AsyncKernelManager
from traitlets import List, Unicode
from autograder.core.course import PACKAGE


@functools.cache
def available() -> tuple[bool, str]:
  """(usable, why not): bubblewrap found and able to create the namespaces we ask for."""
  if os.environ.get("AUTOGRADER_SANDBOX", "") == "off": return False, "switched off (AUTOGRADER_SANDBOX=off)"
  bwrap = shutil.which("bwrap")
  if bwrap is None: return False, "bubblewrap (bwrap) is not installed; on Debian/Ubuntu: sudo apt-get install bubblewrap"
  try:
    done = subprocess.run([bwrap, "--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--proc", "/proc",
                           "--dev", "/dev", "--cap-drop", "ALL", "true"], capture_output=True, text=True, timeout=30)
  except Exception as e: return False, f"bwrap could not run: {type(e).__name__}"
  if done.returncode != 0: return False, f"bwrap cannot create namespaces here: {done.stderr.strip().splitlines()[-1] if done.stderr.strip() else done.returncode}"
  return True, ""

def _python_roots() -> list[Path]:
  """The folders a kernel needs to run this Python: the interpreter's installation, the virtual environment, and
  any extra site folder (outside /usr, which is bound anyway)."""
  roots = {Path(os.path.realpath(sys.base_prefix)), Path(sys.prefix), Path(os.path.realpath(sys.prefix))}
  roots |= {Path(os.path.realpath(p)) for p in sys.path if p and Path(p).is_dir() and "site-packages" in p}
  return sorted(r for r in roots if not str(r).startswith("/usr"))

ABSENT = ('raise ModuleNotFoundError(f"{__name__} is not available when this module is graded: its answers may not use it '
          '(the module\'s forbidden_libraries)", name=__name__)\n')

@functools.cache
def _distribution_paths(top:str) -> tuple[set[str], set[Path]]:
  """(every top-level import name, the metadata folders) of the installed distributions that provide `top`."""
  import importlib.metadata as md
  tops, meta = {top}, set()
  for dist_name in md.packages_distributions().get(top, []):
    try: dist = md.distribution(dist_name)
    except md.PackageNotFoundError: continue
    tops |= {f.parts[0] for f in dist.files or [] if f.parts and not f.parts[0].endswith((".dist-info", ".egg-info", ".pth"))
             and f.parts[0] not in ("..", "__pycache__") and "." not in f.parts[0].removesuffix(".py")}
    if getattr(dist, "_path", None) is not None: meta.add(Path(dist._path))
  return tops, meta

def library_files(names:list[str]) -> list[Path]:
  """The real paths that make each library importable: for a top-level name ('torch'), the package folders or
  module files of every top-level name its distribution installs ('torchgen' too), their extension modules, and the
  distribution's metadata folder; for a dotted name ('onnxruntime.quantization', 'tinygrad.llm.gguf'), that
  subpackage's folder or that module's file and its compiled copies. Found on this Python's path, nothing imported."""
  sites = [Path(p) for p in sys.path if p and Path(p).is_dir()]
  out = set()
  for name in names:
    parts = name.split(".")
    tops, meta = _distribution_paths(parts[0]) if len(parts) == 1 else ({parts[0]}, set())
    out |= meta
    for site in sites:
      for top in (sorted(tops) if len(parts) == 1 else [parts[-1]]):
        base = site.joinpath(*parts[:-1])
        out |= {p for p in [base / top, base / f"{top}.py"] if p.exists()}
        out |= set(base.glob(f"{top}.*.so")) | set(base.glob(f"{top}.*.pyd")) | set((base / "__pycache__").glob(f"{top}.*.pyc"))
  return sorted({Path(os.path.realpath(p)) for p in out})

def _stubs(run_dir:Path) -> dict[str, Path]:
  """A stub package, a stub module and an empty folder, in the run's folder, that cover a forbidden library's files."""
  root = Path(run_dir) / "absent"
  (root / "package").mkdir(parents=True, exist_ok=True); (root / "empty").mkdir(exist_ok=True)
  (root / "package" / "__init__.py").write_text(ABSENT); (root / "module.py").write_text(ABSENT)
  return {"package": root / "package", "module": root / "module.py", "empty": root / "empty"}

def covers(libraries:list[str], roots:list[Path], stubs:dict[str, Path]) -> list[str]:
  """The bwrap arguments that cover each file of `libraries` at every place the view binds it (a root bound at a path
  that is a link shows the same files at a second path)."""
  args, done = [], set()
  for real in library_files(libraries):
    for root in roots:
      try: dest = Path(root) / real.relative_to(os.path.realpath(root))
      except ValueError: continue
      if dest in done: continue
      done.add(dest)
      if real.is_dir(): stub = stubs["empty"] if real.name.endswith((".dist-info", ".egg-info")) else stubs["package"]
      else: stub = stubs["module"] if real.suffix == ".py" else Path("/dev/null")
      args += ["--ro-bind", str(stub), str(dest)]
  return args

def command(run_dir:Path, workdir:Path, reads:list[Path]=(), hide:list[Path]=(), tmp_mb:int|None=None, libraries:list[str]=()) -> list[str]:
  """The bwrap prefix for a kernel whose only writable folder is `run_dir` (it contains `workdir`). `reads` are
  extra folders visible read-only (the course data); `hide` are files inside them that stay invisible; `tmp_mb`: the
  size of the sandbox's own /tmp; `libraries`: import names whose files the view covers with a stub (see
  library_files). The sandbox's /dev/shm is run_dir/shm (bubblewrap's --dev would give an unsized tmpfs, as large as
  half the machine's memory): what a kernel writes there counts in its disk limit."""
  args = ["bwrap", "--unsetenv", "JPY_PARENT_PID", "--die-with-parent", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
          "--unshare-net", "--unshare-cgroup-try", "--cap-drop", "ALL", "--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc"]
  for top in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
    p = Path("/") / top
    if p.is_symlink(): args += ["--symlink", os.readlink(p), str(p)]
    elif p.is_dir(): args += ["--ro-bind", str(p), str(p)]
  args += ["--proc", "/proc", "--dev", "/dev"] + (["--size", str(tmp_mb << 20)] if tmp_mb else []) + ["--tmpfs", "/tmp"]
  shm = Path(run_dir) / "shm"                             # /dev/shm: a folder of the run folder, so the disk watch counts it
  shm.mkdir(parents=True, exist_ok=True)
  args += ["--bind", str(shm), "/dev/shm"]
  for dev in sorted(Path("/dev").glob("nvidia*")) + sorted(Path("/dev/dri").glob("*")) + [Path("/dev/kfd")]:   # GPUs stay usable
    if dev.exists(): args += ["--dev-bind", str(dev), str(dev)]
  for extra in ("/sys", "/opt/cuda", "/run/nvidia-persistenced"):     # (the driver's files under /usr are bound already)
    if Path(extra).exists() and not Path(extra).is_symlink(): args += ["--ro-bind", extra, extra]
  for p in _python_roots() + [Path(r).resolve() for r in reads]:
    if p.exists(): args += ["--ro-bind", str(p), str(p)]
  if libraries: args += covers(list(libraries), [Path("/usr")] + _python_roots(), _stubs(run_dir))
  for h in hide:
    if Path(h).exists(): args += ["--ro-bind", "/dev/null", str(Path(h).resolve())]
  args += ["--bind", str(run_dir), str(run_dir), "--ro-bind", str(PACKAGE), str(package_dir(run_dir) / "autograder"), "--chdir", str(workdir)]
  return args

def package_dir(run_dir:Path) -> Path:
  """Where a run's kernel imports the grader's own `autograder` from (first on its path, read-only in the sandbox):
  the very package that grades, whatever checkout or virtual environment the kernel's Python would find."""
  return Path(run_dir) / "pkg"

def provide_package(run_dir:Path, sandboxed:bool):
  """The mount point (sandbox) or a link (no sandbox) for the grader's package in the run's folder."""
  target = package_dir(run_dir) / "autograder"
  target.parent.mkdir(parents=True, exist_ok=True)
  if sandboxed: target.mkdir(exist_ok=True)
  elif not target.exists(): target.symlink_to(PACKAGE, target_is_directory=True)

class SandboxedKernelManager(AsyncKernelManager):
  """A kernel manager whose kernel command starts inside `prefix` (the bwrap command, or nothing), talking over
  unix sockets in the run's folder, and interrupted by message (a signal to bwrap would end the sandbox)."""
  prefix = List(Unicode())

  @property
  def kernel_spec(self):
    spec = super().kernel_spec
    if spec is not None: spec.interrupt_mode = "message"
    return spec

  def format_kernel_cmd(self, extra_arguments=None):
    cmd = super().format_kernel_cmd(extra_arguments)
    if cmd and os.path.basename(cmd[0]).startswith("python"): cmd[0] = sys.executable     # the grader's own Python
    return list(self.prefix) + cmd
