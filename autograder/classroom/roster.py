"""`autograder fetch ROSTER SUBMISSIONS`: each learner's repository at their last commit before the deadline, one
folder per learner, ready for `grade-all`. The roster is a CSV file with the columns learner, repository, ref (a
branch or tag) and deadline (ISO 8601, e.g. 2026-12-01T23:59:00+01:00), and optionally:

  extension_days   days added to this learner's deadline (their due time; see autograder/classroom/late.py for the late policy)
  name             the learner's name as the LMS shows it (Canvas's Student column; default: learner)
  lms_id           the LMS's own user id (Canvas's ID column)
  sis_id           the institution's id (Canvas's SIS User ID, Moodle's ID number)
  sis_login        the login (Canvas's SIS Login ID)
  email            Moodle matches on it (or on the ID number)
  section          Canvas's Section column

Beside the folders, SUBMISSIONS/fetched.csv records what was taken: learner, commit, committed_at (the committer
date), due (deadline plus extension).

The commit is chosen by its committer date, which a learner can set at will: for a deadline that must hold, run the
class workflow on a schedule at the deadline (what was pushed by then is what is graded), or protect a tag."""
from __future__ import annotations
import csv, re, shutil, subprocess
from pathlib import Path
from autograder.classroom.late import due

FIELDS = ("learner", "repository", "ref", "deadline")
OPTIONAL = ("extension_days", "name", "lms_id", "sis_id", "sis_login", "email", "section")
FETCHED = "fetched.csv"

def read_roster(path:Path, needed:tuple[str, ...]=FIELDS) -> list[dict]:
  """The roster's rows (optional columns filled with ""); a ValueError saying what is wrong otherwise."""
  if not Path(path).is_file(): raise ValueError(f"{path}: no roster file there")
  with open(path, newline="", encoding="utf-8-sig") as f:
    reader = csv.DictReader(f)
    header = reader.fieldnames or []
    rows = list(reader)
  missing = [k for k in needed if k not in header]
  if missing: raise ValueError(f"{path}: the roster needs the columns {', '.join(needed)}; missing {', '.join(missing)}")
  if not rows: raise ValueError(f"{path}: the roster lists no learner")
  seen = set()
  for i, r in enumerate(rows, 2):
    if None in r or any(v is None for v in r.values()): raise ValueError(f"{path}, line {i}: {len(header)} columns expected")
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}", r["learner"] or ""):
      raise ValueError(f"{path}: learner {r['learner']!r} must be letters, digits, '.', '_' or '-' (it names a folder)")
    if r["learner"] in seen: raise ValueError(f"{path}, line {i}: learner {r['learner']} is listed twice")
    seen.add(r["learner"])
    for k in OPTIONAL: r.setdefault(k, "")
  return rows

def _git(*args, cwd=None) -> str:
  return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True, timeout=600).stdout.strip()

def fetch(roster:Path, submissions:Path, log=print, window_days:float=0) -> dict[str, str]:
  """Check each learner out at their last commit on `ref` before their due time (deadline plus extension) plus
  `window_days` (the late policy's window); returns {learner: commit or problem}. Records SUBMISSIONS/fetched.csv."""
  from datetime import timedelta
  rows = read_roster(roster)
  dues = {r["learner"]: due(r["deadline"], r["extension_days"], f"{roster}: learner {r['learner']}") for r in rows}
  submissions.mkdir(parents=True, exist_ok=True)
  out, record = {}, []
  for r in rows:
    folder = submissions / r["learner"]
    if folder.exists(): shutil.rmtree(folder)
    try:
      _git("clone", "--quiet", "--no-checkout", "--", r["repository"], str(folder))
      ref = next((c for c in (f"refs/remotes/origin/{r['ref']}", f"refs/tags/{r['ref']}") if subprocess.run(
                  ["git", "rev-parse", "--verify", "--quiet", c], cwd=folder, capture_output=True).returncode == 0), None)
      if ref is None: raise RuntimeError(f"no branch or tag {r['ref']!r}")
      cutoff = dues[r["learner"]] + timedelta(days=window_days)
      commit = _git("rev-list", "-1", f"--before={cutoff.isoformat()}", ref, cwd=folder)
      if not commit: raise RuntimeError(f"no commit on {r['ref']} before {cutoff.isoformat()}")
      record.append({"learner": r["learner"], "commit": commit, "committed_at": _git("show", "-s", "--format=%cI", commit, cwd=folder),
                     "due": dues[r["learner"]].isoformat()})
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
  with open(submissions / FETCHED, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=["learner", "commit", "committed_at", "due"])
    w.writeheader(); w.writerows(record)
  return out
