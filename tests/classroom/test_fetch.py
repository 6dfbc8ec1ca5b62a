"""`autograder fetch`: each learner's last commit before their due time (plus the late policy's window), and what
was taken recorded in fetched.csv."""
import csv, os
import subprocess
import pytest
from autograder.classroom.late import days_late, parse_time
from autograder.classroom.roster import fetch

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
