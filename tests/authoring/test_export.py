"""The learner repository (`autograder export-student`): it holds no answers, no hidden test and no hidden data, its
two commands work from a fresh clone, and the CI workflows are valid and run only commands these tests exercise."""
import re
import os
import subprocess
import sys
import sysconfig
from pathlib import Path
import pytest, yaml
from autograder.core.course import REPO, module_names
from autograder.authoring.export import export_student
from released import MARKERS, regions, texts

@pytest.fixture(scope="module")
def exported(tmp_path_factory):
  dest = tmp_path_factory.mktemp("export") / "workbook"
  export_student(dest)
  return dest

def _answers_module_04(path:Path) -> bool:
  """Whether a checkpoint would earn module 04's accuracy points (98% on its normalised images): the checkpoint module
  04's learners train and hand in must never ship. Module 10 ships the same network with the normalisation folded
  into its first convolution: on module 04's inputs it classified 92.8% of these images."""
  import numpy as np
  sys.path.insert(0, str(REPO / "solutions" / "04_mnist"))
  import mnist_data
  from tinygrad import Tensor, nn
  from tinygrad.nn.state import load_state_dict, safe_load
  class Net:
    def __init__(self):
      self.conv1, self.bn1 = nn.Conv2d(1, 16, 5), nn.BatchNorm(16)
      self.conv2, self.bn2 = nn.Conv2d(16, 32, 5), nn.BatchNorm(32)
      self.fc = nn.Linear(32 * 4 * 4, 10)
    def __call__(self, x):
      x = self.bn1(self.conv1(x)).relu().max_pool2d()
      x = self.bn2(self.conv2(x)).relu().max_pool2d()
      return self.fc(x.flatten(1))
  net = Net()
  try: load_state_dict(net, safe_load(str(path)), verbose=False)
  except Exception: return False                                   # another network: no answer to module 04
  images = (mnist_data.load_images("train")[:1000].astype(np.float32) / 255 - 0.1307) / 0.3081
  guess = net(Tensor(images[:, None])).argmax(1).numpy()
  return float((guess == mnist_data.load_labels("train")[:1000]).mean()) >= 0.98

@pytest.mark.slow
def test_the_export_holds_no_solution_and_no_hidden_test(exported):
  secret, public = set(), set()            # a line shown outside every region somewhere (a setup cell, a starter) is public
  for module in module_names(REPO / "solutions"):
    for text in texts(REPO / "solutions" / module).values():
      inside, outside = regions(text)
      secret |= set(inside); public |= set(outside)
  secret = {l for l in secret - public if len(l) >= 12 and not l.startswith("#")}
  assert len(secret) > 100
  for path in exported.rglob("*"):
    if not path.is_file(): continue
    if path.is_relative_to(exported / "autograder"):          # the grader's own code: no marker (its lines are its own)
      assert not MARKERS.search(path.read_text()), f"{path} holds a marker"; continue
    if path.suffix == ".safetensors":
      assert not _answers_module_04(path), f"a checkpoint that answers module 04 in the export: {path}"; continue
    try: text = path.read_text()
    except UnicodeDecodeError: continue
    assert not MARKERS.search(text), f"{path.relative_to(exported)} holds a marker"
    leaked = [l for l in text.splitlines() if l.strip() in secret]
    assert not leaked, f"{path.relative_to(exported)} holds solution or hidden-test lines: {leaked[:2]}"
  names = {p.name for p in exported.iterdir()}
  assert {"projects", "course", "autograder", "README.md", "Makefile", ".github"} <= names
  assert not {"solutions", "tests", ".git", "roster.example.csv"} & names
  assert "make lab" in (exported / "README.md").read_text() and "make check" in (exported / "README.md").read_text()
  assert (exported / ".devcontainer/devcontainer.json").read_bytes() == (REPO / "autograder/authoring/learner_repo/devcontainer.json").read_bytes()

@pytest.mark.slow
def test_the_export_holds_no_data_a_module_hides(exported):
  """Module 04 grades accuracy with labels only the grader reads: the MNIST test labels stay out of the export."""
  assert (REPO / "data" / "mnist" / "t10k-labels-idx1-ubyte.gz").is_file()
  assert not (exported / "data" / "mnist" / "t10k-labels-idx1-ubyte.gz").exists()
  assert {p.name for p in (exported / "data" / "mnist").iterdir()} >= {"t10k-images-idx3-ubyte.gz", "train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"}

