"""classroom/merge.py on its own: shard folders holding each learner's report.json (as `grade` writes it) and
fetched.json, merged with a late policy and overrides; the gradebook and task rows byte for byte (a late learner,
a flag, a fetch note, a timed-out module, overrides of a test and of a module, one unused, a formula-like message,
a grading that did not finish), the same files as one unsharded folder, what is kept from the shards (fingerprints,
the changes of a regrade, links), and every refusal."""
import csv
import json
import os
import shutil
import pytest
from autograder.classroom.gradebook import NAME_NOTE, GradebookError, read_overrides, rebuild
from autograder.classroom.late import Policy
from autograder.classroom.merge import merge

ADA = json.loads("""{"score": 3, "max_score": 6, "modules": [
 {"module": "01_x", "status": "graded", "message": "", "sandbox": "bwrap", "flags": [], "score": 2, "max_score": 5, "seconds": 3.2, "tests": [
  {"id": "test_a", "task": "Task 1.1", "status": "passed", "score": 2, "max_score": 2, "message": ""},
  {"id": "test_b", "task": "Task 1.2", "status": "failed", "score": 0, "max_score": 3, "message": "b(2): expected 4, got 5"}]},
 {"module": "02_y", "status": "graded", "message": "", "sandbox": "bwrap", "flags": [], "score": 1, "max_score": 1, "seconds": 1.0, "tests": [
  {"id": "test_c", "task": "Task 2.1", "status": "passed", "score": 1, "max_score": 1, "message": ""}]}]}""")
BOB = json.loads("""{"score": 3, "max_score": 6, "modules": [
 {"module": "01_x", "status": "graded", "message": "", "sandbox": "bwrap", "score": 3, "max_score": 5, "seconds": 3.2,
  "flags": [{"where": "ans_b, line 2", "rule": "forbidden import", "what": "numpy"}], "tests": [
  {"id": "test_a", "task": "Task 1.1", "status": "failed", "score": 0, "max_score": 2, "message": "=cmd|' /C calc'!A0"},
  {"id": "test_b", "task": "Task 1.2", "status": "passed", "score": 3, "max_score": 3, "message": ""}]},
 {"module": "02_y", "status": "timeout", "message": "the run stopped", "sandbox": "bwrap", "flags": [], "score": 0, "max_score": 1, "seconds": 30.0, "tests": [
  {"id": "test_c", "task": "Task 2.1", "status": "timeout", "score": 0, "max_score": 1, "message": "ran past 10 s"}]}]}""")
CYD = {"score": 0.0, "max_score": 0.0, "modules": [], "error": "grading cyd did not finish (exit code -9)"}
FETCHED = {"commit": "a" * 40, "committed_at": "2026-12-02T10:00:00+00:00", "due": "2026-12-01T23:59:00+00:00",
           "note": "both a branch and a tag named main: the tag was taken"}
OVERRIDES = "learner,module,test,points,note\nbob,01,test_a,1,the idea is right\nada,02_y,,,looked at\nzed,01,,5,not here\n"

GRADEBOOK = [
  "learner,module,score,max_score,status,flags,raw_score,late_days,late_percent,override",
  "ada,01_x,1.8,5,graded,fetch: both a branch and a tag named main: the tag was taken,2.0,1,10,",
  "ada,02_y,0.9,1,graded,fetch: both a branch and a tag named main: the tag was taken,1.0,1,10,module (looked at)",
  'bob,01_x,4.0,5,graded,"ans_b, line 2: forbidden import",4.0,0,0.0,test_a: 1 points (the idea is right)',
  "bob,02_y,0.0,1,timeout,,0.0,0,0.0,",
  "cyd,,0,0,grader_error,grading cyd did not finish (exit code -9),0,0,0,"]
