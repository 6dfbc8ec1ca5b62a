"""`autograder fetch ROSTER SUBMISSIONS`: each learner's repository at the commit to grade, one folder per learner,
ready for `grade-all`; `autograder snapshot ROSTER SNAPSHOTS`: what each learner's server has on their ref now. The
roster is a CSV file with the columns learner, repository, ref and deadline (ISO 8601, e.g.
2026-12-01T23:59:00+01:00), and optionally:

  extension_days   days added to this learner's deadline (their due time; see autograder/classroom/late.py for the late policy)
  name             the learner's name as the LMS shows it (Canvas's Student column; default: learner)
  lms_id           the LMS's own user id (Canvas's ID column)
  sis_id           the institution's id (Canvas's SIS User ID, Moodle's ID number)
  sis_login        the login (Canvas's SIS Login ID)
  email            Moodle matches on it (or on the ID number)
  section          Canvas's Section column

`ref` names exactly one ref: `refs/heads/NAME` is the branch NAME, `refs/tags/NAME` the tag NAME. A bare `NAME` (a
roster written before this rule) is the branch or the tag of that name, whichever the repository has; where it has
both, the tag is taken (git's own order, and the protected tag an instructor advised) and the learner is flagged.
An exact ref is flagged too when the other kind of the same name exists: a branch pushed with a protected tag's name
never replaces the tag.

Lateness is decided by what the server had when, not by dates a learner sets: `snapshot` records, per learner, the
commit their ref points to on the server (`git ls-remote`, no clone) and the time it asked, in
SNAPSHOTS/snapshot-YYYYMMDDTHHMMSSZ.csv; the class workflow takes one on a schedule at the deadline and at the end of
the late window. `fetch --snapshots SNAPSHOTS` grades, per learner, the commit of their last snapshot taken by their due
time plus the window (SNAPSHOT_GRACE later at most: a scheduled run may start late), and judges lateness by the first
snapshot that held that commit (one taken within SNAPSHOT_GRACE after the due time counts as taken at it). Without
snapshots, `fetch` falls back to the committer date, which a learner sets at will (it says so).

Beside the folders, SUBMISSIONS/fetched.csv records what was taken: learner, commit, committed_at (the committer date,
in UTC, information only when snapshots decide), due (deadline plus extension), ref (the exact ref graded),
submitted_at (the time lateness is judged by), basis (`snapshot` or `committer date`), note (what to look at: both a
branch and a tag, a date that cannot be read, ...). A learner's problem (an unreachable repository, no such ref, a
commit gone from the server) is that learner's line, never the end of the command."""
from __future__ import annotations
import csv, re, shutil, subprocess
from datetime import datetime, timedelta, timezone
from pathlib import Path
from autograder.classroom.late import PolicyError, due, parse_time

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

SNAPSHOT_GRACE = timedelta(hours=1)   # how late a scheduled snapshot may start and still stand for the due time it was meant for
RECORD = ["learner", "commit", "committed_at", "due", "ref", "submitted_at", "basis", "note"]
SNAPSHOT = ["learner", "ref", "commit", "taken_at", "note"]

def _git(*args, cwd=None, timeout:float=600) -> str:
  return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True, timeout=timeout).stdout.strip()

def wanted_refs(ref:str) -> tuple[list[str], str]:
  """(the full refs a roster's `ref` may name, in the order taken when several exist; the short name). An exact ref
  names one; a bare name the tag, then the branch."""
  for kind in ("refs/heads/", "refs/tags/"):
    if ref.startswith(kind): return [ref], ref[len(kind):]
  return [f"refs/tags/{ref}", f"refs/heads/{ref}"], ref

def choose(found:dict[str, str], ref:str) -> tuple[str|None, str]:
  """(the full ref to take among `found` {full ref: commit}, a note) for a roster's `ref`; None when it is not there."""
  wanted, name = wanted_refs(ref)
  both = f"refs/heads/{name}" in found and f"refs/tags/{name}" in found
  chosen = next((w for w in wanted if w in found), None)
  if not both: return chosen, ""
  kind = "tag" if chosen and chosen.startswith("refs/tags/") else "branch"
  return chosen, f"both a branch and a tag named {name}: the {kind} was taken" + ("" if len(wanted) == 1 else
         f" (write refs/heads/{name} or refs/tags/{name} in the roster to say which)")

def remote_refs(repository:str, ref:str) -> dict[str, str]:
  """{full ref: commit} of the refs the roster's `ref` may name, as the server has them now (annotated tags peeled)."""
  _, name = wanted_refs(ref)
  lines = _git("ls-remote", "--", repository, f"refs/heads/{name}", f"refs/tags/{name}", f"refs/tags/{name}^{{}}", timeout=120).splitlines()
  got = {}
  for line in lines:
    commit, _, full = line.partition("\t")
    if full in (f"refs/heads/{name}", f"refs/tags/{name}") and full not in got: got[full] = commit
    elif full == f"refs/tags/{name}^{{}}": got[f"refs/tags/{name}"] = commit          # the commit an annotated tag points at
  return got

