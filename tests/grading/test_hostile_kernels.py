"""The grader itself is out of a learner's reach: each hostile submission below gets a defined outcome (a report for
every module, nothing left running, the score the work deserves). On the toy course, graded by the command line in
a separate process, so that an attack that got through could not take the test run down with it."""
import pytest
import hashlib, json, os, shutil, signal, subprocess, sys, textwrap, time
from pathlib import Path
import nbformat, pytest
from autograder.core.cells import grade_id
from autograder.core.execute import run_parent
from autograder.core.sandbox import available
from toy_course import write_toy_course

needs_sandbox = pytest.mark.skipif(not available()[0], reason=f"no sandbox here: {available()[1]}")

@pytest.fixture
def course(tmp_path):
  source = write_toy_course(tmp_path, answer_file=True)
  submission = tmp_path / "submission"
  shutil.copytree(source, submission)
  return source, submission

def set_answer(submission:Path, gid:str, code:str, module="01_toy"):
  path = submission / module / f"{module}.ipynb"
  nb = nbformat.read(str(path), as_version=4)
  for c in nb.cells:
    if grade_id(c) == gid: c.source = textwrap.dedent(code)
  nbformat.write(nb, str(path))

def grade(tmp_path, source, submission, timeout=240, env=None, modules=()) -> tuple[dict, subprocess.CompletedProcess]:
  out = tmp_path / "report.json"
  done = subprocess.run([sys.executable, "-m", "autograder.cli", "grade", str(submission), "--source", str(source), "--json", str(out),
                         "--markdown", str(tmp_path / "report.md"), *(("--modules", *modules) if modules else ())],
                        capture_output=True, text=True, timeout=timeout, env=env)
  assert done.returncode == 0, done.stderr[-2000:]
  return json.loads(out.read_text()), done

def by_module(report): return {m["module"]: m for m in report["modules"]}
def statuses(module): return {t["id"]: t["status"] for t in module["tests"]}

def tree_hash(folder:Path) -> str:
  h = hashlib.sha256()
  for p in sorted(folder.rglob("*")):
    if p.is_file(): h.update(str(p.relative_to(folder)).encode()); h.update(p.read_bytes())
  return h.hexdigest()

@pytest.mark.slow                 # over 4 s: the fast tier stays under 2 minutes (make test runs it)
def test_symlinked_answers_are_missing_never_followed(tmp_path, course):
  source, submission = course
  nb = submission / "01_toy" / "01_toy.ipynb"
  nb.unlink(); nb.symlink_to(source / "01_toy" / "01_toy.ipynb")                     # the notebook: a link to the solution
  helper = submission / "02_toy" / "helper.py"
  helper.unlink(); helper.symlink_to(source / "02_toy" / "helper.py")                 # an answer file: a link to the solution
  report, _ = grade(tmp_path, source, submission)
  m = by_module(report)
  assert m["01_toy"]["status"] == "missing" and m["01_toy"]["score"] == 0 and "symbolic link" in m["01_toy"]["message"]
  assert statuses(m["02_toy"])["test_triple"] in ("error", "failed") and m["02_toy"]["score"] == 5

@pytest.mark.slow                 # over 4 s: the fast tier stays under 2 minutes (make test runs it)
@needs_sandbox
def test_answer_code_cannot_change_the_trusted_source_or_the_reference(tmp_path, course):
  source, submission = course
  before = tree_hash(source)
  set_answer(submission, "ans_double", f'''
  import glob, os
  for path in glob.glob("{source}/**/*", recursive=True) + glob.glob(os.path.expanduser("~/.cache/tinygrad-workbook/**/*.json"), recursive=True):
      try:
          with open(path, "w") as f: f.write("{{}}")
      except OSError: pass
  def double(x): return 2 * x
  ''')
  report, _ = grade(tmp_path, source, submission)
  assert tree_hash(source) == before
  assert by_module(report)["01_toy"]["score"] == 6 and by_module(report)["02_toy"]["score"] == 6

@pytest.mark.slow                 # over 4 s: the fast tier stays under 2 minutes (make test runs it)
@needs_sandbox
def test_the_kernel_cannot_stop_or_kill_the_grader(tmp_path, course):
  source, submission = course
  set_answer(submission, "ans_double", '''
  import os, signal
  for pid in [int(p) for p in os.listdir("/proc") if p.isdigit()] + [os.getppid()]:
      if pid != os.getpid():
          for sig in (signal.SIGSTOP, signal.SIGKILL):
              try: os.kill(pid, sig)
              except OSError: pass
  def double(x): return 2 * x
  ''')
  start = time.monotonic()
  report, _ = grade(tmp_path, source, submission)
  assert time.monotonic() - start < 200
  m = by_module(report)
  assert set(m) == {"01_toy", "02_toy"} and m["02_toy"]["score"] == 6

