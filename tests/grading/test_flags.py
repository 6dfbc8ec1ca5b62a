"""An answer that carries a large constant table (the public test labels, a dump of expected values) is flagged for
the instructor (issue 17, item 6); the reference answers carry none."""
import pytest
from autograder.core.assemble import read_notebook
from autograder.core.cells import grade_id, is_answer
from autograder.core.course import REPO, module_names, notebook_path
from autograder.grading.flags import scan

LABELS = "[" + ", ".join(str(i % 10) for i in range(10000)) + "]"

@pytest.mark.parametrize("source, what", [
    (f"def predict(x):\n    table = {LABELS}\n    return table[:len(x)]", "a literal list of 10,000 items"),
    (f"TABLE = {'7' * 10000!r}", "a str literal of 10,000 characters"),
    (f"TABLE = {bytes(5000)!r}", "a bytes literal of 5,000 characters"),
    ("TABLE = {" + ", ".join(f"{i}: {i % 10}" for i in range(2000)) + "}", "a literal dict of 2,000 items"),
])
def test_a_large_constant_table_is_flagged(source, what):
  assert {(f.rule, f.what) for f in scan(source, "ans_x")} >= {("large constant table", what)}

def test_a_short_literal_is_not_flagged():
  assert not [f for f in scan("SIZES = [(1, 2), (3, 4)] * 3\nNAMES = 'abc' * 100", "ans_x") if f.rule == "large constant table"]

@pytest.mark.parametrize("module", module_names(REPO / "solutions"))
def test_no_reference_answer_carries_a_table(module):
  nb = read_notebook(notebook_path(REPO / "solutions", module))
  flagged = [f for c in nb.cells if is_answer(c) for f in scan(c.source, grade_id(c) or "") if f.rule == "large constant table"]
  assert not flagged, flagged

DYNAMIC_CODE = {   # issue 33, finding 9: a classmate's answers as base64 marshal code run with builtins.exec earned 46/46, no flag
  "builtins.exec": "import base64, marshal, builtins\nbuiltins.exec(marshal.loads(base64.b64decode(PAYLOAD)))",
  "an alias": "import builtins as b\nb.exec(source)",
  "from builtins, renamed": "from builtins import exec as run\nrun(source)",
  "getattr with a computed name": "import builtins\ngetattr(builtins, 'ex' + 'ec')(source)",
  "getattr on __builtins__": "getattr(__builtins__, name)(source)",
  "importlib": "import importlib\nloads = importlib.import_module('mar' + 'shal').loads",
  "__import__": "m = __import__('marshal')",
  "types.FunctionType": "import types\nf = types.FunctionType(code, globals())",
  "a code object": "f = type(lambda: 0)(g.__code__, {})",
  "from marshal": "from marshal import loads as l",
  "a string that names it": "run = vars(__import__('buil' + 'tins'))['ex' + 'ec']",
}

@pytest.mark.parametrize("source", DYNAMIC_CODE.values(), ids=list(DYNAMIC_CODE))
def test_running_code_however_it_is_reached_is_flagged(source):
  assert "dynamic code" in {f.rule for f in scan(source, "ans_x")}, scan(source, "ans_x")

def test_honest_compiles_and_evals_are_not_flagged():
  assert not [f for f in scan("import re\np = re.compile('a+')\nmodel.eval()\nfast = torch.compile(step)\nout = prg.compile(src)", "ans_x")
              if f.rule == "dynamic code"]

@pytest.mark.parametrize("module", module_names(REPO / "solutions"))
def test_no_reference_answer_runs_dynamic_code(module):
  nb = read_notebook(notebook_path(REPO / "solutions", module))
  flagged = [f for c in nb.cells if is_answer(c) for f in scan(c.source, grade_id(c) or "") if f.rule == "dynamic code"]
  assert not flagged, flagged

# ---- issue 44, item 5: what got through the flags, and issue 43, item 5: what honest answers do ----------------------

from autograder.grading.flags import Context

