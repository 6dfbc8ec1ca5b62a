"""No file stops the class (issue 44, item 4). Each attack is one learner of a toy class, beside `ada` who submitted the
solution: a file name that is not UTF-8 and every other odd name (long, past PATH_MAX, a line break, Markdown and HTML,
a terminal escape, a formula, a FIFO), a learner folder whose name is not UTF-8, a module folder with more files than
the cap, a notebook of exactly the size limit changed after it was graded, one a byte over it, an answer file that is a
link. Every class command runs over the class (grade-all, its resume, regrade, merge, similarity, export-grades, stats):
a test fails if an attack stops one of them, costs another learner anything, or leaves a stale grade.

Before: the file name ended grade-all and regrade ("'utf-8' codec can't encode character '\\udcff'"), naming nobody, no
gradebook; the folder name ended grade-all, merge and similarity; the path past PATH_MAX ended grade-all with a
traceback; the notebook of exactly 64 MiB kept its earlier 5/5 (control: 0/5); 100,000 files were graded, the
fingerprint walking them all (5 s of grade-all's CPU at each resume).

Fast: each learner's grading runs in this process with the kernel stood in for (a test passes when its module's
answers are not the starter's stubs; the reference runs are the toy course's own, cached), and the cap on a module
folder's files is lowered to 40. The slow test at the end is the same class on the command line, at full size (100,000
files, 64 MiB), with the kernels, plus a notebook that prints 124 MB."""
import csv, json, os, shutil, subprocess, sys, time
from pathlib import Path
import nbformat, pytest
from autograder.classroom import grade_all as ga
from autograder.classroom.gradebook import NAME_NOTE
from autograder.core import files
from autograder.core.cells import grade_id, is_answer
from autograder.core.module import modules_of
from autograder.core.results import Outcome, RunStatus, to_json, write_json
from autograder.grading import grade as grading
from classes import cli
from neighbours import load_lock
from toy_course import write_toy_course

LIMIT = files.MAX_FILE_BYTES                               # 64 MiB: what grading reads, the limit included (1 MiB in the fast tests but one)
ODD = os.fsdecode(b"cyd\xff")                              # a learner folder whose name is not UTF-8
ODD_SHOWN = "cyd\\xff"                                     # ... as every report shows it

def starter_of(source:Path, dest:Path) -> Path:
  """The toy course's release: each answer cell is its stub (what a learner starts from: 0 points)."""
  shutil.copytree(source, dest)
  for path in dest.glob("*/*.ipynb"):
    nb = nbformat.read(str(path), as_version=4)
    for c in nb.cells:
      if is_answer(c): c.source = c.source.split("### BEGIN SOLUTION")[0] + "    # YOUR CODE HERE\n    raise NotImplementedError()"
    nbformat.write(nb, str(path))
  return dest

def at_the_limit(path:Path, text:bytes, extra:int=0):
  """`text` (a notebook) padded with spaces (JSON's own) to exactly the size limit, plus `extra` bytes."""
  path.write_bytes(text + b" " * (files.MAX_FILE_BYTES + extra - len(text)))

def odd_names(folder:Path):
  """Every kind of file name a learner's repository can hold, and a path past PATH_MAX (made one folder at a time)."""
  (folder / os.fsdecode(b"notes-\xff.txt")).write_text("not UTF-8")
  (folder / ("x" * 255)).write_text("the longest name a file may have")
  for name in ("a\nb.txt", "\r=1+1.csv", "|`<b>x`|.md", "\x1b[2J.txt", "-@cmd.txt", " .txt"): (folder / name).write_text("odd")
  os.mkfifo(folder / "pipe")
  fd = os.open(folder, os.O_RDONLY)
  for _ in range(24):                                      # 24 x 201 bytes: past PATH_MAX (4096)
    os.mkdir("d" * 200, dir_fd=fd)
    inner = os.open("d" * 200, os.O_RDONLY, dir_fd=fd); os.close(fd); fd = inner
  os.close(os.open("deep.txt", os.O_WRONLY | os.O_CREAT, dir_fd=fd)); os.close(fd)

