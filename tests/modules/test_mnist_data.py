"""The MNIST files in data/mnist and their loader: the published MD5 sums, and a clear error naming the file for a
truncated or corrupted file (never a silently wrong array)."""
import gzip, hashlib, importlib.util
from pathlib import Path
import numpy as np
import pytest
from autograder.core.course import REPO

DATA = REPO / "data" / "mnist"
PUBLISHED_MD5 = {"train-images-idx3-ubyte": "6bbc9ace898e44ae57da46a324031adb",      # README.md in data/mnist
                 "train-labels-idx1-ubyte": "a25bea736e30d166cdddb491f175f624",
                 "t10k-images-idx3-ubyte": "2646ac647ad5339dbf082846283269ea",
                 "t10k-labels-idx1-ubyte": "27ae3e4e09519cfbb04c329615203637"}

def _loader(folder:str):
  spec = importlib.util.spec_from_file_location(f"mnist_data_{folder}", REPO / folder / "04_mnist" / "mnist_data.py")
  mod = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(mod)
  return mod

@pytest.fixture(scope="module")
def mnist_data(): return _loader("solutions")

@pytest.mark.parametrize("name", sorted(PUBLISHED_MD5))
def test_files_have_the_published_md5(name):
  with gzip.open(DATA / f"{name}.gz", "rb") as f: raw = f.read()
  assert hashlib.md5(raw).hexdigest() == PUBLISHED_MD5[name]

def test_readme_gives_provenance_and_licence():
  text = (DATA / "README.md").read_text()
  for word in ["LeCun", "MD5", "Licence", "Creative Commons"]: assert word in text
  for md5 in PUBLISHED_MD5.values(): assert md5 in text

def test_loader_knows_the_published_md5(mnist_data):
  assert mnist_data.MD5 == PUBLISHED_MD5

def test_loader_reads_all_four_files(mnist_data, monkeypatch):
  monkeypatch.delenv("WORKBOOK_DATA", raising=False)
  assert mnist_data.data_dir() == REPO / "data"
  for split, n in [("train", 60000), ("test", 10000)]:
    x, y = mnist_data.load_images(split), mnist_data.load_labels(split)
    assert x.shape == (n, 28, 28) and x.dtype == np.uint8 and y.shape == (n,) and y.dtype == np.uint8
    assert y.max() == 9 and len(np.unique(y)) == 10
  assert mnist_data.load_labels("train")[:10].tolist() == [5, 0, 4, 1, 9, 2, 1, 3, 1, 4]
  assert mnist_data.load_labels("test")[:10].tolist() == [7, 2, 1, 0, 4, 1, 4, 9, 5, 9]

def test_the_released_loader_is_the_same_file():
  assert (REPO / "projects" / "04_mnist" / "mnist_data.py").read_bytes() == (REPO / "solutions" / "04_mnist" / "mnist_data.py").read_bytes()

def test_workbook_data_moves_the_folder(mnist_data, monkeypatch, tmp_path):
  (tmp_path / "mnist").mkdir()
  monkeypatch.setenv("WORKBOOK_DATA", str(tmp_path))
  assert mnist_data.data_dir() == tmp_path
  with pytest.raises(mnist_data.MnistFileError, match="train-labels-idx1-ubyte.gz: no such file"):
    mnist_data.load_labels("train")

def _copy_with(tmp_path, monkeypatch, name:str, data:bytes) -> Path:
  """A data folder holding the real label files (small), and `data` as `name`.gz."""
  (tmp_path / "mnist").mkdir(exist_ok=True)
  for f in DATA.glob("*labels*.gz"): (tmp_path / "mnist" / f.name).write_bytes(f.read_bytes())
  (tmp_path / "mnist" / f"{name}.gz").write_bytes(data)
  monkeypatch.setenv("WORKBOOK_DATA", str(tmp_path))
  return tmp_path / "mnist" / f"{name}.gz"

def _decompressed(name:str) -> bytes:
  with gzip.open(DATA / f"{name}.gz", "rb") as f: return f.read()

BAD = {
  "gzip cut in half": lambda gz, raw: gz[:len(gz) // 2],
  "gzip missing its last byte": lambda gz, raw: gz[:-1],
  "a flipped byte inside the gzip stream": lambda gz, raw: gz[:len(gz) // 2] + bytes([gz[len(gz) // 2] ^ 0xFF]) + gz[len(gz) // 2 + 1:],
  "not gzip at all": lambda gz, raw: b"this is not a gzip file\n" * 10,
  "empty": lambda gz, raw: b"",
  "valid gzip of a truncated IDX file": lambda gz, raw: gzip.compress(raw[:len(raw) - 100], compresslevel=1),
  "valid gzip of an IDX file with extra bytes": lambda gz, raw: gzip.compress(raw + b"\0" * 28, compresslevel=1),
  "valid gzip of a wrong magic number": lambda gz, raw: gzip.compress(b"\x00\x00\x08\x05" + raw[4:], compresslevel=1),
  "valid gzip of a changed pixel (MD5)": lambda gz, raw: gzip.compress(raw[:5000] + bytes([raw[5000] ^ 1]) + raw[5001:], compresslevel=1),
  "valid gzip of a header only": lambda gz, raw: gzip.compress(raw[:6], compresslevel=1),
}

@pytest.mark.parametrize("what", sorted(BAD))
@pytest.mark.parametrize("name,split,kind", [("t10k-images-idx3-ubyte", "test", "images"), ("train-labels-idx1-ubyte", "train", "labels")])
def test_a_bad_file_is_a_clear_error_naming_it(mnist_data, tmp_path, monkeypatch, what, name, split, kind):
  bad = BAD[what]((DATA / f"{name}.gz").read_bytes(), _decompressed(name))
  path = _copy_with(tmp_path, monkeypatch, name, bad)
  with pytest.raises(mnist_data.MnistFileError) as err:
    mnist_data.load(split, kind)
  assert str(path) in str(err.value)
  assert isinstance(err.value, ValueError)
  other = "train" if split == "test" else "test"
  assert mnist_data.load_labels(other).shape == ((60000,) if other == "train" else (10000,))   # the other files still load

def test_a_good_copy_loads_the_same_arrays(mnist_data, tmp_path, monkeypatch):
  name = "t10k-labels-idx1-ubyte"
  _copy_with(tmp_path, monkeypatch, name, gzip.compress(_decompressed(name)))     # recompressed: other gzip bytes, same data
  want = np.frombuffer(_decompressed(name), dtype=np.uint8, offset=8)
  assert np.array_equal(mnist_data.load_labels("test"), want)

def test_bad_arguments(mnist_data):
  with pytest.raises(ValueError, match="split must be"): mnist_data.load("validation", "images")
