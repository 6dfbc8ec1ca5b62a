"""`autograder release`: the starters it writes, and `--check` naming the files that differ."""
import shutil
from autograder.cli import main
from toy_course import write_toy_course

def test_release_check_names_the_files_that_differ(tmp_path, capsys):
  source = write_toy_course(tmp_path)
  target = tmp_path / "projects"
  assert main(["release", "--source", str(source), "--target", str(target)]) == 0
  assert main(["release", "--check", "--source", str(source), "--target", str(target)]) == 0
  (target / "01_toy" / "01_toy.ipynb").write_text("{}")
  (target / "02_toy" / "notes.txt").write_text("mine")
  shutil.rmtree(target / "02_toy" / ".ipynb_checkpoints", ignore_errors=True)
  capsys.readouterr()
  assert main(["release", "--check", "--source", str(source), "--target", str(target)]) == 1
  out = capsys.readouterr().out
  assert "01_toy/01_toy.ipynb (differs)" in out and "02_toy/notes.txt (not written by release)" in out

def test_release_clears_solution_regions_in_starter_scripts(tmp_path):
  source = write_toy_course(tmp_path, modules=("01_toy",))
  (source / "01_toy" / "helper.py").write_text("def f():\n    ### BEGIN SOLUTION\n    return 42\n    ### END SOLUTION\n")
  assert main(["release", "--source", str(source), "--target", str(tmp_path / "projects")]) == 0
  assert (tmp_path / "projects" / "01_toy" / "helper.py").read_text() == "def f():\n    # YOUR CODE HERE\n    raise NotImplementedError()\n"

def test_a_module_is_replaced_whole_or_not_at_all(tmp_path, monkeypatch):
  """A module is written in a staging folder and renamed into place: a release that fails half-way leaves the module
  released before as it was (an export or a self-check during a release never reads half a module)."""
  import pytest
  from autograder.authoring import release
  source = write_toy_course(tmp_path, modules=("01_toy",))
  target = tmp_path / "projects"
  assert main(["release", "--source", str(source), "--target", str(target)]) == 0
  before = (target / "01_toy" / "01_toy.ipynb").read_text()
  (target / "01_toy" / "marker").write_text("the release before")
  def broken(*a, **k): raise RuntimeError("the reference run failed")
  monkeypatch.setattr(release, "cut_oracle", broken)
  with pytest.raises(RuntimeError): release.release_module(release.Module("01_toy", source), target)
  assert (target / "01_toy" / "marker").is_file() and (target / "01_toy" / "01_toy.ipynb").read_text() == before
  monkeypatch.undo()
  assert main(["release", "--source", str(source), "--target", str(target)]) == 0
  assert not (target / "01_toy" / "marker").exists() and (target / "01_toy" / "01_toy.ipynb").read_text() == before
  assert not list(tmp_path.glob(".release-staging-*")), "a staging folder was left behind"