def run_stood_in(nb, module, files_, learner, on_cell=None, seed_db=None, errors=None):
  """core.runs.run_module with the kernel stood in for: the reference run's records when no answer is a stub, else
  each test raising NotImplementedError."""
  ref = grading.reference(module)
  stub = any(is_answer(c) and "NotImplementedError" in c.source for c in nb.cells)
  return ({t: Outcome(o.state, ("NotImplementedError", "") if stub else None, [] if stub else list(o.observations)) for t, o in ref.tests.items()},
          RunStatus.COMPLETED, "", "none (stood in)")

class Children:
  """grade_all._grade_one in this process: `grade` as the child runs it (read_submission, assemble, the verdicts), its
  report written where the child writes it. Records who was graded."""
  def __init__(self): self.graded = []
  def __call__(self, learner, out, modules, timeout, running):
    self.graded.append(learner.name)
    report = grading.grade(modules, ga.submission_root(learner))
    out.mkdir(parents=True, exist_ok=True); write_json(out / "report.json", report)
    return report

@pytest.fixture
def klass(tmp_path, monkeypatch):
  source = write_toy_course(tmp_path, answer_file=True)
  starter = starter_of(source, tmp_path / "starter")
  subs = tmp_path / "subs"
  for name in ("ada", "bob", ODD, "dee", "eve", "fay", "gus"): shutil.copytree(source, subs / name / "projects")
  odd_names(subs / "bob" / "projects" / "01_toy")
  monkeypatch.setattr(files, "MAX_ENTRIES", 40); monkeypatch.setattr(files, "MAX_FILE_BYTES", 1 << 20)
  for i in range(41): (subs / "dee" / "projects" / "01_toy" / f"f{i}").touch()                 # one over the cap
  solved = (source / "01_toy" / "01_toy.ipynb").read_bytes()
  at_the_limit(subs / "eve" / "projects" / "01_toy" / "01_toy.ipynb", solved)                  # read: graded
  at_the_limit(subs / "fay" / "projects" / "01_toy" / "01_toy.ipynb", solved, extra=1)         # one byte over: not read
  helper = subs / "gus" / "projects" / "02_toy" / "helper.py"
  helper.unlink(); helper.symlink_to(source / "02_toy" / "helper.py")
  monkeypatch.setattr(grading, "run_module", run_stood_in)
  children = Children()
  monkeypatch.setattr(ga, "_grade_one", children)
  return source, starter, subs, tmp_path, children

def rows(path:Path) -> list[dict]:
  with open(path, newline="", encoding="utf-8") as f: return list(csv.DictReader(f))

def book(out:Path) -> dict:
  return {(r["learner"], r["module"]): (float(r["score"]), r["status"]) for r in rows(out / "gradebook.csv")}

def report(out:Path, name:str) -> dict:
  data = json.loads((out / "feedback" / name / "report.json").read_text())
  for m in data["modules"]: m.pop("seconds")
  return data

