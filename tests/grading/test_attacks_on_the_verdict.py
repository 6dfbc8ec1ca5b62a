"""Attacks on what the verdict trusts, written as a hostile learner would into real modules' released starters: a
forbidden function reached through a stored reference, forged observation records, hidden source sent out encoded,
a skip raised by an answer, checks that observe hidden data, `True`/`1`/`1.0`, and resource hogs graded beside an
honest learner. Each earns nothing and is flagged; each failed against the grader before its fix."""
import base64
import json
import re
import subprocess
import sys
import textwrap
import zlib
import pytest
from autograder.core.cells import grade_id, is_answer, is_test
from autograder.core.assemble import read_notebook
from autograder.core.course import module_names, notebook_path
from autograder.grading.grade import grade_module
from autograder.core.module import Module
from autograder.core.results import to_json
from autograder.core.runs import reference
from autograder.authoring.lint import observes_hidden, parse
from autograder.core.transform import hidden_text, prepare, RECORDER
from neighbours import load_lock
from attacks import SOLUTIONS, needs_sandbox, rules, submit


def by_id(result): return {t["id"]: t for t in result["tests"]}
# ---- 1. a forbidden function, reached through a reference taken before the block -------------------------------

STORED = {   # module: (answer cell, code, the tests it must not pass)
  "03_autograd": ("ans_backward_rules", '''
_g = getattr(Tensor, "gra" + "dient")                # taken before any forbidden() block opens
def unbroadcast(grad, shape):
    shape = tuple(shape)
    if grad.ndim > len(shape): grad = grad.sum(axis=tuple(range(grad.ndim - len(shape))))
    axes = tuple(i for i, (g, s) in enumerate(zip(grad.shape, shape)) if s == 1 and g != 1)
    return grad.sum(axis=axes, keepdim=True) if axes else grad
def reduced_axes(axis, ndim):
    if axis is None: return tuple(range(ndim))
    return tuple(sorted(ax % ndim for ax in ((axis,) if isinstance(axis, int) else tuple(axis))))
def minimum_backward(grad_out, a, b):
    return tuple(_g(a.minimum(b), a, b, gradient=grad_out))
def hardtanh_backward(grad_out, x, lo, hi):
    return _g(x.hardtanh(lo, hi), x, gradient=grad_out)[0]
def elu_backward(grad_out, x, alpha):
    return _g(x.elu(alpha), x, gradient=grad_out)[0]
def min_backward(grad_out, a, axis=None):
    return _g(a.min(axis=axis), a, gradient=grad_out)[0]
def softmax_backward(grad_out, x, axis=-1):
    return _g(x.softmax(axis), x, gradient=grad_out)[0]
''', {"test_elementwise_rules", "test_reduce_rules"}),
  "02_op_types": ("ans_my_conv2d", '''
_conv = Tensor.conv2d
def my_conv2d(x, w, stride=1, padding=0):
    return _conv(x, w, stride=stride, padding=padding)
''', {"test_my_conv2d", "test_my_conv2d_one_kernel"}),
  "06_custom_ops": ("ans_rms_norm_backward", '''
_grad = Tensor.gradient
def rms_norm_backward(x, weight, grad_out, eps=1e-6):
    y = x * (x.square().mean(axis=-1, keepdim=True) + eps).rsqrt() * weight
    dx, dw = _grad(y, x, weight, gradient=grad_out)
    return dx, dw
''', {"test_rms_norm_backward"}),
}

@needs_sandbox
@pytest.mark.slow
@pytest.mark.parametrize("module", list(STORED))
def test_a_forbidden_function_called_through_a_stored_reference_earns_nothing(tmp_path, module):
  """Before: 03 +5 (its backward rules on tinygrad's own autograd; since its rewrite: minimum/hardtanh/elu/min/softmax), 02 +2 (Tensor.dot in my_matmul,
  now Tensor.conv2d in my_conv2d), 06 +2 (rms_norm_backward by autograd). Graded whole: a copy cut to the attacked
  tests took a reference run of its own (27-56 s each), the whole module's is the suite's (the starter's other tests
  end at their stubs)."""
  answer, code, tests = STORED[module]
  with load_lock():          # graded beside 13's noisy self-check (full run of 2026-12-02) it made a third process per core
    result = to_json(grade_module(Module(module, SOLUTIONS), submit(tmp_path, code, answer, module=module)))   # the module's own reference, shared with the suite
  got = by_id(result)
  assert all(got[t]["score"] == 0 for t in tests), [(t, got[t]["status"], got[t]["message"]) for t in tests]
  assert "forbidden function" in rules(result), result["flags"]

# ---- 2, 3, 8: forged records, hidden source sent out encoded, a skip that is not one (one grading of module 01) ---

MODULE = "01_tensor_basics"

def _forger(records:list[dict]) -> str:
  """count_kernels that publishes, on its first call, the reference's own records (what a forger who read the
  visible expected values would send), then returns 0."""
  return f'''
from IPython.display import publish_display_data
_sent = []
def count_kernels(fn):
    if not _sent:
        for r in {records!r}:
            publish_display_data({{"application/x.autograder-observation+json": r}})
        _sent.append(1)
    return 0
'''

