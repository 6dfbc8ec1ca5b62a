"""Grading a class on several machines: shards merge into the gradebook of an unsharded run, learners are assigned
to shards by name, the workflow's matrix step, and the reference runs kept where no sandbox sees them."""
import csv
import os
import shutil
import subprocess
import sys
from pathlib import Path
import pytest
from autograder.core.course import REPO
from autograder.classroom.shard import matrix, parse, shard_of, ShardError
from classes import cli, files, learner
from toy_course import write_toy_course

@pytest.mark.slow                 # over 4 s: the fast tier stays under 2 minutes (make test runs it)
def test_shards_merge_into_the_unsharded_gradebook(tmp_path):
  source = write_toy_course(tmp_path)
  subs = tmp_path / "submissions"
  learner(subs, source, "ada")
  learner(subs, source, "bob", {"01_toy": {"ans_double": "def double(x):\n    return x + 2"}})
  learner(subs, source, "cyd", broken=True)
  grade = ["--source", source, "--jobs", "2", "--require-sandbox"]
  ref = cli("grade-all", "submissions", "--out", "gradebook", "--reference-only", *grade, cwd=tmp_path)          # as the prepare job
  assert ref.returncode == 0 and not (tmp_path / "gradebook").exists(), ref.stderr[-2000:]
  whole = cli("grade-all", subs, "--out", tmp_path / "whole", *grade)
  assert whole.returncode == 0, whole.stderr[-2000:]
  assert subprocess.run("tar -cf submissions.tar submissions", shell=True, cwd=tmp_path).returncode == 0
  shards = {name: shard_of(name, 2) for name in ("ada", "bob", "cyd")}
  assert sorted(set(shards.values())) == [1, 2], shards                         # both shards get work with these names
  for k in (1, 2):                                                             # one machine after another, as the matrix does
    machine = tmp_path / f"machine{k}"
    machine.mkdir(); shutil.copy(tmp_path / "submissions.tar", machine)
    assert subprocess.run("tar -xf submissions.tar", shell=True, cwd=machine).returncode == 0
    done = cli("grade-all", "submissions", "--out", "gradebook", "--shard", f"{k}/2", *grade, cwd=machine)
    assert done.returncode == 0, done.stderr[-2000:]
    assert sorted(p.name for p in (machine / "gradebook/feedback").iterdir()) == sorted(n for n, s in shards.items() if s == k)
    (tmp_path / "shards").mkdir(exist_ok=True); shutil.copytree(machine / "gradebook", tmp_path / "shards" / f"shard-{k - 1}")
  merged = subprocess.run(f'{sys.executable} -m autograder.cli merge shards/* --out gradebook --summary summary.md', shell=True, cwd=tmp_path,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
  assert merged.returncode == 0, merged.stderr
  assert files(tmp_path / "gradebook") == files(tmp_path / "whole")
  rows = list(csv.DictReader(open(tmp_path / "gradebook/gradebook.csv")))
  assert {(r["learner"], r["module"]): float(r["score"]) for r in rows} == {("ada", "01_toy"): 5, ("ada", "02_toy"): 5, ("bob", "01_toy"): 3,
         ("bob", "02_toy"): 5, ("cyd", "01_toy"): 0, ("cyd", "02_toy"): 5}
  assert "| `ada` | 5/5 | 5/5 | 10/10 |" in (tmp_path / "summary.md").read_text()
  tasks = list(csv.DictReader(open(tmp_path / "gradebook/tasks.csv")))
  assert len(tasks) == 12 and {t["test"] for t in tasks} == {"test_double", "test_square"}
  bob = next(t for t in tasks if t["learner"] == "bob" and t["module"] == "01_toy" and t["test"] == "test_double")
  assert bob["status"] == "failed" and "got 23" in bob["message"]
  assert "42" not in bob["message"] and "check_equal" not in (tmp_path / "gradebook/tasks.csv").read_text()   # hidden: no expected value, no code
  again = cli("merge", tmp_path / "shards/shard-0", tmp_path / "shards/shard-0", "--out", tmp_path / "twice")
  assert again.returncode == 2 and "is in two shards" in again.stderr and "Traceback" not in again.stderr

def test_shard_assignment_is_stable_and_balanced():
  names = [f"learner{i:03d}" for i in range(300)]
  sizes = [sum(shard_of(n, 4) == k for n in names) for k in (1, 2, 3, 4)]
  assert sum(sizes) == 300 and min(sizes) > 50, sizes
  assert [shard_of(n, 4) for n in names[:50]] == [shard_of(n, 4) for n in sorted(names[:50], reverse=True)][::-1]   # not positional
  assert shard_of("ada", 7) == shard_of("ada", 7) and all(1 <= shard_of(n, 3) <= 3 for n in names)
  assert parse("2/5") == (2, 5) and matrix(3) == ["1/3", "2/3", "3/3"]
  import hashlib, os
  assert all(shard_of(n, 7) == int.from_bytes(hashlib.sha256(n.encode()).digest()[:8], "big") % 7 + 1 for n in names + ["café"])   # as ever
  assert shard_of(os.fsdecode(b"caf\xe9"), 7) == shard_of("caf\\xe9", 7)          # a name that is not UTF-8: where its gradebook rows are
  for bad in ("0/3", "4/3", "x", "1-3"):
    with pytest.raises(ShardError): parse(bad)

def test_the_matrix_step_prints_the_shards(tmp_path):
  out = tmp_path / "github_output"
  done = subprocess.run(f'{sys.executable} -m autograder.shard "$SHARDS" >> "$GITHUB_OUTPUT"', shell=True, capture_output=True, text=True,
                        env={**os.environ, "PYTHONPATH": str(REPO), "SHARDS": "3", "GITHUB_OUTPUT": str(out)})
  assert done.returncode == 0 and out.read_text() == 'shards=["1/3", "2/3", "3/3"]\n'

def test_the_reference_cache_is_outside_the_sandbox(tmp_path):
  """The class workflow keeps the reference runs in AUTOGRADER_CACHE under the runner's temporary folder: no path the
  sandbox binds holds it."""
  from autograder.core import sandbox
  cache = Path(os.environ["AUTOGRADER_CACHE"]).resolve()
  run_dir = tmp_path / "run"; (run_dir / "m").mkdir(parents=True)
  args = sandbox.command(run_dir, run_dir / "m", reads=[REPO / "data"])
  bound = [Path(args[i + 1]).resolve() for i, a in enumerate(args) if a in ("--bind", "--ro-bind", "--dev-bind") and args[i + 1].startswith("/")]
  assert bound and not [b for b in bound if cache == b or cache.is_relative_to(b) and b != Path("/usr")], bound

# Canvas's grade import/export columns: "Student Name ... OR Student ID OR Student SIS User ID ..., SIS Login ID ..., Section ...,
# Assignment Name" (teaching.resources.osu.edu/toolsets/carmencanvas/guides/calculating-final-grades/import-csv-file-carmen-grades);
# "Student, ID, SIS User ID, SIS Login ID, Section", then "Quiz 1 (87568490)"-style assignment columns in Canvas's grades.csv
# (nemogb-dev.github.io/nemogb-r/articles/detailed-canvas-export-info.html).
# Moodle's CSV grade import: "Change both dropdowns to: "Email Address" to "useremail", or to "Id Number" to "useridnumber""
# (docs.moodle.org/311/en/Grade_import); its CSV export names those columns "Email address" and "ID number".