def test_grade_all_gives_every_attack_its_row_and_the_rest_their_grades(klass):
  source, _, subs, tmp, children = klass
  done = ga.grade_all(subs, tmp / "out", modules_of(source), jobs=1)
  assert done["errors"] == [] and done["graded"] == 7
  assert book(tmp / "out") == {
    ("ada", "01_toy"): (6.0, "graded"), ("ada", "02_toy"): (6.0, "graded"),
    ("bob", "01_toy"): (6.0, "graded"), ("bob", "02_toy"): (6.0, "graded"),                      # odd names: as if not there
    (ODD_SHOWN, "01_toy"): (6.0, "graded"), (ODD_SHOWN, "02_toy"): (6.0, "graded"),
    ("dee", "01_toy"): (0.0, "unreadable"), ("dee", "02_toy"): (6.0, "graded"),
    ("eve", "01_toy"): (6.0, "graded"), ("eve", "02_toy"): (6.0, "graded"),                      # exactly the limit: read
    ("fay", "01_toy"): (0.0, "unreadable"), ("fay", "02_toy"): (6.0, "graded"),
    ("gus", "01_toy"): (6.0, "graded"), ("gus", "02_toy"): (6.0, "graded")}                      # (the stand-in runs no helper.py)
  assert report(tmp / "out", "bob") == report(tmp / "out", "ada") == report(tmp / "out", ODD)
  message = lambda name, module: next(m["message"] for m in report(tmp / "out", name)["modules"] if m["module"] == module)
  assert message("dee", "01_toy") == ("the folder 01_toy holds more than 40 files and folders, the most a module folder may hold, so it was "
                                      "not read: remove what the module does not need (data, environments, outputs) and submit again")
  assert message("fay", "01_toy") == "cannot read 01_toy.ipynb: it is larger than 1 MiB, the most the grader reads"
  assert message("gus", "02_toy") == "not read, so graded as not submitted: helper.py (a symbolic link is not followed)"
  assert "Note: `not read, so graded as not submitted: helper.py" in (tmp / "out/feedback/gus/feedback.md").read_text()
  flags = {r["learner"]: r["flags"] for r in rows(tmp / "out" / "gradebook.csv")}
  assert flags[ODD_SHOWN] == NAME_NOTE and {v for k, v in flags.items() if k != ODD_SHOWN} == {""}
  assert f"Feedback for `{ODD_SHOWN}`" in (tmp / "out" / "feedback" / ODD / "feedback.md").read_text()
  assert f"| `{ODD_SHOWN}` | 6/6 ⚑ | 6/6 ⚑ | 12/12 |" in ga.summary(tmp / "out")
  again = ga.grade_all(subs, tmp / "out", modules_of(source), jobs=1)                          # the resume: nothing changed
  assert (again["graded"], again["skipped"]) == (0, 7)

def test_a_notebook_at_the_size_limit_changed_after_grading_is_graded_again(klass):
  """The stale report: grading reads a notebook of exactly 64 MiB, and grade-all's resume now hashes what it read (at
  full size here: 2 s)."""
  source, starter, subs, tmp, children = klass
  files.MAX_FILE_BYTES = LIMIT                             # (the fixture's monkeypatch puts the 1 MiB back, and then 64 MiB)
  at_the_limit(subs / "eve" / "projects" / "01_toy" / "01_toy.ipynb", (source / "01_toy" / "01_toy.ipynb").read_bytes())
  ga.grade_all(subs, tmp / "out", modules_of(source), jobs=1)
  assert book(tmp / "out")[("eve", "01_toy")] == (6.0, "graded")
  at_the_limit(subs / "eve" / "projects" / "01_toy" / "01_toy.ipynb", (starter / "01_toy" / "01_toy.ipynb").read_bytes())
  children.graded.clear()
  done = ga.grade_all(subs, tmp / "out", modules_of(source), jobs=1)
  assert children.graded == ["eve"] and (done["graded"], done["skipped"]) == (1, 6)
  assert book(tmp / "out")[("eve", "01_toy")] == (0.0, "graded")                               # control: the starter's 0

