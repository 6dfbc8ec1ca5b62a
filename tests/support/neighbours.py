"""Noisy neighbours: busy processes that keep every core occupied while a test runs, started and stopped by the test
(and killed with it: each one ends by itself after `limit` seconds, whatever happens to the test)."""
import contextlib, os, subprocess, sys

# The modules whose tests compare or bound real times (course/instructors/authoring.md lists each timing check and its
# rule): their solution is graded beside noisy neighbours (tests/modules/test_mutants.py, test_honesty.py) and one
# finished notebook is self-checked beside them (tests/modules/test_noisy_neighbours.py).
TIMED = {"04_mnist", "06_custom_ops", "07_custom_backend", "09_deep_dive", "10_inference", "12_llm_inference", "13_kernel_opts"}

BUSY = "import time, sys\nend = time.monotonic() + float(sys.argv[1])\nx = 0\nwhile time.monotonic() < end:\n  for i in range(10000): x += i * i\n"

@contextlib.contextmanager
def noisy_neighbours(count:int|None=None, limit:float=900.0):
  """`count` busy processes (default: one per core) for the duration of the block, at most `limit` seconds."""
  procs = [subprocess.Popen([sys.executable, "-c", BUSY, str(limit)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
           for _ in range(count or os.cpu_count() or 2)]
  try: yield procs
  finally:
    for p in procs: p.kill()
    for p in procs: p.wait()