LEAK = '''
import base64, zlib
def _leak(*args, **kwargs):
    cell = get_ipython().user_ns["In"][-1]
    secret = cell[cell.find("hidden(True)"):]
    raise ValueError(base64.b64encode(zlib.compress(secret.encode(), 9)[:200]).decode())
make_tensors = find_draw = make_ranges = relu_sum_fused = fusion_bill = time_fn = peek_schedule = schedule_summary = kernel_source = _leak
'''

SKIP = '''
from autograder import CheckSkipped
def find_draw(target, seeds, max_calls): raise CheckSkipped("no device for this")
'''

def _decoded(text:str) -> str:
  """Everything base64 + zlib runs in `text` decode to (partial streams too)."""
  out = []
  for run in re.findall(r"[A-Za-z0-9+/=]{16,}", text):
    try: raw = base64.b64decode(run + "=" * (-len(run) % 4))
    except Exception: continue
    try: out.append(zlib.decompressobj().decompress(raw).decode(errors="ignore"))
    except zlib.error: pass
  return "\n".join(out)

@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
  """Module 01's starter with three attacks in three answer cells, graded once."""
  tmp = tmp_path_factory.mktemp("round2")
  ref = to_json(reference(Module(MODULE, SOLUTIONS)))
  forged = [{k: r[k] for k in ("site", "k", "kind")} | {"actual": r["expected"], "name": "x"} for r in ref["tests"]["test_count_kernels"]["observations"]]
  root = submit(tmp, _forger(forged), "ans_count_kernels")
  import nbformat
  path = root / MODULE / f"{MODULE}.ipynb"
  nb = nbformat.read(str(path), as_version=4)
  for c in nb.cells:
    if grade_id(c) == "ans_make_tensors": c.source = LEAK
    if grade_id(c) == "ans_make_random": c.source = SKIP
  nbformat.write(nb, str(path))
  return to_json(grade_module(Module(MODULE, SOLUTIONS), root))

@needs_sandbox
@pytest.mark.slow
def test_forged_observation_records_fail_the_test_and_are_flagged(attacked):
  """Before: test_count_kernels passed on records the answer published itself (+2)."""
  t = by_id(attacked)["test_count_kernels"]
  assert t["status"] == "failed" and t["score"] == 0, t
  assert "forged observation" in rules(attacked), attacked["flags"]

@needs_sandbox
@pytest.mark.slow
def test_hidden_source_sent_out_encoded_never_reaches_the_report(attacked):
  """Before: base64(zlib(...)) of the hidden part of every test cell that calls make_tensors & co. came back in its
  message, and decoded to hidden-test code."""
  secrets = {s for s in hidden_text(read_notebook(notebook_path(SOLUTIONS, MODULE))) if len(s) >= 20}
  messages = " ".join(t["message"] for t in attacked["tests"]) + attacked["message"]
  found = _decoded(messages) + messages
  leaked = [s for s in secrets if s in found or s[:20] in found]
  assert not leaked, leaked[:3]
  assert attacked["score"] == 0

@needs_sandbox
@pytest.mark.slow
def test_a_skip_raised_by_an_answer_is_a_failure(attacked):
  """Before: test_make_random was reported as skipped (the machine could not grade it)."""
  t = by_id(attacked)["test_make_random"]
  assert t["status"] == "failed" and t["score"] == 0, t

# ---- 4. hidden-ness follows what a check observes ----------------------------------------------------------------

def test_module_07s_battery_checks_are_graded_as_hidden():
  """Before: the battery's checks stand after the hidden region, so they were graded as visible and their messages
  showed the expected values of hidden ops (`sub_mul_div_abs ... expected -0.775`)."""
  nb = read_notebook(notebook_path(SOLUTIONS, "07_custom_backend"))
  cell = next(c for c in prepare(nb, learner=True).cells if grade_id(c) == "test_battery_ops")
  lines = cell.source.splitlines()
  at = next(i for i, l in enumerate(lines) if "battery_ops(battery, FORWARD)" in l)
  last = [l for l in lines[:at] if f"{RECORDER}.hidden(" in l][-1]
  assert last.strip() == f"{RECORDER}.hidden(True)", last

@pytest.mark.parametrize("module", module_names(SOLUTIONS))
def test_the_lint_for_hidden_data_agrees_with_the_grader(module):
  """On every module: each check the lint finds observing hidden data is graded as hidden (it stands after a
  hidden(True) of the recorder in the cell as the learner's run gets it)."""
  nb = read_notebook(notebook_path(SOLUTIONS, module))
  found = observes_hidden([parse(grade_id(c) or f"cell{i}", c.source, is_test(c)) for i, c in enumerate(nb.cells) if c.cell_type == "code" and not is_answer(c)])
  prepared = {grade_id(c): c.source for c in prepare(nb, learner=False).cells if grade_id(c)}
  for finding in found:
    cell_id, line = re.match(r"(\S+), line (\d+)", finding).groups()
    if cell_id not in prepared: continue
    src = prepared[cell_id].splitlines()
    site = next((i for i, l in enumerate(src) if f"_site='{cell_id}:{line}:" in l), None)
    assert site is not None, finding
    marks = [l.strip() for l in src[:site] if f"{RECORDER}.hidden(" in l]
    assert marks and marks[-1] == f"{RECORDER}.hidden(True)", finding
  if module == "07_custom_backend": assert any("test_battery_ops" in f for f in found)