def test_every_class_command_goes_on(klass, monkeypatch):
  from autograder.classroom import similarity as sim
  from autograder.classroom.lms import export
  from autograder.classroom.merge import merge
  from autograder.classroom.regrade import regrade
  from autograder.classroom.stats import stats
  from autograder.classroom.unwrap import unwrap
  source, starter, subs, tmp, children = klass
  ga.grade_all(subs, tmp / "out", modules_of(source), jobs=1)
  done = regrade(tmp / "out", subs, tmp / "again", modules_of(source), jobs=1)
  assert (done["graded"], done["skipped"], done["changes"]["rows"]) == (0, 7, []) and book(tmp / "again") == book(tmp / "out")
  merged = merge([tmp / "out"], tmp / "merged")
  assert merged["errors"] == [] and rows(tmp / "merged" / "gradebook.csv") == rows(tmp / "out" / "gradebook.csv")
  monkeypatch.setattr(sim, "unwrapped", lambda texts, timeout=120: {m: unwrap(t) for m, t in texts.items()})   # (its child: tested apart)
  found = sim.similarity(subs, tmp / "sim", modules_of(source), starter)
  assert {(r["learner_a"], r["module"], r["note"]) for r in found if not r["learner_b"]} == {
    ("dee", "01_toy", "unreadable: the folder 01_toy holds more than 40 files and folders, the most a module folder may hold, so it was not "
                      "read: remove what the module does not need (data, environments, outputs) and submit again"),
    ("fay", "01_toy", "unreadable: cannot read 01_toy.ipynb: it is larger than 1 MiB, the most the grader reads")}
  assert any({r["learner_a"], r["learner_b"]} == {"ada", ODD_SHOWN} and r["similarity"] == 1.0 for r in found)
  assert f"| 01_toy | `{ODD_SHOWN}` |" in (tmp / "sim" / "similarity.md").read_text() and (tmp / "sim" / "similarity.html").is_file()
  path, problems = export(tmp / "out", "csv")
  assert [r["learner"] for r in rows(path)] == ["ada", "bob", ODD_SHOWN, "dee", "eve", "fay", "gus"] and problems == []
  (tmp / "roster.csv").write_text("learner,repository,ref,deadline,sis_id\n" + "".join(f"{n},r,main,2026-01-01,{i}\n" for i, n in enumerate(["ada", "bob", "dee"])))
  path, problems = export(tmp / "out", "canvas", tmp / "roster.csv")
  assert len(rows(path)) == 4 and f"{ODD_SHOWN}: graded but not in {tmp / 'roster.csv'}" in problems   # (the points row, ada, bob, dee)
  analysed = stats(tmp / "out")
  assert analysed and {r["learners"] for r in analysed} == {7} and (tmp / "out" / "item-analysis.md").is_file()

def test_a_run_over_the_output_cap_is_graded_with_a_note(tmp_path, monkeypatch):
  """core.runs.run_module says why a completed run's records may be missing (execute.OUTPUT_DROPPED): the module is
  graded, with that note in its message and its feedback; a run that stopped keeps its own message."""
  from autograder.core.execute import OUTPUT_DROPPED
  source = write_toy_course(tmp_path, modules=("01_toy",))
  ended = {"status": RunStatus.COMPLETED, "message": OUTPUT_DROPPED}
  def run(*args, **kw):
    got, _, _, used = run_stood_in(*args, **kw)
    return got, ended["status"], ended["message"], used
  monkeypatch.setattr(grading, "run_module", run)
  m = grading.grade(modules_of(source), source).modules[0]
  assert (m.status, m.score, m.message) == ("graded", 5.0, OUTPUT_DROPPED)
  from autograder.grading.feedback import markdown
  assert f"Note: `{OUTPUT_DROPPED}`" in markdown(grading.grade(modules_of(source), source))
  ended.update(status=RunStatus.TIMEOUT, message="the notebook ran out of its 30 s")
  m = grading.grade(modules_of(source), source).modules[0]
  assert (m.status, m.message) == ("timeout", "the notebook ran out of its 30 s")

# ---- the same on the command line, at full size, with the kernels ----------------------------------------------------

def peak_mb(source:Path, projects:Path, out:Path) -> float:
  """The grader's own peak memory (VmHWM of the `grade` process; its kernels are processes of their own), in MB."""
  code = ("import runpy, sys\nsys.argv = ['autograder', 'grade', *sys.argv[1:]]\n"
          "try: runpy.run_module('autograder.cli', run_name='__main__')\nexcept SystemExit: pass\n"
          "print([l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1])")
  done = subprocess.run([sys.executable, "-c", code, str(projects), "--source", str(source), "--json", str(out), "--quiet"],
                        capture_output=True, text=True, timeout=600)
  return int(done.stdout.split()[-1]) / 1024