TASKS = [
  "learner,module,task,test,status,score,max_score,message,override",
  "ada,01_x,Task 1.1,test_a,passed,2.0,2,,",
  'ada,01_x,Task 1.2,test_b,failed,0.0,3,"b(2): expected 4, got 5",',
  "ada,02_y,Task 2.1,test_c,passed,1.0,1,,",
  "bob,01_x,Task 1.1,test_a,failed,1.0,2,'=cmd|' /C calc'!A0,the idea is right",
  "bob,01_x,Task 1.2,test_b,passed,3.0,3,,",
  "bob,02_y,Task 2.1,test_c,timeout,0.0,1,ran past 10 s,"]

def learner(folder, name, report, fetched=None):
  (folder / "feedback" / name).mkdir(parents=True)
  (folder / "feedback" / name / "report.json").write_text(json.dumps(report, indent=2) + "\n")
  (folder / "feedback" / name / "feedback.md").write_text(f"# {name}\n", errors="surrogateescape")     # (a name that is not UTF-8 too)
  if fetched: (folder / "feedback" / name / "fetched.json").write_text(json.dumps(fetched) + "\n")

@pytest.fixture
def shards(tmp_path):
  learner(tmp_path / "shard1", "ada", ADA, FETCHED); learner(tmp_path / "shard1", "cyd", CYD)
  learner(tmp_path / "shard2", "bob", BOB)
  (tmp_path / "overrides.csv").write_text(OVERRIDES)
  return [tmp_path / "shard1", tmp_path / "shard2"]

def text(path) -> str:
  with open(path, newline="") as f: return f.read()

def everything(folder) -> dict:
  return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}

def test_merge_writes_the_gradebook_of_the_class_byte_for_byte(shards, tmp_path):
  done = merge(shards, tmp_path / "out", Policy(3, 10, 30), read_overrides(tmp_path / "overrides.csv"))
  assert done == {"learners": 3, "shards": 2, "changes": False, "rows": 5, "unused_overrides": [4], "errors": ["cyd"]}
  assert text(tmp_path / "out/gradebook.csv") == "\r\n".join(GRADEBOOK) + "\r\n"
  assert text(tmp_path / "out/tasks.csv") == "\r\n".join(TASKS) + "\r\n"
  assert [r["learner"] for r in json.loads((tmp_path / "out/gradebook.json").read_text())] == ["ada", "ada", "bob", "bob", "cyd"]
  assert sorted(everything(tmp_path / "out")) == ["feedback/ada/feedback.md", "feedback/ada/fetched.json", "feedback/ada/report.json",
    "feedback/bob/feedback.md", "feedback/bob/report.json", "feedback/cyd/feedback.md", "feedback/cyd/report.json",
    "gradebook.csv", "gradebook.json", "tasks.csv"]                          # no fingerprints, no changes: the shards had none
  assert (tmp_path / "out/feedback/bob/report.json").read_bytes() == (shards[1] / "feedback/bob/report.json").read_bytes()

def test_the_merge_is_the_unsharded_folder(shards, tmp_path):
  whole = tmp_path / "whole"
  for shard in shards: shutil.copytree(shard / "feedback", whole / "feedback", dirs_exist_ok=True)
  rebuild(whole, None, Policy(3, 10, 30), read_overrides(tmp_path / "overrides.csv"))
  merge(shards, tmp_path / "out", Policy(3, 10, 30), read_overrides(tmp_path / "overrides.csv"))
  assert everything(tmp_path / "out") == everything(whole)

def test_merging_again_replaces_what_the_output_held(shards, tmp_path):
  merge(shards, tmp_path / "out")
  first = everything(tmp_path / "out")
  (tmp_path / "out/feedback/ada/stale.txt").write_text("from before")
  merge(shards, tmp_path / "out")
  assert everything(tmp_path / "out") == first

