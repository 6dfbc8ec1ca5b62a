"""core/files.py on its own: a file a learner controls is read only when it is a regular file inside the folder,
reached without a symbolic link (the folder's own included), not too large; every other case is None, never an
exception, and the descriptor is checked again after it is opened."""
import os
import pytest
from autograder.core import files
from autograder.core.files import read_safe, safe_file

@pytest.fixture
def folder(tmp_path):
  """root/ with a file, a nested file, a link to each, a linked folder, a folder and a FIFO; outside.txt beside it."""
  root = tmp_path / "root"
  (root / "sub").mkdir(parents=True)
  (root / "a.txt").write_bytes(b"alpha\n")
  (root / "sub" / "b.txt").write_bytes(b"beta")
  (tmp_path / "outside.txt").write_bytes(b"secret")
  (root / "link.txt").symlink_to(root / "a.txt")
  (root / "escape.txt").symlink_to(tmp_path / "outside.txt")
  (root / "linked").symlink_to(root / "sub")
  os.mkfifo(root / "pipe")
  return root

def test_a_regular_file_inside_is_read(folder):
  assert safe_file(folder, "a.txt") == folder / "a.txt" and read_safe(folder, "a.txt") == b"alpha\n"
  assert safe_file(folder, "sub/b.txt") == folder / "sub" / "b.txt" and read_safe(folder, "sub/b.txt") == b"beta"
  assert read_safe(str(folder), os.path.join("sub", "b.txt")) == b"beta"              # str arguments as well as paths
  (folder / "empty").write_bytes(b"")
  assert read_safe(folder, "empty") == b""

@pytest.mark.parametrize("relative", ["link.txt", "escape.txt", "linked/b.txt", "../outside.txt", "sub/../a.txt", "sub/../../outside.txt",
                                      "missing.txt", "sub/missing", "sub", "pipe", "a.txt/more"])
def test_anything_else_is_none(folder, relative):
  assert safe_file(folder, relative) is None and read_safe(folder, relative) is None

def test_an_absolute_path_is_none(folder):
  assert safe_file(folder, folder / "a.txt") is None and read_safe(folder, str(folder / "a.txt")) is None

def test_a_root_that_is_a_link_or_missing_is_none(folder, tmp_path):
  (tmp_path / "alias").symlink_to(folder)
  assert safe_file(tmp_path / "alias", "a.txt") is None and read_safe(tmp_path / "alias", "a.txt") is None
  assert safe_file(tmp_path / "nowhere", "a.txt") is None and read_safe(tmp_path / "nowhere", "a.txt") is None

def test_a_file_name_that_is_not_utf8_is_read(folder):
  name = os.fsdecode(b"caf\xe9.txt")                       # a byte a learner's file system allows, not UTF-8
  (folder / name).write_bytes(b"latin")
  assert safe_file(folder, name) == folder / name and read_safe(folder, name) == b"latin"

def test_the_size_limit_is_inclusive(folder, monkeypatch):
  monkeypatch.setattr(files, "MAX_FILE_BYTES", 5)
  (folder / "five").write_bytes(b"12345")
  assert read_safe(folder, "five") == b"12345"
  assert safe_file(folder, "a.txt") is None and read_safe(folder, "a.txt") is None     # 6 bytes

def test_the_descriptor_is_checked_again_after_the_check(folder, monkeypatch):
  """What was checked may be swapped before it is opened: a link is not followed and a FIFO not read (nor waited on)."""
  for swapped in ("link.txt", "pipe"):
    monkeypatch.setattr(files, "safe_file", lambda root, rel, path=folder / swapped: path)
    assert read_safe(folder, "a.txt") is None

def test_a_file_that_grows_past_the_limit_after_the_check_is_none(folder, monkeypatch):
  monkeypatch.setattr(files, "safe_file", lambda root, rel: folder / "a.txt")            # checked while it was small
  monkeypatch.setattr(files, "MAX_FILE_BYTES", 3)
  assert read_safe(folder, "a.txt") is None

@pytest.mark.parametrize("relative", [".", ""])
def test_a_path_with_no_part_is_none(folder, relative):
  assert safe_file(folder, relative) is None and read_safe(folder, relative) is None

def test_readable_is_what_grading_reads_the_limit_included(folder, monkeypatch):
  """One definition of what grading reads (read_safe, and so grade-all's resume through read_submission)."""
  monkeypatch.setattr(files, "MAX_FILE_BYTES", 6)
  assert files.readable(os.stat(folder / "a.txt")) and not files.readable(os.stat(folder / "sub")) and not files.readable(os.stat(folder / "pipe"))
  (folder / "seven").write_bytes(b"1234567")
  assert not files.readable(os.stat(folder / "seven")) and read_safe(folder, "seven") is None

def test_refusal_says_why_a_file_is_not_read(folder, monkeypatch):
  monkeypatch.setattr(files, "MAX_FILE_BYTES", 5)
  assert files.refusal(folder, "a.txt") == "it is larger than 0 MiB, the most the grader reads"          # 6 bytes
  monkeypatch.setattr(files, "MAX_FILE_BYTES", 64 << 20)
  assert files.refusal(folder, "a.txt") == files.refusal(folder, "missing.txt") == files.refusal(folder, "sub/missing") == ""
  assert files.refusal(folder, "link.txt") == files.refusal(folder, "linked/b.txt") == "a symbolic link is not followed"
  assert files.refusal(folder, "pipe") == files.refusal(folder, "sub") == files.refusal(folder, ".") == "it is not a regular file"

def test_too_many_counts_files_and_folders_and_stops_at_the_cap(folder, tmp_path):
  """root/ holds 7 entries (a.txt, sub, sub/b.txt, three links, pipe; linked/ is not followed); a deeper tree is
  counted down to its last file; the count stops at the cap."""
  assert files.too_many(folder, 7) == 0 and files.too_many(folder, 6) == 6
  deep = folder / "sub" / "x" / "y"; deep.mkdir(parents=True); (deep / "z").touch()
  assert files.too_many(folder, 10) == 0 and files.too_many(folder, 9) == 9
  assert files.too_many(tmp_path / "nowhere") == files.too_many(folder / "a.txt") == files.too_many(folder / "linked", 0) == 0
  assert files.too_many(folder) == 0 and files.MAX_ENTRIES == 10_000

def test_too_many_goes_past_a_path_too_long_to_open(tmp_path):
  fd = os.open(tmp_path, os.O_RDONLY)
  for _ in range(24):                                      # past PATH_MAX (4096): the walk cannot list the deepest folders
    os.mkdir("d" * 200, dir_fd=fd)
    inner = os.open("d" * 200, os.O_RDONLY, dir_fd=fd); os.close(fd); fd = inner
  os.close(fd)
  assert files.too_many(tmp_path, 100) == 0 and files.too_many(tmp_path, 5) == 5

def test_shown_writes_a_name_any_report_can_hold():
  assert files.shown("ada") == "ada" and files.shown("café") == "café" and files.shown("a\nb") == "a\nb"      # (escaping: each writer's)
  assert files.shown(os.fsdecode(b"caf\xe9")) == "caf\\xe9" and files.shown(os.fsdecode(b"notes-\xff.txt")) == "notes-\\xff.txt"
  assert files.shown("x\ud800") == "x\\ud800"              # a lone surrogate that no file system gives: escaped all the same
  assert files.shown(files.shown(os.fsdecode(b"\xff"))) == "\\xff"
