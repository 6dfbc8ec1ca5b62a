"""Grading a class: one folder per learner (a checkout of their repository), graded in parallel, each learner in a
process of its own (one learner's crash, timeout or garbage cannot touch another's result), with a progress bar and
an ETA. Writes a gradebook (CSV and JSON, see autograder/classroom/gradebook.py) and each learner's report and feedback. A
learner whose submission has not changed since it was graded is not graded again: an interrupted run resumes where
it stopped. With a shard K/N, only the learners of that shard (autograder/classroom/shard.py); `autograder merge` joins them.
It also writes what the class was graded against (fingerprints.json: hashes and counts, autograder/classroom/fingerprints.py)."""
from __future__ import annotations
import csv, hashlib, json, os, signal, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from autograder.grading import feedback
from autograder.core.assemble import read_submission
from autograder.core.files import shown
from autograder.core.module import Module
from autograder.core.report import md
from autograder.core.results import ModuleStatus, Report, read_report, write_json
from autograder.core.runs import module_key, reference
from autograder.classroom import fingerprints
from autograder.classroom.gradebook import GradebookError, rebuild
from autograder.classroom.late import Policy
from autograder.classroom.roster import FETCHED
from autograder.classroom.shard import shard_of

STAMP = "submission.sha256"

def learners(root:Path) -> list[Path]:
  return sorted(p for p in Path(root).iterdir() if p.is_dir() and not p.name.startswith(".")) if Path(root).is_dir() else []

def submission_root(learner:Path) -> Path:
  """A learner's checkout holds the notebooks in projects/; a bare folder of modules is taken as it is."""
  return learner / "projects" if (learner / "projects").is_dir() and not (learner / "projects").is_symlink() else learner

def fingerprint(folder:Path, modules:list[Module], source_key:str) -> str:
  """What a grade depends on: what grading reads of each module of the learner's folder (assemble.read_submission, the
  one reading: a file grading does not read changes nothing, one it reads changes the fingerprint whatever its size,
  name or number of neighbours) and the course (`source_key`)."""
  h = hashlib.sha256(source_key.encode())
  for module in modules: h.update(f"{module.name}:{read_submission(module, folder).digest()};".encode())
  return h.hexdigest()

def _grade_one(learner:Path, out:Path, modules:list[Module], timeout:float, running:dict) -> Report:
  report = out / "report.json"
  cmd = [sys.executable, "-m", "autograder.cli", "grade", str(submission_root(learner)), "--source", str(modules[0].solutions), "--json", str(report),
         "--quiet", "--modules", *[m.name for m in modules]]
  out.mkdir(parents=True, exist_ok=True)
  report.unlink(missing_ok=True)                          # a report left by an earlier run must not stand for this one
  proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
  running[learner.name] = proc
  late = False
  try: proc.wait(timeout=timeout)
  except subprocess.TimeoutExpired: late = True
  finally:
    try: os.killpg(proc.pid, signal.SIGKILL)
    except OSError: pass
    try: proc.wait(timeout=60)                             # reaped: its exit code is known, no zombie is left
    except subprocess.TimeoutExpired: pass
    running.pop(learner.name, None)
  try: return read_report(report)
  except (OSError, ValueError):
    return Report(error=f"grading {shown(learner.name)} did not finish (exit code {proc.returncode}" + (f": stopped at its {timeout:g} s limit" if late else "") + ")")

FETCH_KEYS = ("commit", "committed_at", "due", "ref", "submitted_at", "basis", "note")

def _fetched(submissions:Path) -> dict[str, dict]:
  """What fetch recorded per learner (commit, committed_at, due), if it ran."""
  path = Path(submissions) / FETCHED
  if not path.is_file(): return {}
  with open(path, newline="") as f: return {r["learner"]: r for r in csv.DictReader(f)}

