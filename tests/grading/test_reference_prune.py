"""The reference cache keeps the few most recently used versions of each module, not every version ever graded."""
import fcntl, os, time
from autograder.core.runs import prune

def _version(folder, module, key, age, visible=False):
  stem = f"{module}-{key:020x}{'-visible' if visible else ''}"
  for part in (".json", ".db", ".db-wal", ".lock"): (folder / f"{stem}{part}").write_text("x")
  t = time.time() - age
  os.utime(folder / f"{stem}.json", (t, t))
  return stem

def test_prune_keeps_the_most_recently_used_versions_of_one_module_and_kind(tmp_path):
  stems = [_version(tmp_path, "03_autograd", k, age=100 * k) for k in range(6)]          # k=0 newest
  visible = [_version(tmp_path, "03_autograd", k, age=1000 + k, visible=True) for k in range(6)]
  other = [_version(tmp_path, "03_autograd_extra", k, age=5000 + k) for k in range(6)]      # a longer name, same prefix
  prune(tmp_path, "03_autograd", visible=False, keep=2)
  left = {p.name for p in tmp_path.iterdir()}
  assert all(f"{s}.json" in left and f"{s}.db" in left for s in stems[:2])
  assert not any(n.split(".")[0] == s for s in stems[2:] for n in left)
  assert all(f"{s}.json" in left for s in visible + other)

def test_prune_leaves_a_version_whose_lock_a_grader_holds(tmp_path):
  stems = [_version(tmp_path, "03_autograd", k, age=100 * k) for k in range(3)]
  with open(tmp_path / f"{stems[2]}.lock", "w") as held:
    fcntl.flock(held, fcntl.LOCK_EX)
    prune(tmp_path, "03_autograd", visible=False, keep=1)
  left = {p.name for p in tmp_path.iterdir()}
  assert f"{stems[2]}.json" in left and f"{stems[1]}.json" not in left

def test_prune_keeps_each_device_apart(tmp_path):
  native = [_version(tmp_path, "10_inference", k, age=100 * k) for k in range(3)]
  second = [_version(tmp_path, "10_inference-CPU_x86_64_x86_64_v3", k, age=10 * k) for k in range(3)]   # newer, another device
  prune(tmp_path, "10_inference", visible=False, keep=2, tag="")
  left = {p.name for p in tmp_path.iterdir()}
  assert all(f"{s}.json" in left for s in native[:2] + second) and f"{native[2]}.json" not in left
  prune(tmp_path, "10_inference", visible=False, keep=1, tag="-CPU_x86_64_x86_64_v3")
  left = {p.name for p in tmp_path.iterdir()}
  assert f"{second[0]}.json" in left and f"{second[1]}.json" not in left and f"{native[1]}.json" in left