FLOOD = ("import sys\ndef _flood(n, c):\n    for _ in range(n): sys.stdout.write(c * (1 << 20)); sys.stdout.flush()\n_flood(15, 'x')\n"
         "def double(x):\n    _flood(15, 'y')\n    return 2 * x")   # 15 MiB a cell, under the cell's cap; 4 cells, 124 MB in a run

@pytest.mark.slow                 # over 4 s: grades a class of 6 learners with the kernels, 100,000 files, 64 MiB notebooks
def test_the_class_commands_at_full_size(tmp_path):
  """Not beside another test's noisy neighbours (load_lock): `grade-all --jobs 2` keeps both cores busy itself, and the
  toy course's time limits are short (2026-12-02: beside 13's noisy self-check, two learners' kernels timed out or died
  and the self-check ran out of its 240 s)."""
  with load_lock(): _class_commands_at_full_size(tmp_path)

def _class_commands_at_full_size(tmp_path):
  source = write_toy_course(tmp_path)
  starter = starter_of(source, tmp_path / "starter")
  subs = tmp_path / "subs"
  for name in ("ada", "bob", ODD, "dee", "eve", "flo"): shutil.copytree(source, subs / name / "projects")
  odd_names(subs / "bob" / "projects" / "01_toy")
  junk = subs / "dee" / "projects" / "01_toy" / "junk"; junk.mkdir()
  for i in range(100_000): (junk / str(i)).touch()
  at_the_limit(subs / "eve" / "projects" / "01_toy" / "01_toy.ipynb", (source / "01_toy" / "01_toy.ipynb").read_bytes())
  nb = nbformat.read(str(subs / "flo" / "projects" / "01_toy" / "01_toy.ipynb"), as_version=4)
  for c in nb.cells:
    if grade_id(c) == "ans_double": c.source = FLOOD
  nbformat.write(nb, str(subs / "flo" / "projects" / "01_toy" / "01_toy.ipynb"))
  control, flooded = peak_mb(source, subs / "ada" / "projects", tmp_path / "a.json"), peak_mb(source, subs / "flo" / "projects", tmp_path / "f.json")
  assert flooded < control + 60, (control, flooded)          # before: 66 -> 207 MB for 128 MB printed (the cap was per cell)
  out = tmp_path / "out"
  start = time.monotonic()
  done = cli("grade-all", subs, "--source", source, "--out", out, "--jobs", "2")
  assert done.returncode == 0, done.stderr[-2000:]
  b = book(out)
  assert {k: v for k, v in b.items() if k[0] != "flo"} == {(n, m): (5.0, "graded") for n in ("ada", "bob", ODD_SHOWN, "eve") for m in ("01_toy", "02_toy")} | {
    ("dee", "01_toy"): (0.0, "unreadable"), ("dee", "02_toy"): (5.0, "graded")}
  flo = json.loads((out / "feedback" / "flo" / "report.json").read_text())["modules"][0]
  assert flo["status"] == "graded" and flo["message"].startswith("the notebook printed more than the grader keeps") and flo["score"] < 5
  assert "graded 0 learner(s), kept 6 unchanged" in cli("grade-all", subs, "--source", source, "--out", out).stdout
  at_the_limit(subs / "eve" / "projects" / "01_toy" / "01_toy.ipynb", (starter / "01_toy" / "01_toy.ipynb").read_bytes())
  again = cli("regrade", out, subs, "--source", source, "--out", tmp_path / "again")
  assert again.returncode == 0 and "regraded 1 learner(s), kept 5 unchanged" in again.stdout, again.stderr[-2000:]
  assert book(tmp_path / "again")[("eve", "01_toy")] == (0.0, "graded")                        # before: 5/5 kept (stale)
  for args in (("merge", tmp_path / "again", "--out", tmp_path / "merged"), ("stats", tmp_path / "again"),
               ("similarity", subs, "--source", source, "--starter", starter, "--out", tmp_path / "sim"),
               ("export-grades", tmp_path / "again", "--format", "csv")):
    done = cli(*args)
    assert done.returncode == 0, (args[0], done.stderr[-2000:])
  assert time.monotonic() - start < 600
