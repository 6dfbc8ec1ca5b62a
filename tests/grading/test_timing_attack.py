"""A backend must not be able to fake the clock that times it (issue 17, item 5). Module 07's `my_backend.py` runs in a
child process; an attack that replaces `time.perf_counter` there and shaves 90% off its own kernels while they run made
a backend compiled at -O0 (about 0.2x of CPU) pass the 0.75x speed budget when the race was timed inside that child.
The budget test now times every run from the notebook's process, which the backend never runs in."""
import shutil
import pytest
from autograder.core.course import REPO
from autograder.grading.grade import grade_module
from autograder.core.sandbox import available
from autograder.core.results import to_json
from attacks import trimmed

pytestmark = pytest.mark.slow          # grades module 07

MODULE = "07_custom_backend"
SOLUTIONS = REPO / "solutions"
needs_sandbox = pytest.mark.skipif(not available()[0], reason=f"no sandbox here: {available()[1]}")

# Compiled at -O0, and every clock of the process it runs in made to lose 90% of the time its kernels take: each
# kernel call advances a hidden offset that time.perf_counter/monotonic/time subtract, and wait=True reports a tenth.
FAKE_CLOCK = '''
import time as _clock_module
_real_perf_counter, _shaved = _clock_module.perf_counter, [0.0]
def _faked(): return _real_perf_counter() - _shaved[0]
_clock_module.perf_counter = _clock_module.monotonic = _faked
_clock_module.perf_counter_ns = lambda: int(_faked() * 1e9)
_honest_call = MyProgram.__call__
def _call(self, *bufs, wait=False, **kwargs):
  st = _real_perf_counter()
  _honest_call(self, *bufs, **kwargs)
  took = _real_perf_counter() - st
  _shaved[0] += 0.9 * took
  return took * 0.1 if wait else None
MyProgram.__call__ = _call
'''

def fake_clock_submission(tmp_path):
  root = tmp_path / "submission" / MODULE
  shutil.copytree(SOLUTIONS / MODULE, root)
  backend = (root / "my_backend.py").read_text()
  assert 'flags = ["-shared", "-O2", ' in backend
  backend = backend.replace('flags = ["-shared", "-O2", ', 'flags = ["-shared", "-O0", ')
  backend = backend.replace("\ntry: register()", FAKE_CLOCK + "\ntry: register()")
  (root / "my_backend.py").write_text(backend)
  return root.parent

@needs_sandbox
def test_a_faked_clock_does_not_pass_the_speed_budget(tmp_path):
  # the budget and the tests of the backend's compiler and programs: the rest of module 07 adds minutes, not a check of the clock
  result = to_json(grade_module(trimmed(tmp_path, MODULE, {"test_budget", "test_compile", "test_program"}), fake_clock_submission(tmp_path)))
  status = {t["id"]: (t["status"], t["message"]) for t in result["tests"]}
  assert status["test_budget"][0] == "failed", status["test_budget"]
  assert "relative to CPU" in status["test_budget"][1], status["test_budget"]
  others = {k: v for k, v in status.items() if k not in ("test_budget", "test_benchmark") and v[0] != "passed"}
  assert not others, others          # everything else of the backend is right: only its speed is not
