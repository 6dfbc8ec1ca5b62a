"""`autograder fetch`: each learner's last commit before their due time (plus the late policy's window), and what
was taken recorded in fetched.csv."""
import csv, os
import subprocess
import pytest
from autograder.classroom.late import days_late, parse_time
from autograder.classroom.roster import fetch, snapshot

def _repo(tmp_path, name, commits):
  """A bare repository whose `main` has a commit per (date, content of projects/01_x/answer.txt)."""
  work, bare = tmp_path / f"{name}-work", tmp_path / f"{name}.git"
  subprocess.run(["git", "init", "-q", "-b", "main", str(work)], check=True)
  for date, content in commits:
    (work / "projects" / "01_x").mkdir(parents=True, exist_ok=True)
    (work / "projects" / "01_x" / "answer.txt").write_text(content)
    env = {**os.environ, "GIT_COMMITTER_DATE": date, "GIT_AUTHOR_DATE": date}
    subprocess.run(["git", "add", "-A"], cwd=work, check=True)
    subprocess.run(["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", content], cwd=work, check=True, env=env)
  subprocess.run(["git", "clone", "-q", "--bare", str(work), str(bare)], check=True)
  return bare

def test_fetch_takes_the_last_commit_before_the_deadline(tmp_path):
  ada = _repo(tmp_path, "ada", [("2026-11-20T10:00:00+00:00", "early"), ("2026-11-30T10:00:00+00:00", "on time"), ("2026-12-03T10:00:00+00:00", "late")])
  bob = _repo(tmp_path, "bob", [("2026-12-05T10:00:00+00:00", "only late")])
  roster = tmp_path / "roster.csv"
  roster.write_text(f"learner,repository,ref,deadline\nada,{ada},main,2026-12-01T23:59:00+00:00\nbob,{bob},main,2026-12-01T23:59:00+00:00\n"
                    f"cyd,{tmp_path / 'nowhere.git'},main,2026-12-01T23:59:00+00:00\n")
  got = fetch(roster, tmp_path / "submissions", log=lambda *a: None)
  assert (tmp_path / "submissions/ada/projects/01_x/answer.txt").read_text() == "on time"
  assert not (tmp_path / "submissions/ada/.git").exists()
  assert got["bob"].startswith("not fetched") and got["cyd"].startswith("not fetched")
  assert (tmp_path / "submissions/bob").is_dir() and not any((tmp_path / "submissions/bob").iterdir())   # graded as missing
  with pytest.raises(ValueError, match="letters, digits"):
    bad = tmp_path / "bad.csv"; bad.write_text("learner,repository,ref,deadline\n../x,r,main,2026-01-01\n"); fetch(bad, tmp_path / "s2")
def test_fetch_records_commit_times_within_the_late_window(tmp_path):
  ada = _repo(tmp_path, "ada", [("2026-11-30T10:00:00+00:00", "on time"), ("2026-12-03T10:00:00+00:00", "two days late"), ("2026-12-09T10:00:00+00:00", "too late")])
  bob = _repo(tmp_path, "bob", [("2026-11-30T10:00:00+00:00", "first"), ("2026-12-05T10:00:00+00:00", "within the extension")])
  roster = tmp_path / "roster.csv"
  roster.write_text(f"learner,repository,ref,deadline,extension_days\nada,{ada},main,2026-12-01T23:59:00+00:00,\nbob,{bob},main,2026-12-01T23:59:00+00:00,4\n")
  fetch(roster, tmp_path / "subs", log=lambda *a: None, window_days=3)
  assert (tmp_path / "subs/ada/projects/01_x/answer.txt").read_text() == "two days late"
  assert (tmp_path / "subs/bob/projects/01_x/answer.txt").read_text() == "within the extension"
  rec = {r["learner"]: r for r in csv.DictReader(open(tmp_path / "subs/fetched.csv"))}
  assert rec["ada"]["committed_at"].startswith("2026-12-03T10:00:00") and rec["bob"]["due"] == "2026-12-05T23:59:00+00:00"
  assert days_late(parse_time(rec["ada"]["committed_at"], ""), parse_time(rec["ada"]["due"], "")) == 2
  assert days_late(parse_time(rec["bob"]["committed_at"], ""), parse_time(rec["bob"]["due"], "")) == 0
  fetch(roster, tmp_path / "strict", log=lambda *a: None)                        # no policy: nothing after the due time
  assert (tmp_path / "strict/ada/projects/01_x/answer.txt").read_text() == "on time"