def _stamp(t:datetime) -> str: return t.astimezone(timezone.utc).isoformat(timespec="seconds")

def snapshot(roster:Path, folder:Path, log=print, jobs:int=8) -> Path:
  """Record what each learner's server has on their ref now: SNAPSHOTS/snapshot-<UTC time>.csv with learner, ref (the
  full ref), commit, taken_at (when the server answered, UTC) and note. A learner whose server cannot be asked gets an
  empty commit and the reason; the others are recorded all the same."""
  from concurrent.futures import ThreadPoolExecutor
  rows = read_roster(roster)
  def ask(r:dict) -> dict:
    out = {"learner": r["learner"], "ref": "", "commit": "", "taken_at": "", "note": ""}
    try:
      found = remote_refs(r["repository"], r["ref"])
      chosen, note = choose(found, r["ref"])
      out.update(ref=chosen or "", commit=found.get(chosen, "") if chosen else "", note=note if chosen else f"no branch or tag {r['ref']!r}")
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as e: out["note"] = f"not reachable: {_why(e)}"
    out["taken_at"] = _stamp(datetime.now(timezone.utc))           # when the server had answered: what it had by then
    return out
  with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool: taken = list(pool.map(ask, rows))
  folder = Path(folder); folder.mkdir(parents=True, exist_ok=True)
  path = folder / f"snapshot-{datetime.now(timezone.utc):%Y%m%dT%H%M%SZ}.csv"
  for n in range(2, 1000):
    if not path.exists(): break
    path = folder / f"snapshot-{datetime.now(timezone.utc):%Y%m%dT%H%M%SZ}-{n}.csv"
  with open(path, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=SNAPSHOT); w.writeheader(); w.writerows(taken)
  for t in taken: log(f"{t['learner']}: " + (f"{t['ref']} at {t['commit'][:12]}" if t["commit"] else "nothing") + (f" ({t['note']})" if t["note"] else ""))
  return path

def read_snapshots(folder:Path) -> dict[str, list[dict]]:
  """Every snapshot of a folder, per learner, oldest first ({"ref", "commit", "taken_at" (a datetime), "note"}); rows
  whose time cannot be read are left out."""
  out: dict[str, list[dict]] = {}
  paths = sorted(Path(folder).glob("snapshot-*.csv")) if Path(folder).is_dir() else []
  if not paths: raise PolicyError(f"{folder}: no snapshot-*.csv there (take them with `autograder snapshot ROSTER {folder}`)")
  for path in paths:
    with open(path, newline="") as f:
      for r in csv.DictReader(f):
        try: when = parse_time(r.get("taken_at") or "", str(path))
        except PolicyError: continue
        out.setdefault(r.get("learner") or "", []).append({"ref": r.get("ref") or "", "commit": r.get("commit") or "", "taken_at": when, "note": r.get("note") or ""})
  for v in out.values(): v.sort(key=lambda s: s["taken_at"])
  return out

def from_snapshots(taken:list[dict], due_time:datetime, cutoff:datetime) -> tuple[dict|None, str]:
  """(the snapshot to grade: the last one taken by `cutoff` (SNAPSHOT_GRACE later at most) that holds a commit, and the
  time lateness is judged by; or None and why)."""
  usable = [s for s in taken if s["commit"] and s["taken_at"] - SNAPSHOT_GRACE <= cutoff]
  if not usable: return None, "no snapshot before the cutoff holds a commit" + (f" ({taken[-1]['note']})" if taken and taken[-1]["note"] else "")
  last = usable[-1]
  first = min(s["taken_at"] for s in usable if s["commit"] == last["commit"] and s["ref"] == last["ref"])
  submitted = min(first, due_time) if first - SNAPSHOT_GRACE <= due_time else first
  return {**last, "submitted_at": submitted}, ""

def _utc(epoch:str) -> str:
  """A commit's committer time (git's %ct: seconds since 1970, whatever time zone the commit claims) in UTC; a
  ValueError when it is not a time (a time zone of +9959 is harmless here: git keeps it apart from the seconds)."""
  return _stamp(datetime.fromtimestamp(int(epoch), timezone.utc))

def _why(e:Exception) -> str:
  """git's reason, one line: its first `fatal:` line, else its last line."""
  if isinstance(e, subprocess.CalledProcessError) and e.stderr and e.stderr.strip():
    lines = e.stderr.strip().splitlines()
    return next((l for l in lines if l.startswith("fatal:")), lines[-1])[:200]
  return f"{type(e).__name__}"