@pytest.mark.slow
def test_the_exports_two_commands_work_from_a_fresh_clone(exported, tmp_path):
  """`make check` from a clone: set-up, then the self-check of module 01 (the starter: every check not attempted).
  The pinned packages come from this repository's environment (a .pth line) to keep the suite in its budget; the
  clone's own `autograder` is installed from the clone, and set-up itself runs for real."""
  subprocess.run(["git", "init", "-q"], cwd=exported, check=True)
  subprocess.run(["git", "add", "-A"], cwd=exported, check=True)
  subprocess.run(["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "export"], cwd=exported, check=True)
  clone = tmp_path / "clone"
  subprocess.run(["git", "clone", "-q", str(exported), str(clone)], check=True)
  subprocess.run([sys._base_executable, "-m", "venv", str(clone / ".venv")], check=True)
  site = next((clone / ".venv" / "lib").glob("python3*/site-packages"))
  (site / "workbook.pth").write_text(f"{clone}\n{sysconfig.get_paths()['purelib']}\n")   # as an editable install of the clone would
  script = clone / ".venv/bin/autograder"
  script.write_text(f"#!{clone / '.venv/bin/python'}\nimport sys\nfrom autograder.cli import main\nsys.exit(main())\n"); script.chmod(0o755)
  (clone / ".venv/.setup-stamp").write_text(subprocess.run(["sha256sum", "pyproject.toml"], cwd=clone, capture_output=True, text=True).stdout.split()[0] + "\n")
  env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
  done = subprocess.run(["make", "check", "MODULES=01"], cwd=clone, capture_output=True, text=True, timeout=600, env=env)
  assert "setup: ready" in done.stdout, done.stdout[-2000:] + done.stderr[-2000:]
  assert done.returncode != 0 and "0/9 visible checks passed" in done.stdout and "not attempted" in done.stdout, done.stdout[-2000:]
  assert str(clone / "autograder") in subprocess.run([str(clone / ".venv/bin/python"), "-c", "import autograder; print(autograder.__file__)"],
                                                      capture_output=True, text=True, env=env, cwd=tmp_path).stdout
  ci = subprocess.run([str(clone / ".venv/bin/autograder"), "check", "01", "--exit-zero", "--json", "check.json", "--markdown", "check.md"],
                      cwd=clone, capture_output=True, text=True, timeout=600, env=env)
  assert ci.returncode == 0 and "| test | task | status |" in (clone / "check.md").read_text()

WORKFLOWS = [REPO / ".github/workflows/grade-class.yml", REPO / ".github/workflows/portability.yml", REPO / "autograder/authoring/learner_repo/workflows/check.yml"]
EXERCISED = {  # each command a workflow runs, and the test that runs it
  "make setup": "tests/authoring/test_export.py (make check runs set-up) and .ci/run",
  'PORTABILITY=full make test ARGS="-k second_cpu_target"': "the suite's own command (.ci/run), the test selected by name",
  'PLAIN_NBGRADER=all make test ARGS="-k plain_nbgrader"': "the suite's own command (.ci/run), the test selected by name",
  ".venv/bin/autograder check --exit-zero --json check.json --markdown check.md": "test_the_exports_two_commands_work_from_a_fresh_clone",
  'cat check.md >> "$GITHUB_STEP_SUMMARY" || true': "a shell append",
  'if [ -d snapshots ]; then .venv/bin/autograder fetch "$ROSTER" submissions --snapshots snapshots; else .venv/bin/autograder fetch "$ROSTER" submissions; fi':
    "classroom/test_fetch.py::test_lateness_is_what_the_server_had_when (both forms)",
  '.venv/bin/autograder snapshot "$ROSTER" snapshots': "classroom/test_fetch.py::test_lateness_is_what_the_server_had_when",
  'git add snapshots && git -c user.name=grade-class -c user.email=grade-class@users.noreply.github.com commit -qm "snapshot of the learners\' refs" && git push':
    "a commit of the snapshot file (git)",
  '.venv/bin/autograder grade-all submissions --out gradebook --reference-only': "classroom/test_shards.py::test_shards_merge_into_the_unsharded_gradebook",
  'tar -cf submissions.tar submissions': "classroom/test_shards.py::test_shards_merge_into_the_unsharded_gradebook (runs it)",
  'tar -xf submissions.tar': "classroom/test_shards.py::test_shards_merge_into_the_unsharded_gradebook (runs it)",
  '.venv/bin/python -m autograder.shard "$SHARDS" >> "$GITHUB_OUTPUT"': "classroom/test_shards.py::test_the_matrix_step_prints_the_shards",
  '.venv/bin/autograder grade-all submissions --out gradebook --shard "$SHARD" --jobs 2 --require-sandbox || test $? -eq 1':
    "classroom/test_shards.py::test_shards_merge_into_the_unsharded_gradebook; exit 1: classroom/test_grade_all.py::test_grade_all_exits_nonzero_and_names_a_learner_whose_grading_failed",
  '.venv/bin/autograder merge shards/* --out gradebook --summary "$GITHUB_STEP_SUMMARY"': "classroom/test_shards.py::test_shards_merge_into_the_unsharded_gradebook",
  '.venv/bin/autograder stats gradebook --summary "$GITHUB_STEP_SUMMARY"': "classroom/test_gradebook.py::test_item_analysis",
  '.venv/bin/autograder export-grades gradebook --format canvas --roster "$ROSTER"': "classroom/test_gradebook.py::test_grades_for_the_lms",
  '.venv/bin/autograder similarity submissions --out gradebook/similarity': "classroom/test_similarity.py::test_similarity_finds_the_planted_pair",
  '.venv/bin/autograder regrade previous submissions --out gradebook --shard "$SHARD" --jobs 2 --require-sandbox': "classroom/test_regrade.py::test_a_sharded_regrade_merges_into_the_unsharded_one",
  '.venv/bin/autograder canary --tinygrad latest --out canary --summary "$GITHUB_STEP_SUMMARY"': "authoring/test_canary.py::test_the_canary_reports_what_a_release_breaks",
}

@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_workflows_are_valid_and_run_only_tested_commands(workflow):
  done = subprocess.run([str(Path(sys.executable).parent / "check-jsonschema"), "--builtin-schema", "vendor.github-workflows", str(workflow)],
                        capture_output=True, text=True)
  assert done.returncode == 0, done.stdout + done.stderr
  flow = yaml.safe_load(workflow.read_text())
  assert flow["permissions"] == {"contents": "read"}
  for job in flow["jobs"].values():
    assert job.get("timeout-minutes")
    for step in job["steps"]:
      if "run" in step: assert step["run"].strip() in EXERCISED, f"{workflow.name} runs an untested command: {step['run']}"
      if "secrets." in str(step): assert re.match(r"(if \[ -d snapshots \]; then )?\.venv/bin/autograder (fetch|snapshot) ", step.get("run", "")), f"a secret outside the fetch and snapshot steps: {step}"