@pytest.mark.slow                 # over 4 s: the fast tier stays under 2 minutes (make test runs it)
@needs_sandbox
def test_processes_started_by_the_kernel_do_not_outlive_it(tmp_path, course):
  source, submission = course
  marker = f"{os.getpid() % 1000 + 7}.{time.time_ns() % 10**6}"
  set_answer(submission, "ans_double", f'''
  import os, subprocess
  subprocess.Popen(["setsid", "sleep", "{marker}"], start_new_session=True)
  if os.fork() == 0:
      os.setsid()
      if os.fork() == 0: os.execvp("sleep", ["sleep", "{marker}"])
      os._exit(0)
  def double(x): return 2 * x
  ''')
  report, _ = grade(tmp_path, source, submission)
  m = by_module(report)
  assert m["02_toy"]["score"] == 6 and m["01_toy"]["status"] in ("graded", "timeout")
  time.sleep(1)
  left = subprocess.run(["pgrep", "-f", f"sleep {marker}"], capture_output=True, text=True).stdout.split()
  for pid in left: os.kill(int(pid), signal.SIGKILL)
  assert not left, "a process the kernel started is still running"

@pytest.mark.slow                 # over 4 s: the fast tier stays under 2 minutes (make test runs it)
def test_a_wrecked_working_folder_or_a_warning_on_stderr_costs_nothing(tmp_path, course):
  """Two attacks in one grading (a kernel start less each): 01's answer wrecks its working folder, 02's writes a
  warning and debug output on stderr. Each module is the other's bystander: both still get their 6 points."""
  source, submission = course
  set_answer(submission, "ans_double", '''
  import os
  for i in range(3000): open(f"junk{i}", "w").close()
  os.makedirs("/".join(["d"] * 300), exist_ok=True)
  os.symlink("/", "root_link"); os.symlink("/etc/passwd", "helper_link.py")
  os.makedirs("locked/inner"); os.chmod("locked", 0)
  try: os.rename(os.getcwd(), os.getcwd() + "_moved")
  except OSError: pass
  def double(x): return 2 * x
  ''')
  set_answer(submission, "ans_double", '''
  import sys, warnings
  def double(x):
      warnings.warn("this is slow"); print("debug output", file=sys.stderr)
      return 2 * x
  ''', module="02_toy")
  report, _ = grade(tmp_path, source, submission)
  m = by_module(report)
  assert m["01_toy"]["score"] == 6, ("the wrecked working folder", m["01_toy"])
  left = [p for p in Path(run_parent()).glob("grade-01_toy-*") if any(p.glob("01_toy*/junk0"))]   # other tests' runs go on beside
  assert not left, "the wrecked run folder was not cleaned up"
  assert statuses(m["02_toy"])["test_double"] == "passed" and m["02_toy"]["score"] == 6, ("the warning on stderr", m["02_toy"]["tests"])

def test_hidden_test_source_escapes_and_html_never_reach_a_report(tmp_path, course):
  source, submission = course
  set_answer(submission, "ans_double", '''
  def double(x):
      code = " ; ".join(get_ipython().user_ns.get("In", [])[-3:]).replace("\\n", " ")
      print(code)
      raise ValueError(code)
  ''')
  set_answer(submission, "ans_square", '''
  def square(x):
      raise ValueError("\\x1b[2J\\x1b[31m<script>alert(1)</script> | ![x](http://evil/) \\x07")
  ''')
  report, done = grade(tmp_path, source, submission, modules=("01",))       # the attacks are 01's: 02 adds a kernel, not a check
  everything = json.dumps(report) + (tmp_path / "report.md").read_text() + done.stdout + done.stderr
  for secret in ("double(21)", "square(-7)", "HIDDEN", "triple(-5)"):
    assert secret not in everything
  assert "\x1b" not in everything and "\\u001b" not in everything and "<script>" not in everything
  messages = {t["id"]: t["message"] for t in by_module(report)["01_toy"]["tests"]}
  assert messages["test_double"].startswith("ValueError") and messages["test_square"].startswith("ValueError")   # the type, never the text

@pytest.mark.slow                 # over 4 s: the fast tier stays under 2 minutes (make test runs it)
def test_an_output_flood_does_not_fill_the_graders_memory(tmp_path, course):
  source, submission = course
  set_answer(submission, "ans_double", '''
  import sys
  chunk = "x" * (1 << 20)
  for _ in range(300): sys.stdout.write(chunk)
  def double(x): return 2 * x
  ''')
  peak = tmp_path / "peak"
  done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", str(peak), sys.executable, "-m", "autograder.cli", "grade", str(submission),
                         "--source", str(source), "--json", str(tmp_path / "r.json"), "--quiet"], capture_output=True, text=True, timeout=300)
  assert done.returncode == 0
  m = by_module(json.loads((tmp_path / "r.json").read_text()))
  assert m["02_toy"]["score"] == 6 and m["01_toy"]["status"] in ("graded", "timeout")
  assert int(peak.read_text().split()[-1]) < 1_500_000, "the grader kept the flood in memory (peak RSS in KB)"

@pytest.mark.slow                 # over 4 s: the fast tier stays under 2 minutes (make test runs it)
def test_a_long_temporary_folder_does_not_keep_the_kernel_from_starting(tmp_path, course):
  """The kernel talks over unix sockets in the run's folder, and a socket path holds 108 bytes at most: under a long
  TMPDIR the grader puts its runs in /tmp instead of waiting for a kernel that cannot connect."""
  source, submission = course
  long = tmp_path / ("t" * 60)
  long.mkdir()
  report, _ = grade(tmp_path, source, submission, timeout=120, env={**os.environ, "TMPDIR": str(long)}, modules=("01",))
  assert set(by_module(report)) == {"01_toy"} and by_module(report)["01_toy"]["score"] == 6      # one kernel tells
