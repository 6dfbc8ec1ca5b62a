"""core.settings: one schema for `metadata.autograder`. Unknown keys and wrong types are refused by lint and release
with a clear message, readers fall back to the defaults, and the authoring page's table is the schema."""
import copy, json, re
import nbformat
import pytest
from autograder.cli import main
from autograder.core.course import REPO
from autograder.core.settings import KEYS, cell_setting, module_settings, problems
from toy_course import notebook, write_toy_course

def toy(**own) -> dict:
  nb = {"metadata": {"autograder": own}, "cells": [{"cell_type": "code", "source": "", "metadata": {"nbgrader": {"grade_id": "demo"}, "autograder": {}}}]}
  return nb

def test_defaults_and_values():
  assert module_settings({"metadata": {}}) == {k.name: k.default for k in KEYS.values() if k.level == "notebook"}
  assert module_settings(toy(cell_timeout=90, learner_files=["ckpt.safetensors"]))["learner_files"] == ["ckpt.safetensors"]
  cell = {"metadata": {"autograder": {"skip_grading": True}}}
  assert cell_setting(cell, "skip_grading") is True and cell_setting({"metadata": {}}, "isolated") is False
  for junk in (None, [], "x", {"autograder": None}, {"autograder": {"isolated": "yes"}}):   # never a crash, never a truthy string
    assert cell_setting({"metadata": junk}, "isolated") is False

@pytest.mark.parametrize("own, cell, said", [
  ({"skip_grade": True}, {}, "unknown key 'skip_grade' in metadata.autograder"),
  ({}, {"skip_grade": True}, "did you mean 'skip_grading'?"),
  ({"timeout": "120"}, {}, "metadata.autograder.timeout must be a positive number"),
  ({"cell_timeout": True}, {}, "cell_timeout must be a positive number"),
  ({"limits": {"memory_gb": 4}}, {}, "limits must be a table of positive whole numbers with keys among memory_mb"),
  ({"learner_files": "ckpt.safetensors"}, {}, "learner_files must be a list of strings"),
  ({}, {"isolated": 1}, "cell demo: metadata.autograder.isolated must be true or false"),
  ({"isolated": True}, {}, "unknown key 'isolated' in metadata.autograder (a cell setting, not a notebook one)"),
])
def test_problems_name_the_key_and_what_it_must_be(own, cell, said):
  nb = toy(**own)
  nb["cells"][0]["metadata"]["autograder"] = cell
  found = problems(nb)
  assert len(found) == 1 and said in found[0], found

def test_every_source_notebook_follows_the_schema():
  for path in sorted((REPO / "solutions").glob("*/*.ipynb")):
    assert problems(json.loads(path.read_text())) == [], path.name

def test_lint_and_release_refuse_an_unknown_key(tmp_path, capsys):
  source = write_toy_course(tmp_path, modules=("01_toy",))
  nb = nbformat.read(str(notebook(source)), as_version=4)
  nb.cells[1].metadata["autograder"] = {"skip_grade": True}
  nbformat.write(nb, str(notebook(source)))
  assert main(["lint", "--source", str(source)]) == 1
  assert "cell setup: unknown key 'skip_grade' in metadata.autograder (did you mean 'skip_grading'?)" in capsys.readouterr().out
  assert main(["release", "--source", str(source), "--target", str(tmp_path / "projects")]) == 2
  err = capsys.readouterr().err
  assert "refusing to release: 01_toy: cell setup: unknown key 'skip_grade'" in err and "Traceback" not in err
  assert not (tmp_path / "projects" / "01_toy").exists()

def test_the_authoring_page_table_is_the_schema():
  text = (REPO / "course" / "instructors" / "authoring.md").read_text()
  rows = re.findall(r"^\| `(\w+)` \| (notebook|cell) \| [^|]+ \| `([^`]*)` \| ([^|]+) \|$", text, re.M)
  assert {name: (level, json.loads(default), meaning.strip()) for name, level, default, meaning in rows} == \
         {k.name: (k.level, copy.deepcopy(k.default), k.meaning) for k in KEYS.values()}
