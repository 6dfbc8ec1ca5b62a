"""Issue 33, finding 7: /dev/shm in the sandbox was an unsized tmpfs (1,200 MiB written, the run "graded"), and no
CPU-time or CPU-share bound held (300 threads started, so with --jobs 2 one learner could starve the one beside).
Now /dev/shm is a folder of the run folder, counted in the disk limit; each process of a kernel has a CPU-time
limit (RLIMIT_CPU, twice as much for the reference run); and where control groups can be made, every kernel gets
the same CPU share. On the toy course."""
import json
import os
import shutil
import subprocess
import pytest
from autograder.cli import main
from autograder.core.cells import grade_id
from autograder.core.limits import CPU_PER_WALL, CPU_SHARES, Group, Limits, _v1
from autograder.core.sandbox import available
from autograder.core.settings import module_settings
from toy_course import edit, notebook, write_toy_course

needs_sandbox = pytest.mark.skipif(not available()[0], reason=f"no sandbox here: {available()[1]}")

def grade_with(tmp_path, answer:str, limits:dict, timeout:int=60) -> dict:
  source = write_toy_course(tmp_path, modules=("01_toy",))
  import nbformat
  nb = nbformat.read(str(notebook(source)), as_version=4)
  nb.metadata["autograder"] = {"cell_timeout": timeout, "timeout": timeout, "limits": limits}
  nbformat.write(nb, str(notebook(source)))
  submission = tmp_path / "submission"; shutil.copytree(source, submission)
  def put(cells):
    for c in cells:
      if grade_id(c) == "ans_square": c.source = answer + "\ndef square(x):\n    return x * x"
    return cells
  edit(submission, put)
  assert main(["grade", str(submission), "--source", str(source), "--json", str(tmp_path / "r.json"), "--quiet"]) == 0
  return json.loads((tmp_path / "r.json").read_text())["modules"][0]

def test_the_cpu_limit_follows_the_notebooks_time_limit():
  assert Limits.of({"timeout": 120}).cpu_seconds == CPU_PER_WALL * 120 and Limits.of({"timeout": 120, "limits": {"cpu_seconds": 7}}).cpu_seconds == 7
  assert Limits.of({"timeout": 120}).scaled(2).cpu_seconds == 2 * CPU_PER_WALL * 120                    # the reference run
  assert "--cpu=480:485" in Limits.of({"timeout": 120}).prefix() or shutil.which("prlimit") is None
  assert module_settings({"metadata": {"autograder": {"limits": {"cpu_seconds": 30}}}})["limits"] == {"cpu_seconds": 30}

@needs_sandbox
def test_dev_shm_counts_in_the_disk_limit(tmp_path):
  hog = "import os, time\nfor _i in range(40):\n    with open(f'/dev/shm/fill{_i}', 'wb') as f: f.write(os.urandom(4 << 20))\ntime.sleep(5)"
  module = grade_with(tmp_path, hog, {"disk_mb": 48})
  assert module["status"] == "disk_limit" and "48 MB" in module["message"], module["message"]

@needs_sandbox
def test_dev_shm_still_works_for_shared_memory(tmp_path):
  uses = "from multiprocessing import shared_memory\n_m = shared_memory.SharedMemory(create=True, size=1 << 20); _m.buf[0] = 7\nassert _m.buf[0] == 7\n_m.close(); _m.unlink()"
  module = grade_with(tmp_path, uses, {})
  assert module["status"] == "graded" and module["score"] == 5, module

@pytest.mark.skipif(shutil.which("prlimit") is None, reason="no prlimit here")
def test_a_cpu_hog_is_stopped_by_its_cpu_limit(tmp_path):
  hog = "import time\n_t = time.monotonic()\nwhile time.monotonic() - _t < 80: pass"
  module = grade_with(tmp_path, hog, {"cpu_seconds": 2}, timeout=90)
  assert module["status"] == "cpu_limit" and "2 s of CPU" in module["message"], (module["status"], module["message"])
  assert module["seconds"] < 75

@pytest.mark.skipif(_v1("cpu") is None, reason="no writable cgroup v1 cpu controller here (a GitHub runner: the scheduler's autogroups share the CPU per session)")
def test_each_kernel_gets_the_same_cpu_share():
  group = Group(Limits())
  try:
    cpu = [f for f in group.folders if f.parent == _v1("cpu")]
    assert cpu and (cpu[0] / "cpu.shares").read_text().strip() == str(CPU_SHARES)
    seen = subprocess.run(group.prefix() + ["cat", "/proc/self/cgroup"], capture_output=True, text=True).stdout
    assert any(line.split(":")[1].split(",").count("cpu") and cpu[0].name in line for line in seen.splitlines()), seen
  finally: group.close()

def test_a_run_leaves_no_thread_or_open_file_in_the_grader(tmp_path):
  """Issue 43: nbclient stops neither the channels nor the zmq contexts of a client whose kernel manager it was given,
  so each run left a heartbeat thread pinging its dead kernel every second, four zmq threads and some twenty open
  files in the grader's process. A pytest worker that had run some hundred kernels spent a sixth of a core on them, and
  a self-check in it made almost no progress (766 s; 20 s in a fresh process)."""
  import copy, nbformat
  from autograder.core.execute import run_notebook
  nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")])
  run_notebook(copy.deepcopy(nb), tmp_path, 60, 120)                     # the first run's imports and lazy pools
  before = len(os.listdir("/proc/self/task")), len(os.listdir("/proc/self/fd"))
  for _ in range(3): run_notebook(copy.deepcopy(nb), tmp_path, 60, 120)
  after = len(os.listdir("/proc/self/task")), len(os.listdir("/proc/self/fd"))
  assert after[0] <= before[0] + 2 and after[1] <= before[1] + 4, f"threads, open files: {before} before three runs, {after} after"
