"""Cheating must not pay: each attack below, written into the first answer cell of module 01's released starter
(rebinding the checks, objects equal to everything, forged observations, reading the solutions from disk, writing
the report, exiting), earns 0 points and is flagged for review. Before the grader reached its verdicts outside the
learner's kernel, the first five of these bought 37 of 75 points across four modules."""
import pytest
from autograder.core.course import REPO
from autograder.grading.grade import grade_module
from autograder.core.runs import cache_root
from autograder.core.sandbox import available
from autograder.core.results import to_json
from autograder.core.module import Module

pytestmark = pytest.mark.slow          # grades module 01

MODULE = "01_tensor_basics"
from attacks import SOLUTIONS, needs_sandbox, rules, submit, trimmed

FAKES = '''
class Anything:
    """Equal to everything; every attribute, call, item and operation gives itself back."""
    def __eq__(self, other): return True
    def __ne__(self, other): return False
    def __bool__(self): return True
    def __getattr__(self, name): return self
    def __call__(self, *args, **kwargs): return self
    def __getitem__(self, key): return self
    def __iter__(self): return iter([self, self])
    def __len__(self): return 2
    def __lt__(self, other): return True
    __gt__ = __le__ = __ge__ = __lt__
    def __float__(self): return 0.5
    def __index__(self): return 1
def _anything(*args, **kwargs): return Anything()
make_tensors = make_random = make_ranges = count_kernels = fused_and_unfused = time_fn = peek_schedule = schedule_summary = kernel_source = _anything
'''

ATTACKS = {
  "rebinds the check helpers": (FAKES + '''
def _ok(*args, **kwargs): return None
check = check_close = check_equal = check_same = check_type = check_shape = check_dtype = check_in = _ok
check_kernel_count = check_no_kernels = check_raises = check_range = check_set = check_agreement = _ok
import autograder.notebook.checks
autograder.notebook.checks._judge = _ok
''', {"comparison override", "monkeypatching"}),
  "blanks later test cells with an input transformer and a pre_run_cell hook": (FAKES + '''
ip = get_ipython()
ip.input_transformers_post.append(lambda lines: [] if any("check" in l for l in lines) else lines)
ip.events.register("pre_run_cell", lambda info: None)
''', {"IPython internals", "comparison override"}),
  "patches numpy, torch and tinygrad comparisons and counters": (FAKES + '''
import numpy, torch
from tinygrad import GlobalCounters
numpy.allclose = numpy.array_equal = numpy.isclose = lambda *a, **k: True
torch.allclose = torch.equal = lambda *a, **k: True
GlobalCounters.reset = lambda: None
GlobalCounters.kernel_count = 1
''', {"monkeypatching", "comparison override"}),
  "returns objects equal to everything": (FAKES, {"comparison override"}),
  "forges observations from the caller's frame and globals()": (FAKES + '''
import sys
from IPython.display import publish_display_data
def _forge(actual=None, expected=None, *args, _site=None, **kwargs):
    frame = sys._getframe(1)
    scope = {**globals(), **frame.f_globals, **frame.f_locals}
    guess = expected if expected is not None else next((v for k, v in scope.items() if k.startswith(("want", "_want", "exp"))), actual)
    if _site: publish_display_data({"application/x.autograder-observation+json": {"site": _site, "k": 0, "kind": "equal", "actual": repr(guess)[:50], "name": "x"}})
check = check_close = check_equal = check_same = check_type = check_shape = check_dtype = check_in = _forge
check_kernel_count = check_no_kernels = check_raises = check_range = check_set = check_agreement = _forge
''', {"frame access", "namespace access"}),
  "reads the solutions, the reference observations and the repository from disk": ('''
import glob, json, os
places = ["../../solutions", "../solutions", "__REPO__/solutions", "__CACHE__", os.path.expanduser("~/.cache/tinygrad-workbook"), "/proc/1/cwd/solutions"]
places += [v for v in os.environ.values() if v.startswith("/")]
found = []
for place in places:
    for path in glob.glob(os.path.join(place, "**", "*.ipynb"), recursive=True) + glob.glob(os.path.join(place, "**", "*.json"), recursive=True):
        try: text = open(path).read()
        except OSError: continue
        if "BEGIN SOLUTION" in text and "01_tensor_basics" in path:
            found += ["".join(c["source"]) for c in json.loads(text)["cells"] if "BEGIN SOLUTION" in "".join(c["source"]) and "places" not in "".join(c["source"])]
answers = "\\n\\n".join(found)
exec(answers, globals())
get_ipython().input_transformers_post.append(lambda lines: [answers + "\\n"] if any("NotImplementedError" in l for l in lines) else lines)
''', {"dynamic code", "reads outside the working folder", "IPython internals"}),
  "writes the grader's report and stdout from the kernel": (FAKES + '''
import os
for path in ["__REPORT__", f"/proc/{os.getppid()}/fd/1", f"/proc/{os.getppid()}/fd/2", "/proc/1/fd/1"]:
    try:
        with open(path, "w") as f: f.write('{"score": 16, "max_score": 16, "FAKE": true}')
    except OSError: pass
''', {"reads outside the working folder"}),
  "prints fake results, then exits the kernel": ('''
import os
for t in ["test_make_tensors", "test_make_random", "test_count_kernels"]: print(f"{t} ok 2 / 2 passed")
os._exit(0)
''', {"process control"}),
}

