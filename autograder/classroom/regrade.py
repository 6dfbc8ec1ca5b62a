"""`autograder regrade GRADEBOOK_DIR SUBMISSIONS --out NEW_DIR`: the class graded again against the current
solutions/, into a new grading folder, with what changed beside it (changes.csv, changes.md, changes.json: see
autograder/classroom/changes.py). The earlier folder is only read.

It is `grade-all` (the same options, the late policy and the overrides applied as now, shards joined by `merge`),
started from the earlier folder's learners: a learner whose submission and course are unchanged since that grading
keeps their report (grade-all's resume), every other one is graded again. With `--shard K/N` the changes cover the
learners of that shard, and `merge` joins the shards' changes with their gradebooks."""
from __future__ import annotations
import shutil
from pathlib import Path
from autograder.classroom import changes
from autograder.classroom.grade_all import grade_all, learners
from autograder.classroom.gradebook import GradebookError
from autograder.classroom.late import Policy
from autograder.classroom.shard import shard_of
from autograder.core.module import Module

def regrade(old:Path, submissions:Path, out:Path, modules:list[Module], jobs:int=2, timeout:float=3600, log=print,
            shard:tuple[int, int]|None=None, policy:Policy=Policy(), overrides:list[dict]=()) -> dict:
  """Grade `submissions` into `out` and compare with the grading folder `old`; returns grade_all's counts and
  "changes" (the data of changes.json)."""
  old, out = Path(old), Path(out)
  if not (old / "gradebook.csv").is_file(): raise GradebookError(f"{old}: no gradebook.csv there (the earlier grading folder to compare with)")
  if out.resolve() == old.resolve(): raise GradebookError(f"{out}: the new grading folder must not be the earlier one (it is what the regrade compares with)")
  if not Path(submissions).is_dir(): raise GradebookError(f"{submissions}: no such folder")
  mine = lambda name: shard is None or shard_of(name, shard[1]) == shard[0]
  for learner in learners(submissions):          # the earlier reports: kept where neither the submission nor the course changed
    before, target = old / "feedback" / learner.name, out / "feedback" / learner.name
    if mine(learner.name) and (before / "report.json").is_file() and not before.is_symlink() and not target.exists():
      shutil.copytree(before, target, symlinks=True)
  done = grade_all(submissions, out, modules, jobs=jobs, timeout=timeout, log=log, shard=shard, policy=policy, overrides=overrides)
  found = changes.compare(old, out, mine)
  changes.write(out, found)
  return {**done, "changes": found}