class Repo:
  """A learner's server (a bare repository) and their working copy, to commit and push to."""
  def __init__(self, tmp_path, name):
    self.work, self.bare = tmp_path / f"{name}-work", tmp_path / f"{name}.git"
    subprocess.run(["git", "init", "-q", "--bare", str(self.bare)], check=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(self.work)], check=True)
  def git(self, *args, env=None):
    return subprocess.run(["git", "-c", "user.email=t@t", "-c", "user.name=t", *args], cwd=self.work, check=True, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}).stdout.strip()
  def commit(self, content, date, branch="main"):
    (self.work / "projects" / "01_x").mkdir(parents=True, exist_ok=True)
    (self.work / "projects" / "01_x" / "answer.txt").write_text(content)
    self.git("add", "-A")
    self.git("commit", "-qm", content, env={"GIT_COMMITTER_DATE": date, "GIT_AUTHOR_DATE": date})
    return self.git("rev-parse", "HEAD")
  def push(self, *refs): self.git("push", "-q", "--force", str(self.bare), *refs)

def answer(subs, name): return (subs / name / "projects" / "01_x" / "answer.txt").read_text()

def test_the_roster_names_a_branch_or_a_tag_exactly(tmp_path):
  """Issue 33, finding 1: `fetch` tried refs/remotes/origin/<ref> before refs/tags/<ref>, so a branch named like the
  protected tag, pushed after the deadline, was graded (0/46 -> 46/46). Now `refs/tags/NAME` and `refs/heads/NAME` are
  exact, a bare name takes the tag when both exist, and both existing is flagged."""
  ada = Repo(tmp_path, "ada")
  ada.commit("tagged", "2026-11-30T10:00:00+00:00"); ada.git("tag", "final"); ada.push("main", "refs/tags/final")
  ada.git("checkout", "-q", "-b", "final")
  ada.commit("pushed after the deadline, backdated", "2026-11-30T11:00:00+00:00"); ada.push("refs/heads/final")
  roster = tmp_path / "roster.csv"
  for ref, want, flagged in (("final", "tagged", "the tag was taken"), ("refs/tags/final", "tagged", "the tag was taken"),
                             ("refs/heads/final", "pushed after the deadline, backdated", "the branch was taken"), ("main", "tagged", "")):
    roster.write_text(f"learner,repository,ref,deadline\nada,{ada.bare},{ref},2026-12-01T23:59:00+00:00\n")
    got = fetch(roster, tmp_path / "subs", log=lambda *a: None)
    assert answer(tmp_path / "subs", "ada") == want, (ref, got)
    rec = next(csv.DictReader(open(tmp_path / "subs/fetched.csv")))
    assert rec["ref"] == ("refs/heads/main" if ref == "main" else "refs/heads/final" if ref == "refs/heads/final" else "refs/tags/final")
    assert (flagged in rec["note"] and "both a branch and a tag named final" in rec["note"]) if flagged else rec["note"] == "", rec
  roster.write_text(f"learner,repository,ref,deadline\nada,{ada.bare},refs/tags/nothing,2026-12-01T23:59:00+00:00\n")
  assert fetch(roster, tmp_path / "subs", log=lambda *a: None)["ada"] == "not fetched: no branch or tag 'refs/tags/nothing'"

def _shift(path, when):
  """Date a snapshot file as if it had been taken at `when` (the test cannot wait for the deadline)."""
  rows = list(csv.DictReader(open(path)))
  for r in rows: r["taken_at"] = when
  with open(path, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0])); w.writeheader(); w.writerows(rows)
  path.rename(path.with_name(f"snapshot-{when[:19].replace('-', '').replace(':', '')}Z.csv"))