def _commit(folder:Path, rev:str) -> str|None:
  done = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], cwd=folder, capture_output=True, text=True, timeout=60)
  return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else None

def fetch(roster:Path, submissions:Path, log=print, window_days:float=0, snapshots:Path|None=None) -> dict[str, str]:
  """Check each learner out at the commit to grade and record it in SUBMISSIONS/fetched.csv; returns {learner: commit
  or problem}. With `snapshots` (a folder of `snapshot` files): the commit of their last snapshot by their due time
  plus `window_days` (the late policy's window), late by the first snapshot that held it. Without: their last commit on
  the ref by committer date (which a learner sets). A learner who cannot be fetched gets an empty folder (graded as
  missing) and the reason; the others are fetched."""
  rows = read_roster(roster)
  dues = {r["learner"]: due(r["deadline"], r["extension_days"], f"{roster}: learner {r['learner']}") for r in rows}
  taken = read_snapshots(snapshots) if snapshots is not None else None
  if taken is None: log("note: no snapshots: commits are chosen, and lateness judged, by committer dates, which a learner can set "
                        "(take snapshots at the deadline: `autograder snapshot`)")
  submissions.mkdir(parents=True, exist_ok=True)
  out, record = {}, []
  for r in rows:
    learner, folder = r["learner"], submissions / r["learner"]
    if folder.exists(): shutil.rmtree(folder)
    notes = []
    try:
      due_time = dues[learner]
      cutoff = due_time + timedelta(days=window_days)
      if taken is not None:
        snap, why = from_snapshots(taken.get(learner, []), due_time, cutoff)
        if snap is None: raise RuntimeError(why)
      _git("clone", "--quiet", "--no-checkout", "--", r["repository"], str(folder))
      _, name = wanted_refs(r["ref"])
      here = {full: c for full, local in ((f"refs/heads/{name}", f"refs/remotes/origin/{name}"), (f"refs/tags/{name}", f"refs/tags/{name}"))
              if (c := _commit(folder, local))}
      if taken is not None:
        commit, ref, submitted, basis = snap["commit"], snap["ref"], snap["submitted_at"], "snapshot"
        notes += sorted({s["note"] for s in taken.get(learner, []) if s["note"] and s["commit"]})
        if _commit(folder, commit) is None:
          try: _git("fetch", "--quiet", "origin", commit, cwd=folder, timeout=300)
          except (subprocess.CalledProcessError, subprocess.TimeoutExpired): pass
          if _commit(folder, commit) is None: raise RuntimeError(f"the snapshot's commit {commit[:12]} is no longer on the server (a forced push?)")
      else:
        ref, note = choose(here, r["ref"])
        if ref is None: raise RuntimeError(f"no branch or tag {r['ref']!r}")
        if note: notes.append(note)
        local = f"refs/remotes/origin/{name}" if ref.startswith("refs/heads/") else ref
        commit = _git("rev-list", "-1", f"--before={cutoff.isoformat()}", local, cwd=folder)
        if not commit: raise RuntimeError(f"no commit on {r['ref']} before {cutoff.isoformat()}")
        submitted, basis = None, "committer date"
      try: committed_at = _utc(_git("show", "-s", "--format=%ct", commit, cwd=folder))
      except (ValueError, OverflowError, OSError):
        committed_at = ""
        notes.append(f"its committer date cannot be read ({_git('show', '-s', '--format=%cD', commit, cwd=folder)[:60]!r})")
      record.append({"learner": learner, "commit": commit, "committed_at": committed_at, "due": due_time.isoformat(), "ref": ref,
                     "submitted_at": _stamp(submitted) if submitted else committed_at, "basis": basis, "note": "; ".join(notes)})
      _git("-c", "advice.detachedHead=false", "checkout", "--quiet", "--detach", commit, cwd=folder)
      shutil.rmtree(folder / ".git")                       # the grader needs the files only
      out[learner] = commit
      log(f"{learner}: {commit[:12]} ({ref}, {basis})" + (f"; note: {'; '.join(notes)}" if notes else ""))
    except (subprocess.CalledProcessError, RuntimeError, subprocess.TimeoutExpired, OSError) as e:
      why = _why(e) if not isinstance(e, RuntimeError) else str(e)
      out[learner] = f"not fetched: {why}"
      log(f"{learner}: not fetched: {why}")
      shutil.rmtree(folder, ignore_errors=True)
      folder.mkdir()                                       # an empty folder: the gradebook shows the learner as missing
  with open(submissions / FETCHED, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=RECORD)
    w.writeheader(); w.writerows(record)
  return out