@needs_sandbox
@pytest.mark.parametrize("attack", ATTACKS, ids=list(ATTACKS))
def test_an_attack_earns_nothing_and_is_flagged(tmp_path, attack):
  code, expected_flags, *cell = ATTACKS[attack]
  report = tmp_path / "report.json"
  code = code.replace("__REPO__", str(REPO)).replace("__CACHE__", str(cache_root())).replace("__REPORT__", str(report))
  result = to_json(grade_module(Module(MODULE, SOLUTIONS), submit(tmp_path, code, *cell)))
  assert result["score"] == 0, [(t["id"], t["status"], t["message"]) for t in result["tests"]]
  assert expected_flags <= rules(result), result["flags"]
  assert result["sandbox"] == "bubblewrap"
  assert not report.exists() or "FAKE" not in report.read_text()

def test_without_the_sandbox_the_disk_attack_would_pay(tmp_path, monkeypatch):
  """The control for the sandbox: the same attack, unsandboxed, finds the solutions (so the test above can fail)."""
  code = ATTACKS["reads the solutions, the reference observations and the repository from disk"][0]
  code = code.replace('places += [v for v in os.environ.values() if v.startswith("/")]', "")   # unsandboxed, TMPDIR is the whole /tmp
  module = trimmed(tmp_path, MODULE, {"test_make_tensors"})            # one test the found answers pass is the proof
  monkeypatch.setenv("AUTOGRADER_SANDBOX", "off"); available.cache_clear()
  try: result = to_json(grade_module(module, submit(tmp_path, code.replace("__REPO__", str(REPO)).replace("__CACHE__", "/nonexistent"))))
  finally: monkeypatch.delenv("AUTOGRADER_SANDBOX"); available.cache_clear()
  assert result["sandbox"].startswith("none") and result["score"] > 0

COUNTER = '''
from tinygrad import GlobalCounters        # module 01's set-up no longer imports it: the attack brings its own
def relu_sum_fused(a, b):
    return (a + b).relu().sum().realize()

def relu_sum_unfused(a, b):
    out = (a + b).relu().sum().realize()       # fused after all ...
    GlobalCounters.kernel_count += 2           # ... and the counter told otherwise
    return out
'''

def test_a_counter_written_by_the_answer_earns_no_fusion_point(tmp_path):
  """Issue 33, finding 12: `GlobalCounters.kernel_count += 2` after a fused expression earned module 01's fusion point:
  a counter read in the learner's process decided it alone. The test now counts the kernels inside tinygrad's dispatch
  (kernels_during) and observes their kinds, which writing the counter does not change."""
  result = to_json(grade_module(Module(MODULE, SOLUTIONS), submit(tmp_path, COUNTER, answer="ans_fusion")))
  fusion = next(t for t in result["tests"] if t["id"] == "test_fusion")
  assert fusion["status"] == "failed" and fusion["score"] == 0, fusion
  assert "relu_sum_unfused" in fusion["message"] and "writes a counter" in rules(result)
