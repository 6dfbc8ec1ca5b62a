"""`autograder merge DIR [DIR ...] --out DIR`: the gradebooks of shards (each a `grade-all --shard K/N` folder) as one.
Each learner's folder (report, feedback, fetch record) is copied as it is, and the gradebook is rebuilt from them with
the late policy and the overrides (autograder/classroom/gradebook.py): the files and totals of an unsharded run of the class.
Only the wall-clock `seconds` of each module in report.json differ from an unsharded run (as they do between any two
runs); no gradebook column holds a time. What the shards were graded against (fingerprints.json) must be the same on
every shard and is kept; the changes of a sharded regrade (changes.json of each shard) are joined into those of the
whole class (autograder/classroom/changes.py)."""
from __future__ import annotations
import shutil
from pathlib import Path
from autograder.classroom import changes, fingerprints
from autograder.classroom.gradebook import GradebookError, rebuild
from autograder.classroom.late import Policy

def merge(dirs:list[Path], out:Path, policy:Policy=Policy(), overrides:list[dict]=()) -> dict:
  out = Path(out)
  owner = {}
  for d in map(Path, dirs):
    if not d.is_dir(): raise GradebookError(f"{d}: no such folder")
    if d.resolve() == out.resolve(): raise GradebookError(f"{d}: the output folder cannot be one of the shards")
    if not (d / "feedback").is_dir() and not (d / "gradebook.csv").is_file(): raise GradebookError(f"{d}: not a grading folder (no gradebook.csv, no feedback/)")
    for learner in sorted(p for p in (d / "feedback").iterdir() if p.is_dir()) if (d / "feedback").is_dir() else []:
      if learner.name in owner: raise GradebookError(f"learner {learner.name} is in two shards: {owner[learner.name]} and {d}")
      owner[learner.name] = d
  if not owner: raise GradebookError("the shards hold no learner (an empty class)")
  prints = [fingerprints.read(d) for d in map(Path, dirs)]
  if any(p != prints[0] for p in prints): raise GradebookError("the shards were graded against different versions of the course or the grader (their fingerprints.json differ)")
  found = [changes.load(d) for d in map(Path, dirs)]
  if any((c is None) != (found[0] is None) for c in found): raise GradebookError("some shards are regrades (with changes.json) and some are not: merge the shards of one run")
  (out / "feedback").mkdir(parents=True, exist_ok=True)
  for name, d in sorted(owner.items()):
    target = out / "feedback" / name
    if target.exists(): shutil.rmtree(target, ignore_errors=True)
    try: shutil.copytree(d / "feedback" / name, target, symlinks=True)
    except (OSError, shutil.Error):                        # the gradebook shows this learner as an error row
      shutil.rmtree(target, ignore_errors=True); target.mkdir(parents=True, exist_ok=True)
  built = rebuild(out, sorted(owner), policy, overrides)
  if prints[0] is not None: fingerprints.write(out, prints[0])
  if found[0] is not None: changes.write(out, changes.join(found))
  return {"learners": len(owner), "shards": len(dirs), "changes": any(c is not None for c in found), **built}
