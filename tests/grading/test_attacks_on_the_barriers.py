"""Issue 44 (round four): the attacks of its table that got through, written from the table against the released
starters (tests/support/barrier_attacks.py), each graded on the real module. An attack test fails if the attack earns
a point on the tests it targets or goes unflagged. Before (on main): module 10's three ways around no_library() 3/3,
6/6 and 2/2; module 12's forward and sample by transformers 6/6, nn.RMSNorm and scaled_dot_product_attention 6/6;
8 of 32 distinct hidden numbers of two module 12 tests in the report through a Tensor subclass's repr; module 01's
peek_schedule 2/2 through a stuck alias of GlobalCounters; posix_spawn(setsid=True) unflagged; a classmate's module 01
answers in 15-character pieces run with runpy 16/16 at 0% similarity, unflagged but for globals()."""
import csv, re, shutil, subprocess, sys
import pytest
from autograder.core.cells import grade_id, is_test
from autograder.core.module import Module
from autograder.core.results import to_json
from autograder.core.transform import hidden_lines
from autograder.grading.grade import grade_module
from attacks import needs_sandbox, rules, trimmed
from barrier_attacks import ATTACKS, SOLUTIONS, Attack, submission

pytestmark = [pytest.mark.slow, needs_sandbox]     # each grades a real module

def _pending(attack:Attack) -> str|None:
  """Why an attack's defence is not in the module yet (a notebook change of /work/notes/integrity-notebook-changes.md
  that the course's author applies), or None."""
  nb = Module(attack.module, SOLUTIONS).notebook
  cells = {grade_id(c): c.source for c in nb.cells}
  if attack.module == "10_inference" and "torch" not in Module(attack.module, SOLUTIONS).settings["forbidden_libraries"]:
    return "module 10 does not state its forbidden libraries yet"
  if "RMSNorm" in " ".join(attack.answers.values()) and "forbidden(" not in cells.get("test_forward_token", ""):
    return "module 12's Part 2 tests open no forbidden() block yet"
  return None

def _graded(tmp_path, name:str, keep:set|None=None) -> dict:
  """The attack graded on its module, cut down to the tests `keep` if given (attacks.trimmed), else whole: a cut-down
  copy's reference run is its own (10's and 12's set-up loads models: 60-80 s each), the whole module's is shared."""
  attack = ATTACKS[name]
  if (why := _pending(attack)) is not None: pytest.skip(why)
  module = trimmed(tmp_path, attack.module, keep) if keep else Module(attack.module, SOLUTIONS)
  return to_json(grade_module(module, submission(tmp_path, name)))

EARNING = [n for n, a in ATTACKS.items() if a.targets and "repr" not in n]

@pytest.mark.parametrize("name", EARNING, ids=EARNING)
def test_an_attack_earns_nothing_on_its_targets_and_is_flagged(tmp_path, name):
  result = _graded(tmp_path, name)
  tests = {t["id"]: t for t in result["tests"]}
  earned = {t: (tests[t]["score"], tests[t]["status"], tests[t]["message"]) for t in ATTACKS[name].targets if tests[t]["score"] > 0}
  assert not earned, earned
  assert ATTACKS[name].flags <= rules(result), result["flags"]
  assert result["sandbox"] == "bubblewrap"

def _hidden_numbers(module:str) -> set[str]:
  """The numbers (3 digits or more, or with a decimal point) the module's hidden regions spell and its visible code does not."""
  hidden, visible = set(), set()
  for c in Module(module, SOLUTIONS).notebook.cells:
    if c.cell_type != "code": continue
    secret = hidden_lines(c.source) if is_test(c) else set()
    for n, line in enumerate(c.source.splitlines(), 1): (hidden if n in secret else visible).update(re.findall(r"\d+\.\d+|\d{3,}", line))
  return hidden - visible

