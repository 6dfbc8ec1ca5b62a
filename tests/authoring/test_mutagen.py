"""The mutant generator (autograder.authoring.mutagen) and one real generated-mutant session on a toy module. Cheap on purpose:
grading every generated mutant of every module takes tens of minutes, so CI does not do it (run
`autograder mutants --generated`; its last results are in tests/mutants/generated-report.md)."""
import ast, time
from toy_course import write_toy_course
from autograder.authoring.mutagen import generate, sample, scope_at
from autograder.core.module import Module

SOURCE = '''from statistics import median
def helper(a, scale=1.0, *, repeats=5):
    return a * scale

def timed(fn, xs, warmup=2):
    """Not mutated: a docstring, the signature, and what lies outside the solution markers (1 + 1)."""
    y = 1 + 1
    ### BEGIN SOLUTION
    for _ in range(warmup): fn()
    times = []
    for x in xs:
        with Context(BEAM=0):
            t = fn(x).realize()
        times.append(helper(t, 2.0, repeats=3))
    total = sum(times) + min(times)
    if total <= 0.5 and x is not None: total -= 1
    return sorted(times, reverse=True)[0], list(reversed(times))[-1], helper(total, scale=1.0), f"{total + 1}"
    ### END SOLUTION
'''

EXPECTED = {
  (11, "reversed", "`for ... in xs` reversed"),
  (12, "with", "`with Context(BEAM=0):` removed (body kept)"), (12, "keyword", "keyword `BEAM=0` dropped"), (12, "constant", "`0` -> `1`"),
  (13, "realize", "`.realize()` removed"),
  (14, "constant", "`2.0` -> `20.0`"), (14, "constant", "`2.0` -> `0.2`"), (14, "default", "argument `scale=2.0` -> default `1.0`"),
  (14, "keyword", "keyword `repeats=3` dropped"), (14, "default", "`repeats=3` -> default `5`"),
  (14, "constant", "`3` -> `4`"), (14, "constant", "`3` -> `2`"),
  (15, "arith", "`+` -> `-`"), (15, "aggregate", "`min` -> `max`"),
  (16, "compare", "`<=` -> `<`"), (16, "constant", "`0.5` -> `5.0`"), (16, "constant", "`0.5` -> `0.05`"),
  (16, "compare", "`is not` -> `is`"), (16, "arith", "`-=` -> `+=`"), (16, "constant", "`1` -> `0`"), (16, "constant", "`1` -> `2`"),
  (17, "keyword", "keyword `reverse=True` dropped"), (17, "constant", "`True` -> `False`"), (17, "constant", "`0` -> `1`"),
  (17, "index", "`[0]` -> `[-1]`"), (17, "reversed", "`reversed(...)` dropped"), (17, "index", "`[-1]` -> `[0]`"),
  (17, "constant", "`1` -> `0`"), (17, "constant", "`1` -> `2`"), (17, "constant", "`1.0` -> `10.0`"), (17, "constant", "`1.0` -> `0.1`"),
}

def test_the_generator_makes_the_expected_edits_each_applying_once():
  edits = generate(SOURCE, "ans_timed")
  assert {(e.line, e.kind, e.what) for e in edits} == EXPECTED
  # not generated: the unused loop variable of `for _ in range(warmup)` reversed, `scale=1.0` dropped (the default),
  # anything in the docstring, the signature, the f-string or outside the markers
  tree = ast.dump(ast.parse(SOURCE))
  texts = set()
  for e in edits:
    assert SOURCE.count(e.old) == 1, e
    mutated = SOURCE.replace(e.old, e.new)
    assert ast.dump(ast.parse(mutated)) != tree, e
    assert mutated.splitlines()[:7] == SOURCE.splitlines()[:7] and mutated.endswith("### END SOLUTION\n"), e
    texts.add(mutated)
  assert len(texts) == len(edits), "two edits make the same mutant"

def test_an_edit_names_its_task_and_the_sample_is_seeded():
  edits = generate(SOURCE, "helper.py")
  assert {e.task for e in edits} == {"helper.py:timed"} and scope_at(SOURCE, 3) == "helper"
  picked = sample(edits, 5, seed=1)
  assert len(picked) == 5 and picked == sample(edits, 5, seed=1) and picked != sample(edits, 5, seed=2)
  assert [edits.index(e) for e in picked] == sorted(edits.index(e) for e in picked)