def grade_all(submissions:Path, out:Path, modules:list[Module], jobs:int=2, timeout:float=3600, log=print,
              shard:tuple[int, int]|None=None, reference_only:bool=False, policy:Policy=Policy(), overrides:list[dict]=()) -> dict:
  """Grade `modules` of every learner folder of `submissions` (those of shard K/N only, with `shard`) into `out`; returns
  {"graded", "skipped", "learners", "seconds", "unused_overrides"}. `reference_only`: compute the reference runs and stop."""
  from tqdm import tqdm
  if not Path(submissions).is_dir(): raise GradebookError(f"{submissions}: no such folder")
  everyone = learners(submissions)
  if not everyone and not reference_only: raise GradebookError(f"{submissions}: no learner folder in it (an empty class)")
  mine = [l for l in everyone if shard is None or shard_of(l.name, shard[1]) == shard[0]]
  if not modules: raise GradebookError("no module to grade")
  refs = {m.name: reference(m) for m in tqdm(modules, desc="reference runs", unit="module", file=sys.stderr, disable=None)}
  if reference_only: return {"graded": 0, "skipped": 0, "learners": 0, "seconds": 0.0, "unused_overrides": [], "errors": []}
  out.mkdir(parents=True, exist_ok=True)
  fingerprints.write(out, fingerprints.fingerprints(modules, refs))       # what this grading was against, for a regrade's reasons
  source_key = "".join(module_key(m) for m in modules)
  fetched = _fetched(submissions)
  todo, skipped = [], 0
  for learner in mine:
    folder = out / "feedback" / learner.name
    folder.mkdir(parents=True, exist_ok=True)
    record = folder / "fetched.json"
    if learner.name in fetched: record.write_text(json.dumps({k: fetched[learner.name][k] for k in FETCH_KEYS if fetched[learner.name].get(k)}) + "\n")
    elif record.exists(): record.unlink()
    try: stamp = fingerprint(submission_root(learner), modules, source_key)
    except Exception: stamp = None                         # (graded, never kept: the child's report says what went wrong)
    done = folder / STAMP
    if stamp is not None and done.is_file() and done.read_text() == stamp and (folder / "report.json").is_file(): skipped += 1
    else: todo.append((learner, folder, stamp))
  names = [l.name for l in mine]
  finished = {l.name for l in mine} - {l.name for l, _, _ in todo}
  running, start, graded = {}, time.monotonic(), 0
  bar = tqdm(total=len(todo), desc="grading", unit="learner", file=sys.stderr, disable=None)
  pool = ThreadPoolExecutor(max_workers=max(1, jobs))
  try:
    futures = {pool.submit(_grade_one, learner, folder, modules, timeout, running): (learner, folder, stamp) for learner, folder, stamp in todo}
    for fut in as_completed(futures):
      learner, folder, stamp = futures[fut]
      try: report = fut.result()
      except Exception as e: report = Report(error=f"grading {shown(learner.name)} failed in grade-all ({type(e).__name__})")
      if report.error: write_json(folder / "report.json", report)     # the gradebook shows it
      feedback.write(report, folder, shown(learner.name))
      if not report.error and stamp is not None: (folder / STAMP).write_text(stamp)
      elif (folder / STAMP).exists(): (folder / STAMP).unlink()
      finished.add(learner.name); graded += 1
      bar.set_postfix_str(f"{shown(learner.name)}: {report.score:g}/{report.max_score:g}"); bar.update()
  except KeyboardInterrupt:
    for proc in list(running.values()):
      try: os.killpg(proc.pid, signal.SIGKILL)
      except OSError: pass
    pool.shutdown(wait=False, cancel_futures=True)
    rebuild(out, sorted(finished), policy, overrides)
    log(f"interrupted: {graded} graded now, {skipped} kept from before; run again to resume")
    raise
  finally:
    bar.close()
    pool.shutdown(wait=True)
  built = rebuild(out, names, policy, overrides)
  return {"graded": graded, "skipped": skipped, "learners": len(names), "seconds": round(time.monotonic() - start, 1),
          "unused_overrides": built["unused_overrides"], "errors": built["errors"]}

def summary(out:Path) -> str:
  """The gradebook as a Markdown table, a learner per row and a module per column."""
  rows = json.loads((out / "gradebook.json").read_text())
  modules = sorted({r["module"] for r in rows if r["module"]})
  table = {}
  for r in rows: table.setdefault(r["learner"], {})[r["module"]] = r
  mark = lambda r: ("" if r["status"] == ModuleStatus.GRADED else f" ({r['status']})") + (" ⚑" if r["flags"] else "")
  cell = lambda r: "" if r is None else f"{r['score']:g}/{r['max_score']:g}" + mark(r)
  lines = ["| learner | " + " | ".join(modules) + " | total |", "|---" * (len(modules) + 2) + "|"]
  for name, mods in sorted(table.items()):
    total = sum(r["score"] for r in mods.values()), sum(r["max_score"] for r in mods.values())
    whole = mark(mods[""]) if "" in mods else ""            # a learner whose grading did not finish: the row says so
    lines.append(f"| {md(name)} | " + " | ".join(cell(mods.get(m)) for m in modules) + f" | {total[0]:g}/{total[1]:g}{whole} |")
  return "\n".join(lines + ["", "⚑: flags for review (see gradebook.csv); they do not change the score.", ""])