def test_lateness_is_what_the_server_had_when(tmp_path):
  """Issue 33, finding 2: a commit made after the late window with a committer date before the deadline was fetched
  and counted on time (36.8/46 honest-late -> 46/46). With snapshots taken at the deadline and at the end of the late
  window, what is graded and how late it is follow what the server had then; the committer date is information."""
  from autograder.cli import main
  ada, bob = Repo(tmp_path, "ada"), Repo(tmp_path, "bob")
  ada.commit("on time", "2026-11-30T10:00:00+00:00"); ada.push("main")
  bob.commit("bob on time", "2026-11-30T10:00:00+00:00"); bob.push("main")
  roster = tmp_path / "roster.csv"
  roster.write_text(f"learner,repository,ref,deadline\nada,{ada.bare},main,2026-12-01T23:59:00+00:00\nbob,{bob.bare},main,2026-12-01T23:59:00+00:00\n"
                    f"cyd,{tmp_path / 'nowhere.git'},main,2026-12-01T23:59:00+00:00\n")
  snaps = tmp_path / "snapshots"
  assert main(["snapshot", str(roster), str(snaps)]) == 0
  _shift(next(snaps.glob("snapshot-*.csv")), "2026-12-02T00:20:00+00:00")   # the scheduled run at the deadline started 21 minutes late
  ada.commit("after the window, backdated", "2026-11-30T12:00:00+00:00"); ada.push("main")
  _shift(snapshot(roster, snaps, log=lambda *a: None), "2026-12-04T23:59:00+00:00")   # the end of a 3-day window
  first = next(csv.DictReader(open(sorted(snaps.glob("snapshot-*.csv"))[0])))
  assert first["learner"] == "ada" and first["ref"] == "refs/heads/main" and len(first["commit"]) == 40
  cyd = [r for r in csv.DictReader(open(sorted(snaps.glob("snapshot-*.csv"))[0])) if r["learner"] == "cyd"][0]
  assert cyd["commit"] == "" and cyd["note"].startswith("not reachable")
  got = fetch(roster, tmp_path / "subs", log=lambda *a: None, window_days=3, snapshots=snaps)
  assert answer(tmp_path / "subs", "ada") == "after the window, backdated" and answer(tmp_path / "subs", "bob") == "bob on time"
  assert got["cyd"].startswith("not fetched: no snapshot")
  rec = {r["learner"]: r for r in csv.DictReader(open(tmp_path / "subs/fetched.csv"))}
  assert rec["ada"]["basis"] == "snapshot" and rec["ada"]["committed_at"] == "2026-11-30T12:00:00+00:00"      # information only
  assert days_late(parse_time(rec["ada"]["submitted_at"], ""), parse_time(rec["ada"]["due"], "")) == 3
  assert days_late(parse_time(rec["bob"]["submitted_at"], ""), parse_time(rec["bob"]["due"], "")) == 0        # the late run stood for the deadline
  fetch(roster, tmp_path / "strict", log=lambda *a: None, snapshots=snaps)                                       # no window: the deadline's snapshot
  assert answer(tmp_path / "strict", "ada") == "on time"
  fetch(roster, tmp_path / "dates", log=lambda *a: None, window_days=3)                                          # without snapshots: as before
  assert answer(tmp_path / "dates", "ada") == "after the window, backdated"
  with pytest.raises(ValueError, match="no snapshot"): fetch(roster, tmp_path / "x", log=lambda *a: None, snapshots=tmp_path / "empty")

def test_a_date_git_accepts_but_python_cannot_read_names_the_learner(tmp_path):
  """Issue 33, finding 3: a committer time zone of +9959 (git fsck --strict accepts it) stopped grade-all and merge.
  fetch records the committer time in UTC from git's seconds, so the zone cannot break anything downstream."""
  ada = Repo(tmp_path, "ada")
  ada.commit("fine", "2026-11-30T10:00:00+00:00")
  tree = ada.git("write-tree")
  raw = f"tree {tree}\nparent {ada.git('rev-parse', 'HEAD')}\nauthor t <t@t> 1796032800 +9959\ncommitter t <t@t> 1796032800 +9959\n\nodd zone\n"
  odd = subprocess.run(["git", "hash-object", "-t", "commit", "-w", "--stdin"], cwd=ada.work, input=raw, capture_output=True, text=True, check=True).stdout.strip()
  ada.git("update-ref", "refs/heads/main", odd); ada.push("main")
  assert subprocess.run(["git", "fsck", "--strict"], cwd=ada.bare, capture_output=True).returncode == 0
  roster = tmp_path / "roster.csv"
  roster.write_text(f"learner,repository,ref,deadline\nada,{ada.bare},main,2026-12-01T23:59:00+00:00\n")
  assert fetch(roster, tmp_path / "subs", log=lambda *a: None)["ada"] == odd
  rec = next(csv.DictReader(open(tmp_path / "subs/fetched.csv")))
  assert rec["committed_at"] == "2026-11-30T10:00:00+00:00" == rec["submitted_at"] and rec["basis"] == "committer date"