def test_a_generated_session_scores_tasks_and_survives_a_dead_kernel(tmp_path):
  from autograder.authoring.mutants import run, scores
  source = write_toy_course(tmp_path, ("01_toy",), answer_file=True)
  mutants = tmp_path / "01_toy.py"
  mutants.write_text('MUTANTS = [{"name": "square exits the kernel", "target": "ans_square", "old": "return x * x", '
                     '"new": "import os; os._exit(1)"}]\n')
  equivalent = tmp_path / "equivalent.txt"
  start = time.monotonic()
  result = run(Module("01_toy", source), mutants, generate_mutants=True, equivalent_file=equivalent)
  assert time.monotonic() - start < 120
  assert not result["control"] and result["status"] == "completed" and result["restarts"] == 1
  by_name = {m["name"]: m for m in result["mutants"]}
  assert by_name["square exits the kernel"]["caught"] and "session stopped" in by_name["square exits the kernel"]["message"]
  generated = [m for m in result["mutants"] if m.get("generated")]
  assert {m["task"] for m in generated} == {"ans_double", "ans_square", "helper.py:triple"}
  # after the restart the session went on: the generated mutants of square and of the answer file were judged
  assert all(m["tests"] for m in generated)
  assert next(m for m in generated if m["task"] == "helper.py:triple")["tests"].keys() == {"test_triple"}
  # `return 1 * x // 1 * 2` with `//` -> `/` gives 4.0 for 4: check_equal tells 4.0 from 4 (compare.same_scalar), so
  # every generated mutant of the toy is caught
  assert [m["what"] for m in generated if not m["caught"]] == []
  assert next(m for m in generated if m["task"] == "ans_double" and m["what"] == "`//` -> `/`")["caught"]
  tasks = {t["task"]: t for t in scores(result)}
  assert tasks["ans_square"]["hand"] == 1 and tasks["ans_square"]["hand_caught"] == 1
  for t in tasks.values():
    assert t["score"] == t["caught"] / t["generated"]
  # a reviewed equivalent mutant's file reads as {id: reason}
  equivalent.write_text(f"# reviewed\n{generated[0]['id']} the reason\n")
  from autograder.authoring.mutants import load_equivalent
  assert load_equivalent(equivalent) == {generated[0]["id"]: "the reason"}

def test_a_mutant_caught_by_one_test_skips_its_others_and_a_live_one_runs_all(tmp_path):
  from autograder.authoring.mutants import run
  source = write_toy_course(tmp_path, ("01_toy",))
  mutants = tmp_path / "01_toy.py"
  mutants.write_text('MUTANTS = [{"name": "square adds", "target": "ans_square", "old": "return x * x", "new": "return x + x", '
                     '"tests": ["test_square", "test_double"]},\n'
                     '{"name": "double off by one", "target": "ans_double", "old": "return 1 * x // 1 * 2", "new": "return 1 * x // 1 * 2 + 1", '
                     '"tests": ["test_square", "test_double"]}]\n')
  result = run(Module("01_toy", source), mutants)
  assert not result["control"] and result["status"] == "completed"
  assert result["solution_seconds"] is not None and 0 < result["solution_seconds"] < result["seconds"]   # set-up and control, timed
  by_name = {m["name"]: m for m in result["mutants"]}
  assert by_name["square adds"]["caught"] and by_name["square adds"]["tests"] == {"test_square": "failed"}
  assert by_name["double off by one"]["caught"] and by_name["double off by one"]["tests"] == {"test_square": "passed", "test_double": "failed"}

def test_the_ledger_skips_the_mutants_this_version_caught_and_a_change_grades_them_again(tmp_path, monkeypatch):
  from autograder.authoring import ledger
  from autograder.authoring.mutants import run
  source = write_toy_course(tmp_path, ("01_toy",))
  mutants, caught = tmp_path / "01_toy.py", tmp_path / "caught" / "01_toy.txt"
  one = '{"name": "square adds", "target": "ans_square", "old": "return x * x", "new": "return x + x"}'
  two = '{"name": "double off by one", "target": "ans_double", "old": "return 1 * x // 1 * 2", "new": "return 1 * x // 1 * 2 + 1"}'
  mutants.write_text(f"MUTANTS = [{one}, {two}]\n")
  first = run(Module("01_toy", source), mutants, known=ledger.caught(caught))
  assert all(m["caught"] and m["tests"] and not m.get("ledger") for m in first["mutants"])
  ledger.record(caught, first)
  assert len(ledger.caught(caught)) == 2
  again = run(Module("01_toy", source), mutants, known=ledger.caught(caught))
  assert all(m["caught"] and m["ledger"] and not m["tests"] for m in again["mutants"])      # nothing graded again...
  assert not again["control"] and again["status"] == "completed" and again["solution_seconds"]    # ...but the control ran
  bare = run(Module("01_toy", source), mutants, known=ledger.caught(caught), control=False)       # unless told it need not
  assert not bare["ran"] and bare["solution_seconds"] is None and bare["status"] == "completed" and all(m["ledger"] for m in bare["mutants"])
  mutants.write_text(f"MUTANTS = [{one}, {two.replace('+ 1', '- 1')}]\n")                       # an edited mutant is a new one
  edited = {m["name"]: m for m in run(Module("01_toy", source), mutants, known=ledger.caught(caught))["mutants"]}
  assert edited["square adds"].get("ledger") and not edited["double off by one"].get("ledger") and edited["double off by one"]["caught"]
  answers, version = source / "01_toy" / "01_toy.ipynb", ledger.version_key(Module("01_toy", source))
  answers.write_text(answers.read_text().replace("x squared.", "x times x."))                      # an edit of the module: every key new
  assert ledger.version_key(Module("01_toy", source)) != version
  monkeypatch.setenv("MUTANTS", "all")
  assert ledger.caught(caught) == set()
