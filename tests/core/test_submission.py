"""core/assemble.py's reading of a learner's module folder (read_submission), the one reading grading and grade-all's
resume share: what it takes, what it refuses and why (a module folder over the cap on files, a notebook over the size
limit), the answer files it could not read, and the digest that stands for all of it."""
import dataclasses, os, shutil
import pytest
from autograder.core import files
from autograder.core.assemble import Submission, read_submission
from autograder.core.module import Module
from toy_course import HELPER, write_toy_course

@pytest.fixture
def toy(tmp_path):
  source = write_toy_course(tmp_path, modules=("01_toy",), answer_file=True)
  shutil.copytree(source, tmp_path / "subs")
  return Module("01_toy", source), tmp_path / "subs"

def test_what_is_read(toy):
  module, subs = toy
  (subs / "01_toy" / "hints_opened.json").write_text("{}"); (subs / "01_toy" / os.fsdecode(b"notes-\xff.txt")).write_text("n")
  got = read_submission(module, subs)
  assert got == Submission((subs / "01_toy" / "01_toy.ipynb").read_bytes(), {"helper.py": HELPER.encode()}, "", b"{}", "", [])

def test_a_folder_over_the_cap_is_refused_unread(toy, monkeypatch):
  module, subs = toy
  monkeypatch.setattr(files, "MAX_ENTRIES", 3)
  assert read_submission(module, subs).refused == ""                           # the notebook and helper.py: 2
  for i in range(2): (subs / "01_toy" / f"f{i}").touch()
  assert read_submission(module, subs) == Submission(refused=(
    "the folder 01_toy holds more than 3 files and folders, the most a module folder may hold, so it was not read: remove what the module "
    "does not need (data, environments, outputs) and submit again"))

def test_a_notebook_over_the_size_limit_is_refused_and_one_at_it_read(toy, monkeypatch):
  module, subs = toy
  nb = subs / "01_toy" / "01_toy.ipynb"
  monkeypatch.setattr(files, "MAX_FILE_BYTES", nb.stat().st_size)
  assert read_submission(module, subs).notebook_text == nb.read_bytes()
  nb.write_bytes(nb.read_bytes() + b" ")
  got = read_submission(module, subs)
  assert (got.notebook_text, got.missing, got.refused) == (None, "", "cannot read 01_toy.ipynb: it is larger than 0 MiB, the most the grader reads")

def test_a_missing_or_linked_notebook_is_missing(toy, tmp_path):
  module, subs = toy
  nb = subs / "01_toy" / "01_toy.ipynb"
  nb.rename(tmp_path / "elsewhere.ipynb")
  assert read_submission(module, subs).missing == "no notebook at 01_toy/01_toy.ipynb"
  nb.symlink_to(tmp_path / "elsewhere.ipynb")
  assert read_submission(module, subs).missing == "no notebook at 01_toy/01_toy.ipynb (a symbolic link is not followed)"

def test_an_answer_file_not_read_is_named_with_why(toy, tmp_path, monkeypatch):
  module, subs = toy
  helper = subs / "01_toy" / "helper.py"
  helper.unlink(); helper.symlink_to(tmp_path / "solutions" / "01_toy" / "helper.py")
  assert read_submission(module, subs).unread == ["helper.py (a symbolic link is not followed)"]
  helper.unlink(); helper.mkdir()
  assert read_submission(module, subs).unread == ["helper.py (it is not a regular file)"]
  helper.rmdir()
  assert read_submission(module, subs).unread == [] and read_submission(module, subs).files == {}      # absent: nothing to say

def test_the_digest_covers_every_field():
  """grade-all keeps a report while the digest is unchanged: every field counts, a field added later too, and no two
  readings share a digest by running one field into the next."""
  base = Submission(b"nb", {"a.py": b"x"}, "", b"{}", "", [])
  other = {"notebook_text": None, "files": {"a.py": b"y"}, "missing": "no notebook", "opened_hints": None, "refused": "too many", "unread": ["a.py (why)"]}
  assert set(other) == {f.name for f in dataclasses.fields(Submission)}
  digests = {base.digest()} | {dataclasses.replace(base, **{k: v}).digest() for k, v in other.items()}
  assert len(digests) == 1 + len(other) and base.digest() == Submission(b"nb", {"a.py": b"x"}, "", b"{}", "", []).digest()
  assert Submission(files={"ab": b"c"}).digest() != Submission(files={"a": b"bc"}).digest()
  assert Submission(missing=os.fsdecode(b"\xff")).digest() != Submission(missing="").digest()     # (text no file can hold: still a digest)