def test_fingerprints_and_the_changes_of_a_regrade_are_kept(shards, tmp_path):
  prints = {"format": 1, "grader": "abc", "libraries": {}, "modules": {"01_x": {"setup": "s", "tests": {}}}}
  part = lambda learner, change: {"format": 1, "fingerprints": True, "modules": ["01_x"], "learners": [learner], "only_before": [], "only_after": [],
    "totals": {learner: [2.0, 2.0 + change]}, "max_total": 5.0, "rows": [{"learner": learner, "module": "01_x", "task": "Task 1.1", "test": "test_a",
    "old_status": "failed", "new_status": "passed", "old_points": 0.0, "new_points": change, "max_points": 2.0, "change": change,
    "reason": "unknown", "test_reason": "unknown", "learner_reason": ""}]}
  for shard, (name, change) in zip(shards, (("cyd", 1.0), ("bob", 2.0))):
    (shard / "fingerprints.json").write_text(json.dumps(prints))
    (shard / "changes.json").write_text(json.dumps(part(name, change)))
  done = merge(shards, tmp_path / "out")
  assert done["changes"] is True and json.loads((tmp_path / "out/fingerprints.json").read_text()) == prints
  joined = json.loads((tmp_path / "out/changes.json").read_text())
  assert [(r["learner"], r["change"]) for r in joined["rows"]] == [("bob", 2.0), ("cyd", 1.0)] and joined["learners"] == ["bob", "cyd"]
  assert (tmp_path / "out/changes.csv").is_file() and (tmp_path / "out/changes.md").is_file()

def test_a_link_in_a_learners_folder_is_copied_as_a_link(shards, tmp_path):
  (tmp_path / "secret").write_text("not the grader's")
  os.symlink(tmp_path / "secret", shards[1] / "feedback/bob/extra")
  merge(shards, tmp_path / "out")
  assert os.readlink(tmp_path / "out/feedback/bob/extra") == str(tmp_path / "secret")

def test_a_learner_folder_that_cannot_be_copied_is_an_error_row(shards, tmp_path):
  os.mkfifo(shards[1] / "feedback/bob/pipe")                                 # copytree cannot copy a FIFO
  done = merge(shards, tmp_path / "out")
  assert done["errors"] == ["bob", "cyd"] and list((tmp_path / "out/feedback/bob").iterdir()) == []
  assert "bob,,0,0,grader_error,no readable report.json (was this learner graded?),0,0,0," in text(tmp_path / "out/gradebook.csv")

@pytest.mark.parametrize("case, message", [
  ("missing", "nowhere: no such folder"), ("output", "the output folder cannot be one of the shards"),
  ("not grading", "not a grading folder (no gradebook.csv, no feedback/)"), ("twice", "learner bob is in two shards"),
  ("empty", "the shards hold no learner (an empty class)"), ("prints", "graded against different versions of the course or the grader"),
  ("mixed", "some shards are regrades (with changes.json) and some are not")])
def test_what_cannot_be_merged_is_refused_before_anything_is_written(shards, tmp_path, case, message):
  out = tmp_path / "out"
  if case == "missing": shards.append(tmp_path / "nowhere")
  if case == "output": out = shards[0]
  if case == "not grading": (tmp_path / "plain").mkdir(); shards.append(tmp_path / "plain")
  if case == "twice": learner(tmp_path / "shard3", "bob", BOB); shards.append(tmp_path / "shard3")
  if case == "empty":
    for s in shards: shutil.rmtree(s / "feedback"); (s / "feedback").mkdir()
  if case == "prints": (shards[0] / "fingerprints.json").write_text('{"modules": {}}')
  if case == "mixed": (shards[1] / "changes.json").write_text('{"rows": []}')
  with pytest.raises(GradebookError) as e: merge(shards, out)
  assert message in str(e.value)
  assert not (tmp_path / "out").exists() and not (shards[0] / "gradebook.csv").exists()

def test_a_learner_folder_named_outside_utf8_is_a_row_not_the_end(shards, tmp_path):
  learner(shards[1], os.fsdecode(b"caf\xe9"), BOB)
  merge(shards, tmp_path / "out")
  with open(tmp_path / "out/gradebook.csv", newline="", encoding="utf-8") as f: rows = list(csv.DictReader(f))
  assert [r["learner"] for r in rows] == ["ada", "ada", "bob", "bob", "caf\\xe9", "caf\\xe9", "cyd"]      # the bytes shown as \xNN
  assert [r["flags"].endswith(NAME_NOTE) for r in rows] == [False] * 4 + [True] * 2 + [False]