def test_hidden_checks_do_not_name_the_expected_type_exception_or_shape():
  from autograder.notebook.compare import compare
  t = lambda name: {"__type__": [f"builtins.{name}"]}
  assert "ValueError" not in compare("type", t("int"), t("ValueError"), reveal=False)
  assert "KeyError" not in compare("raises", t("ValueError"), t("KeyError"), reveal=False)
  assert "KeyError" not in compare("raises", None, t("KeyError"), reveal=False)
  shape = lambda *s: {"__array__": {"dtype": "float32", "np": "<f4", "shape": list(s), "data": base64.b64encode(bytes(4 * max(1, len(s) and __import__("math").prod(s)))).decode()}}
  assert "(7, 3)" not in compare("agree", shape(2), shape(7, 3), reveal=False)
  assert "(7, 3)" not in compare("close", shape(2), shape(7, 3), reveal=False)

def test_true_one_and_one_point_zero_are_different_answers():
  from autograder.notebook.compare import compare
  for a, b in [(True, 1), (1, 1.0), (True, 1.0), ([1, 2], [True, 2]), ({"__dict__": [["k", 1]]}, {"__dict__": [["k", 1.0]]}),
               ({"__tuple__": [1, 0]}, {"__tuple__": [True, False]})]:
    assert compare("equal", a, b) is not None and compare("equal", b, a) is not None, (a, b)
  assert compare("equal", [1, 2.5, True], [1, 2.5, True]) is None

# ---- 7. resource limits: hostile learners next to an honest one ------------------------------------------------

HOGS = {
  "ans_make_tensors": '''
import os, time
children = []
try:
    for _ in range(2000):
        pid = os.fork()
        if pid == 0:
            time.sleep(30); os._exit(0)
        children.append(pid)
except OSError: pass
print("forked", len(children))
def make_tensors(shape, dtype, fill_value): return None
''',
  "ans_make_random": '''
hog = []
for _ in range(200): hog.append(bytearray(100 << 20))      # 20 GB, 100 MB at a time
def make_random(shape, seed): return None
''',
  "ans_make_ranges": '''
chunk = b"x" * (64 << 20)
for i in range(200):                                       # 12.8 GB into the working folder and /tmp
    for place in (f"junk{i}", f"/tmp/junk{i}"):
        try:
            with open(place, "wb") as f: f.write(chunk)
        except OSError: pass
def make_ranges(start, stop, step, n): return None
''',
}

LIMIT_STATUS = {"ans_make_tensors": "process_limit", "ans_make_random": "memory_limit", "ans_make_ranges": "disk_limit"}

@needs_sandbox
@pytest.mark.slow
def test_hogs_graded_beside_an_honest_learner_do_not_change_its_score(tmp_path):
  """A fork bomb, a memory hog and a disk filler (three learners), graded at the same time as an honest learner (the
  reference solution). Before: no limit at all (1 GiB to /tmp took 1 GiB of the host's shared memory). Not beside
  another test's noisy neighbours (load_lock): the honest learner has a core's share to keep, not a quarter of one."""
  with load_lock(): _hogs_beside_an_honest_learner(tmp_path)

def _hogs_beside_an_honest_learner(tmp_path):
  import shutil
  folders = {"honest": tmp_path / "honest"}
  shutil.copytree(SOLUTIONS / MODULE, folders["honest"] / MODULE)
  for cell, code in HOGS.items():
    folders[cell] = submit(tmp_path / cell, textwrap.dedent(code), cell)
  reference(Module(MODULE, SOLUTIONS))                             # cached first, so that the gradings run the learners' part only
  runs = {name: subprocess.Popen([sys.executable, "-m", "autograder.cli", "grade", str(folder), "--modules", MODULE, "--quiet",
                                  "--json", str(tmp_path / f"{name}.json")], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
          for name, folder in folders.items()}
  for name, p in runs.items(): assert p.wait(timeout=900) == 0, (name, p.stderr.read()[-2000:])
  report = {name: json.loads((tmp_path / f"{name}.json").read_text())["modules"][0] for name in runs}
  assert report["honest"]["score"] == report["honest"]["max_score"], [(t["id"], t["message"]) for t in report["honest"]["tests"] if t["status"] != "passed"]
  for cell, status in LIMIT_STATUS.items():
    assert report[cell]["score"] == 0 and report[cell]["status"] == status, (cell, report[cell]["status"], report[cell]["message"])
    assert "limit" in report[cell]["message"]