ROUND_FOUR = {   # (source, context, the rule that must name it)
  "the profile hook paused": ("import sys, threading\np = sys.getprofile()\nsys.setprofile(None); threading.setprofile(None)", Context(), "tracing hook"),
  "a tracer from sys": ("from sys import settrace as s\ns(None)", Context(), "tracing hook"),
  "the hook by a string": ("getattr(sys, 'set' + 'profile')(None)", Context(), "tracing hook"),
  "the trap's record through __globals__": ('check.__globals__["_trap"]["tripped"].clear()', Context(), "function internals"),
  "attrgetter of a dotted forbidden name": ('import operator\nq = operator.attrgetter("ops.aten.quantize_per_channel")(torch)',
                                           Context(forbidden={"quantize_per_channel"}), "forbidden function"),
  "attrgetter of a computed name": ("from operator import attrgetter\nq = attrgetter(name)(torch)", Context(forbidden={"x"}), "forbidden function"),
  "runpy": ('import runpy\nns = runpy.run_path("_helpers.py", init_globals=globals())', Context(), "runs learner-written files"),
  "a file it writes and imports": ('open("pieces.py", "w").write(text)\nimport pieces', Context(importable={"numpy"}), "runs learner-written files"),
  "a loader": ("import importlib.util\nspec = importlib.util.spec_from_file_location('m', path)", Context(), "runs learner-written files"),
  "posix_spawn in a session of its own": ('import os\nos.posix_spawn("/bin/sleep", ["sleep", "9"], {}, setsid=True)', Context(), "process control"),
  "start_new_session": ('import subprocess\nsubprocess.Popen(["sleep", "9"], start_new_session=True)', Context(), "process control"),
  "posix_spawn by name": ('import os\nspawn = getattr(os, "posix_" + "spawn")', Context(), "process control"),
  "a counter written through an alias": ("gc = GlobalCounters\ngc.kernel_count = 5", Context(), "writes a counter"),
  "a counter by setattr": ('setattr(counters, "kernel_" + "count", 5)', Context(), "writes a counter"),
  "a counter through __dict__": ('GlobalCounters.__dict__["x"] = 1', Context(), "monkeypatching"),
  "kernels hidden from the counters": ("run_linear(lin, update_stats=False)", Context(), "writes a counter"),
  "tinygrad's counters rebound through an alias": ("import tinygrad as tg\ntg.GlobalCounters = Stuck", Context(), "monkeypatching"),
  "a notebook name rebound": ("class GlobalCounters: kernel_count = 0", Context(trusted={"GlobalCounters"}), "monkeypatching"),
  "a library attribute through an alias": ("from tinygrad import nn\nN = nn\nN.RMSNorm = Mine", Context(), "monkeypatching"),
  "the kernel's history": ('secret = In[-1]', Context(), "IPython internals"),
  "a forbidden library": ("import torch\nfrom transformers import LlamaForCausalLM", Context(libraries=["torch", "transformers"]), "forbidden library"),
  "a forbidden submodule": ("from tinygrad.llm.gguf import ggml_data_to_tensor", Context(libraries=["tinygrad.llm.gguf"]), "forbidden library"),
  "a forbidden library the set-up imports": ("q = torch.quantize_per_channel(w, s, z, 0, t)", Context(libraries=["torch"]), "forbidden library"),
  "the hidden part of a cell by name": ('part = cell[cell.find("hidden(True)"):]', Context(), "reads outside the working folder"),
}

@pytest.mark.parametrize("case", ROUND_FOUR, ids=list(ROUND_FOUR))
def test_what_got_through_round_four_is_flagged(case):
  source, ctx, rule = ROUND_FOUR[case]
  assert rule in {f.rule for f in scan(source, "ans_x", ctx)}, scan(source, "ans_x", ctx)

HONEST = {   # idioms of the reference answers the flags once named (issue 43, item 5)
  "a config key": ('c = json.loads(text)\ndim = c["hidden_size"]', Context()),
  "getattr of the answer's own object": ('def weights(net, names):\n    return [getattr(net, name).weight for name in names]', Context(forbidden={"quantize_per_channel"})),
  "a forbidden name in a function no block ran": ("def grads_by_backward(f, *ts):\n    f(*ts).backward()\n    return [t.grad for t in ts]",
                                                 Context(forbidden={"backward"}, inside={"backward": {"grads_by_gradient"}}, reference={"grads_by_backward", "grads_by_gradient"})),
  "a docstring of the starter": ('def f():\n    """Load what the autograder gives."""\n', Context(given={"Load what the autograder gives."})),
  "a library the task may use": ("import torch", Context(libraries=["torch"], barred={"ans_other"})),
  "an answer's own counters": ("self.calls += 1\nstats.kernels = 3", Context()),
  "the answer's own function named as a forbidden method": ("def rms_norm_grads(x, w, g):\n    return rms_norm(x, w).gradient(x, w, gradient=g)",
                                                             Context(forbidden={"rms_norm"}, inside={"rms_norm": {"rms_norm_grads"}}, reference={"rms_norm", "rms_norm_grads"})),
}

@pytest.mark.parametrize("case", HONEST, ids=list(HONEST))
def test_honest_idioms_are_not_flagged(case):
  source, ctx = HONEST[case]
  assert not scan(source, "ans_x", ctx), scan(source, "ans_x", ctx)

def test_a_forbidden_name_is_flagged_where_a_block_ran_it_or_outside_the_references_functions():
  ctx = Context(forbidden={"backward", "rms_norm"}, inside={"backward": {"grads_by_gradient"}}, reference={"grads_by_backward", "grads_by_gradient", "rms_norm"})
  for source in ["def grads_by_gradient(f, *ts):\n    f(*ts).backward()", "_b = Tensor.backward", "def _mine(t):\n    return t.backward()",
                 "rms_norm = Tensor.rms_norm"]:
    assert "forbidden function" in {f.rule for f in scan(source, "ans_x", ctx)}, source

def test_a_module_can_allow_one_finding_of_a_rule_and_not_the_rest():
  """Module 10 ships a model with pickle: it allowed the whole `introspection` rule, so gc and inspect went unflagged
  there too. An allowance names a rule or one finding of it."""
  from autograder.grading.flags import flags
  answers = [("ans_ship", "import pickle\n"), ("ans_latency", "import gc\n")]
  found = lambda allow: sorted((f.where, f.what) for f in flags(answers, allow))
  assert found(["introspection: imports pickle"]) == [("ans_latency, line 1", "imports gc")]
  assert found(["introspection"]) == [] and len(found([])) == 2
