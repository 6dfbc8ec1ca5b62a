"""`autograder doctor`: what this machine has for the workbook, and how to fix what is missing."""
from __future__ import annotations
import json, os, shutil, subprocess, sys
from importlib.metadata import version, PackageNotFoundError
from autograder.core.sandbox import available

PINNED = {"tinygrad": "0.14.0", "torch": "2.13.0", "nbgrader": "0.9.6"}
DEVICES = ["CPU", "PYTHON", "CUDA", "NV", "AMD", "METAL", "CL"]
CLANG_FIX = ("install clang: `sudo apt-get install -y clang` (Debian/Ubuntu), `sudo dnf install clang` (Fedora), "
             "`xcode-select --install` (macOS); tinygrad's CPU backend does not work with gcc")
PROBE = """
import json
from tinygrad import Device, Tensor
out = {}
for name in %r:
  try:
    Device[name]; out[name] = "ok" if name != "CPU" else ("ok" if (Tensor([1., 2.], device="CPU") + 1).tolist() == [2., 3.] else "wrong result")
  except Exception as e: out[name] = (type(e).__name__ + ": " + str(e)).splitlines()[0][:120]
print(json.dumps(out))
""" % DEVICES

def _version(pkg:str) -> str|None:
  try: return version(pkg)
  except PackageNotFoundError: return None

def diagnose() -> list[tuple[str, bool, str, str]]:
  """(what, ok, detail, fix) for each thing the workbook needs; optional things are ok when absent."""
  ok = sys.version_info >= (3, 11)
  rows = [("python >= 3.11", ok, sys.version.split()[0], "" if ok else "use Python 3.11 or newer")]
  for pkg, want in PINNED.items():
    have = _version(pkg)
    ok = (have or "").split("+")[0] == want
    rows.append((f"{pkg}=={want}", ok, have or "not installed", "" if ok else "run `make setup`"))
  clang = shutil.which("clang")
  detail = subprocess.run([clang, "--version"], capture_output=True, text=True).stdout.splitlines()[0] if clang else "not found"
  rows.append(("clang (tinygrad's CPU backend compiles with it)", clang is not None, detail, "" if clang else CLANG_FIX))
  usable, why = available()
  rows.append(("bubblewrap sandbox for grading (optional)", True, "usable" if usable else why,
               "" if usable else "graders need it: without it a learner's code runs unsandboxed (`sudo apt-get install bubblewrap`)"))
  try:
    from jupyter_client.kernelspec import KernelSpecManager
    KernelSpecManager().get_kernel_spec("python3"); rows.append(("jupyter kernel python3", True, "found", ""))
  except Exception as e: rows.append(("jupyter kernel python3", False, str(e)[:100], "run `make setup` (installs ipykernel)"))
  try:
    env = {k: v for k, v in os.environ.items() if k != "DEV"}
    probe = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120, env=env)
    devices = json.loads(probe.stdout.strip().splitlines()[-1])
  except Exception as e:
    devices = {name: f"probe failed: {type(e).__name__}" for name in DEVICES}
  for name, state in devices.items():
    required = name == "CPU"
    fix = CLANG_FIX if required else ("module 08 needs it; without it those checks are skipped (no points)" if name == "CUDA" else "")
    rows.append((f"tinygrad device {name}" + ("" if required else " (optional)"), state == "ok" or not required, state, "" if state == "ok" else fix))
  gpu = shutil.which("nvidia-smi")
  rows.append(("NVIDIA driver (optional)", True, "nvidia-smi found" if gpu else "no nvidia-smi", ""))
  return rows

def doctor(log=print) -> bool:
  rows = diagnose()
  for what, ok, detail, fix in rows:
    log(f"{'BAD' if not ok else 'ok ' if detail in ('ok', 'found', 'usable') or not what.endswith('(optional)') else '-- '}  {what:<48} {detail}")
    if fix: log(f"     {'fix' if not ok else 'note'}: {fix}")
  bad = [r for r in rows if not r[1]]
  log("everything the workbook needs is here" if not bad else f"{len(bad)} problem(s) to fix")
  return not bad
