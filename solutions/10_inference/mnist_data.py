"""Read the MNIST IDX files that ship with the workbook (numpy and gzip only, no network).

The data folder is `$WORKBOOK_DATA` when that is set (the grader sets it, because grading runs the notebook in a
temporary copy of the module folder), else `<repository root>/data`, found from this file's place
(`solutions/04_mnist/` or `projects/04_mnist/`). The four files are `data/mnist/*-ubyte.gz`; see
`data/mnist/README.md` for their provenance and licence.

Every read is checked: the gzip stream (truncated or corrupted files fail there), the IDX header (magic number,
sizes), the exact payload length, and the MD5 sum of the decompressed bytes against the published one. Any problem
raises `MnistFileError` naming the file; a wrong array is never returned.
"""
from __future__ import annotations
import gzip, hashlib, os, zlib
from pathlib import Path
import numpy as np

# MD5 of the *decompressed* files, as published with the original release.
MD5 = {"train-images-idx3-ubyte": "6bbc9ace898e44ae57da46a324031adb",
       "train-labels-idx1-ubyte": "a25bea736e30d166cdddb491f175f624",
       "t10k-images-idx3-ubyte": "2646ac647ad5339dbf082846283269ea",
       "t10k-labels-idx1-ubyte": "27ae3e4e09519cfbb04c329615203637"}
FILES = {("train", "images"): "train-images-idx3-ubyte", ("train", "labels"): "train-labels-idx1-ubyte",
         ("test", "images"): "t10k-images-idx3-ubyte", ("test", "labels"): "t10k-labels-idx1-ubyte"}
COUNTS = {"train": 60000, "test": 10000}
MAGIC = {"images": 2051, "labels": 2049}                  # 0x00000803: unsigned bytes, 3 dims; 0x00000801: 1 dim

class MnistFileError(ValueError):
  """A data file is missing, truncated, corrupted or not the published MNIST file. The message names the file."""

def data_dir() -> Path:
  """The folder that holds `mnist/`: $WORKBOOK_DATA, else the repository's `data/`."""
  env = os.environ.get("WORKBOOK_DATA")
  return Path(env) if env else Path(__file__).resolve().parents[2] / "data"

def file_path(split:str, kind:str) -> Path:
  """The .gz file of `split` ('train' or 'test') and `kind` ('images' or 'labels')."""
  if (split, kind) not in FILES: raise ValueError(f"split must be 'train' or 'test' and kind 'images' or 'labels', got {split!r}, {kind!r}")
  return data_dir() / "mnist" / f"{FILES[(split, kind)]}.gz"

def read_idx(path:Path|str, expected_md5:str|None=None) -> np.ndarray:
  """The uint8 array in an IDX file compressed with gzip, checked as the module docstring says.
  `expected_md5` (of the decompressed bytes) is checked when given."""
  path = Path(path)
  if not path.is_file(): raise MnistFileError(f"{path}: no such file (the MNIST data belongs in <repository>/data/mnist, or set WORKBOOK_DATA)")
  try:
    with gzip.open(path, "rb") as f: raw = f.read()
  except (OSError, EOFError, zlib.error) as e:     # gzip.BadGzipFile is an OSError; a truncated stream gives EOFError
    raise MnistFileError(f"{path}: not a readable gzip file ({type(e).__name__}: {e}); it is truncated or corrupted") from None
  if len(raw) < 8: raise MnistFileError(f"{path}: {len(raw)} bytes after decompression, too short for an IDX header")
  magic, ndim = int.from_bytes(raw[0:4], "big"), raw[3]
  if raw[0] != 0 or raw[1] != 0 or raw[2] != 0x08 or ndim not in (1, 3):
    raise MnistFileError(f"{path}: bad IDX magic number {magic:#010x} (expected 0x00000801 for labels or 0x00000803 for images)")
  header = 4 + 4 * ndim
  if len(raw) < header: raise MnistFileError(f"{path}: {len(raw)} bytes after decompression, too short for its {header}-byte header")
  dims = tuple(int.from_bytes(raw[4 + 4*i:8 + 4*i], "big") for i in range(ndim))
  size = int(np.prod(dims))
  if len(raw) - header != size:
    raise MnistFileError(f"{path}: the header announces {dims} = {size} bytes of data but the file holds {len(raw) - header}; it is truncated or corrupted")
  if expected_md5 is not None and (got := hashlib.md5(raw).hexdigest()) != expected_md5:
    raise MnistFileError(f"{path}: MD5 of the decompressed data is {got}, expected {expected_md5}: not the published MNIST file (corrupted?)")
  return np.frombuffer(raw, dtype=np.uint8, offset=header).reshape(dims)

def load(split:str, kind:str) -> np.ndarray:
  """Images (N, 28, 28) or labels (N,) of `split`, uint8, checked against the published MD5 sums."""
  path = file_path(split, kind)
  arr = read_idx(path, MD5[FILES[(split, kind)]])
  want = (COUNTS[split], 28, 28) if kind == "images" else (COUNTS[split],)
  if arr.shape != want or (kind == "labels") != (arr.ndim == 1):
    raise MnistFileError(f"{path}: shape {arr.shape}, expected {want}")
  return arr

def load_images(split:str) -> np.ndarray: return load(split, "images")
def load_labels(split:str) -> np.ndarray: return load(split, "labels")
