"""Noisy neighbours: busy processes that keep every core occupied while a test runs, started and stopped by the test
(and killed with it: each one ends by itself after `limit` seconds, whatever happens to the test)."""
import contextlib, os, subprocess, sys

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
