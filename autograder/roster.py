"""`autograder fetch ROSTER SUBMISSIONS`: each learner's repository at their last commit before the deadline, one
folder per learner, ready for `grade-all`. The roster is a CSV file with the columns learner, repository, ref (a
branch or tag) and deadline (ISO 8601, e.g. 2026-12-01T23:59:00+01:00).

The commit is chosen by its committer date, which a learner can set at will: for a deadline that must hold, run the
class workflow on a schedule at the deadline (what was pushed by then is what is graded), or protect a tag."""
from __future__ import annotations
import csv, re, shutil, subprocess
from pathlib import Path

FIELDS = ("learner", "repository", "ref", "deadline")

def read_roster(path:Path) -> list[dict]:
  with open(path, newline="") as f:
    rows = list(csv.DictReader(f))
  missing = [k for k in FIELDS if rows and k not in rows[0]]
  if missing: raise ValueError(f"{path}: the roster needs the columns {', '.join(FIELDS)}; missing {', '.join(missing)}")
  for r in rows:
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}", r["learner"] or ""):
      raise ValueError(f"{path}: learner {r['learner']!r} must be letters, digits, '.', '_' or '-' (it names a folder)")
  return rows

def _git(*args, cwd=None) -> str:
  return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True, timeout=600).stdout.strip()

def fetch(roster:Path, submissions:Path, log=print) -> dict[str, str]:
  """Check each learner out at their last commit on `ref` before `deadline`; returns {learner: commit or problem}."""
  submissions.mkdir(parents=True, exist_ok=True)
  out = {}
  for r in read_roster(roster):
    folder = submissions / r["learner"]
    if folder.exists(): shutil.rmtree(folder)
    try:
      _git("clone", "--quiet", "--no-checkout", "--", r["repository"], str(folder))
      ref = next((c for c in (f"refs/remotes/origin/{r['ref']}", f"refs/tags/{r['ref']}") if subprocess.run(
                  ["git", "rev-parse", "--verify", "--quiet", c], cwd=folder, capture_output=True).returncode == 0), None)
      if ref is None: raise RuntimeError(f"no branch or tag {r['ref']!r}")
      commit = _git("rev-list", "-1", f"--before={r['deadline']}", ref, cwd=folder)
      if not commit: raise RuntimeError(f"no commit on {r['ref']} before {r['deadline']}")
      _git("-c", "advice.detachedHead=false", "checkout", "--quiet", "--detach", commit, cwd=folder)
      shutil.rmtree(folder / ".git")                       # the grader needs the files only
      out[r["learner"]] = commit
      log(f"{r['learner']}: {commit[:12]}")
    except (subprocess.CalledProcessError, RuntimeError, subprocess.TimeoutExpired) as e:
      why = e.stderr.strip().splitlines()[-1] if isinstance(e, subprocess.CalledProcessError) and e.stderr.strip() else str(e)
      out[r["learner"]] = f"not fetched: {why}"
      log(f"{r['learner']}: not fetched: {why}")
      shutil.rmtree(folder, ignore_errors=True)
      folder.mkdir()                                       # an empty folder: the gradebook shows the learner as missing
  return out