def test_a_tensor_subclass_carries_no_hidden_number_into_the_report(tmp_path):
  """Before: the visible checks of test_rms_norm and test_attention (now Task 2.1's three forward tests) showed the
  subclass's repr, the numbers of the running cell's hidden part (In[-1]): 8 of the 32 distinct hidden numbers of
  module 12 in two messages."""
  name = "12: hidden numbers in a Tensor subclass's repr"
  result = _graded(tmp_path, name)
  text = " ".join(t["message"] for t in result["tests"]) + result["message"]
  leaked = sorted(n for n in _hidden_numbers("12_llm_inference") if re.search(rf"(?<![\d.]){re.escape(n)}(?!\d)", text))
  assert not leaked, (leaked, text[:2000])
  tests = {t["id"]: t for t in result["tests"]}
  assert all(tests[t]["score"] == 0 and "another kind" in tests[t]["message"] for t in ATTACKS[name].targets), [tests[t]["message"] for t in ATTACKS[name].targets]
  assert ATTACKS[name].flags <= rules(result), result["flags"]

def test_a_process_in_a_session_of_its_own_is_flagged(tmp_path):
  result = _graded(tmp_path, "01: os.posix_spawn(setsid=True)")
  assert result["score"] == 0 and "process control" in rules(result), result["flags"]

def test_a_classmates_answers_in_pieces_run_with_runpy_are_flagged_and_found_alike(tmp_path):
  """The copy earns what the copied answers earn: what stops it is the instructor, told by the flags and by the
  similarity report, which now joins the pieces (classroom/unwrap.py) and compares what runs."""
  name = "01: a classmate's answers in 15-character pieces run with runpy"
  result = _graded(tmp_path, name, keep={"test_make_tensors"})     # the flags read the answers: one test is enough to run them
  assert ATTACKS[name].flags <= rules(result), result["flags"]
  subs = tmp_path / "class"
  shutil.copytree(SOLUTIONS / "01_tensor_basics", subs / "honest" / "01_tensor_basics")
  shutil.copytree(tmp_path / "submission" / "01_tensor_basics", subs / "copier" / "01_tensor_basics")
  done = subprocess.run([sys.executable, "-m", "autograder.cli", "similarity", str(subs), "--out", str(tmp_path / "sim"), "--modules", "01"],
                        capture_output=True, text=True, timeout=600)
  assert done.returncode == 0, done.stderr[-2000:]
  rows = [r for r in csv.DictReader(open(tmp_path / "sim" / "similarity.csv")) if {r["learner_a"], r["learner_b"]} == {"honest", "copier"}]
  assert rows and float(rows[0]["similarity"]) >= 0.8, rows

BEAM_PLUS_ONE = '''
def my_candidates(n):
    return [list(beam_opts(n)) + [Opt(OptOps.UNROLL, 0, 4)]]     # BEAM's list, and one opt more
'''

def test_beams_list_plus_one_opt_is_not_the_learners_own(tmp_path):
  """Module 13 Task 3.3: before, BEAM's list plus one UNROLL passed 3/3 as the learner's own list. The fix is the
  test's (a list that holds every opt of BEAM's is BEAM's): /work/notes/integrity-notebook-changes.md."""
  nb = Module("13_kernel_opts", SOLUTIONS).notebook
  if "every opt of BEAM" not in next(c.source for c in nb.cells if grade_id(c) == "test_my_candidates"):
    pytest.skip("module 13's test_my_candidates does not refuse BEAM's list with opts added yet")
  ATTACKS["13: BEAM's list plus one UNROLL"] = Attack("13_kernel_opts", {"ans_my_candidates": BEAM_PLUS_ONE}, {"test_my_candidates"}, set(),
                                                      ["ans_decode_name", "ans_opts_for_name", "ans_with_opts", "ans_read_c", "ans_opts_for", "ans_time_opts", "ans_kernel_figures"])
  result = _graded(tmp_path, "13: BEAM's list plus one UNROLL")
  test = next(t for t in result["tests"] if t["id"] == "test_my_candidates")
  assert test["score"] == 0, test
