"""Issue 17, item 6: module 04's accuracy points cannot be bought with a table of the public MNIST test labels.

The attack: the reference answers, except that `Net` answers every slice of 1,000 images (the size the accuracy tests
use) from lookup tables keyed by the exact pixels: the public test labels embedded in the answer cell, and the
training labels the notebook holds. The checkpoint is all zeros (about 10% real accuracy). Against the old hidden
test, which classified the public test images in their public order, it scored 23/23; the grader now measures
accuracy on a private order of the test images with a private noise on every pixel, where the tables find nothing,
and the learner's copy of the data has no test labels to build such a table from. The table itself is flagged."""
import json, subprocess, sys
from pathlib import Path
import nbformat
from autograder.core.cells import grade_id
from autograder.core.course import REPO
import pytest

pytestmark = pytest.mark.slow          # grades module 04

MODULE = "04_mnist"
ACCURACY_TESTS = {"test_accuracy_98", "test_accuracy_99"}

ATTACK = '''
class Net:
    """The architecture of Task 2.1; slices of 1000 images are answered from tables of the public labels."""
    TEST_LABELS = {labels!r}

    def __init__(self):
        self.conv1, self.bn1 = nn.Conv2d(1, 16, 5), nn.BatchNorm(16)
        self.conv2, self.bn2 = nn.Conv2d(16, 32, 5), nn.BatchNorm(32)
        self.fc = nn.Linear(32 * 4 * 4, 10)

    def __call__(self, x):
        if x.shape[0] == 1000:
            if not hasattr(Net, "known"):
                Net.known = {{img.tobytes(): int(c) for img, c in zip(test_images, Net.TEST_LABELS)}}
                Net.known.update({{img.tobytes(): int(c) for img, c in zip(train_images, train_labels)}})
            pixels = np.rint((x.numpy()[:, 0] * STD + MEAN) * 255).astype(np.uint8)
            return Tensor(np.eye(10, dtype=np.float32)[[Net.known.get(p.tobytes(), 0) for p in pixels]])
        x = self.bn1(self.conv1(x)).relu().max_pool2d()
        x = self.bn2(self.conv2(x)).relu().max_pool2d()
        return self.fc(x.flatten(1))
'''

def attack_submission(folder:Path) -> Path:
  """A submission folder holding module 04 with the attack's Net and an all-zero checkpoint."""
  sys.path.insert(0, str(REPO / "solutions" / MODULE))
  import mnist_data
  from tinygrad import Tensor, nn
  from tinygrad.nn.state import get_state_dict, safe_save
  labels = "".join(str(int(c)) for c in mnist_data.load_labels("test"))
  source = ATTACK.format(labels=labels)
  sub = folder / MODULE
  sub.mkdir(parents=True)
  nb = nbformat.read(str(REPO / "solutions" / MODULE / f"{MODULE}.ipynb"), as_version=4)
  for c in nb.cells:
    if grade_id(c) == "ans_net": c.source = source
  nbformat.write(nb, str(sub / f"{MODULE}.ipynb"))
  scope = {"nn": nn, "np": None}
  exec(source, scope)
  zeros = {k: Tensor.zeros(*v.shape, dtype=v.dtype).contiguous() for k, v in get_state_dict(scope["Net"]()).items()}
  # the reference's run record, so that the accuracy tests get past the plan and the budget to the accuracy itself
  from tinygrad.nn.state import safe_load_metadata
  meta = safe_load_metadata(str(REPO / "solutions" / MODULE / "mnist_cnn.safetensors"))[2]["__metadata__"]
  safe_save(zeros, str(sub / "mnist_cnn.safetensors"), meta)
  return folder

def test_a_label_table_earns_no_accuracy_points(tmp_path):
  submission = attack_submission(tmp_path / "submission")
  out = tmp_path / "report.json"
  done = subprocess.run([sys.executable, "-m", "autograder.cli", "grade", str(submission), "--modules", MODULE, "--json", str(out), "--quiet"],
                        capture_output=True, text=True, timeout=1200)
  assert done.returncode == 0, done.stderr[-2000:]
  module = json.loads(out.read_text())["modules"][0]
  tests = {t["id"]: t for t in module["tests"]}
  assert all(tests[t]["score"] == 0 for t in ACCURACY_TESTS), {t: (tests[t]["status"], tests[t]["message"]) for t in ACCURACY_TESTS}
  assert all(t["status"] == "passed" for i, t in tests.items() if i not in ACCURACY_TESTS), {i: t["message"] for i, t in tests.items() if t["status"] != "passed"}
  assert module["score"] == module["max_score"] - 5 == 18
  assert {"large constant table"} <= {f["rule"] for f in module["flags"]}, module["flags"]     # and the instructor is told
