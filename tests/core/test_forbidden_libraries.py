"""Issue 44, item 1: a module's forbidden libraries are not in a learner's graded run. The sandbox covers their files
(package folders, module files, compiled copies, distribution metadata) with a stub that raises ModuleNotFoundError,
at every path the view binds them; a test cell marked `needs_libraries` runs in a kernel of its own where they are
present. gguf and tinygrad.llm.gguf stand for any library: installed, small, and used by no other test here."""
import json, shutil, subprocess, sys
import nbformat
import pytest
from autograder.cli import main
from autograder.core.cells import grade_id
from autograder.core.sandbox import available, command, library_files
from toy_course import edit, write_toy_course

needs_sandbox = pytest.mark.skipif(not available()[0], reason=f"no sandbox here: {available()[1]}")

def test_a_librarys_files_are_found_without_importing_it():
  found = library_files(["gguf", "tinygrad.llm.gguf"])
  names = {p.name for p in found}
  assert "gguf" in names and any(n.startswith("gguf-") and n.endswith(".dist-info") for n in names), found
  assert "gguf.py" in names and any(n.startswith("gguf.") and n.endswith(".pyc") for n in names), found   # tinygrad's module and its compiled copy

@needs_sandbox
def test_the_sandbox_hides_a_librarys_files_at_every_path(tmp_path):
  run, work = tmp_path / "run", tmp_path / "run" / "work"
  work.mkdir(parents=True)
  code = ("import importlib, importlib.metadata, os, sys\n"
          "for name in ['gguf', 'tinygrad.llm.gguf', 'numpy', 'tinygrad']:\n"
          "    try: importlib.import_module(name); print(name, 'imported')\n"
          "    except ImportError as e: print(name, type(e).__name__, 'forbidden_libraries' in str(e))\n"
          "print('version', importlib.metadata.version('gguf'))\n"
          "import numpy; site = os.path.dirname(os.path.dirname(numpy.__file__))\n"
          "print('listing', sorted(os.listdir(os.path.join(site, 'gguf'))))\n")
  done = subprocess.run(command(run, work, libraries=["gguf", "tinygrad.llm.gguf"]) + [sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
  lines = done.stdout.splitlines()
  assert "gguf ModuleNotFoundError True" in lines and "tinygrad.llm.gguf ModuleNotFoundError True" in lines, done
  assert "numpy imported" in lines and "tinygrad imported" in lines, done
  assert "version None" in lines and "listing ['__init__.py']" in lines, done            # no metadata, no file of the library

def toy_forbidding_gguf(tmp_path):
  """The toy course whose module forbids gguf, with test_square needing it (its input imports it)."""
  source = write_toy_course(tmp_path, modules=("01_toy",))
  def forbid(cells):
    for c in cells:
      if grade_id(c) == "test_square":                     # its input needs the library: it runs where the library is
        c.source = "import gguf\n" + c.source
        c.metadata["autograder"] = {"needs_libraries": True}
    return cells
  edit(source, forbid)
  path = source / "01_toy" / "01_toy.ipynb"
  nb = nbformat.read(str(path), as_version=4)
  nb.metadata["autograder"]["forbidden_libraries"] = ["gguf"]
  nbformat.write(nb, str(path))
  return source

@needs_sandbox
def test_a_forbidden_library_is_absent_from_the_learners_run_but_not_from_a_test_that_needs_it(tmp_path):
  source = toy_forbidding_gguf(tmp_path)
  assert main(["grade", str(source), "--source", str(source), "--json", str(tmp_path / "solution.json"), "--quiet"]) == 0
  solution = json.loads((tmp_path / "solution.json").read_text())["modules"][0]
  assert solution["score"] == solution["max_score"] == 5 and solution["flags"] == [], solution
  submission = tmp_path / "submission"
  shutil.copytree(source, submission)
  edit(submission, lambda cells: [c if grade_id(c) != "ans_double" else
                                  nbformat.v4.new_code_cell("import gguf\ndef double(x):\n    return 2 * x\n", metadata=c.metadata) for c in cells])
  assert main(["grade", str(submission), "--source", str(source), "--json", str(tmp_path / "r.json"), "--quiet"]) == 0
  result = json.loads((tmp_path / "r.json").read_text())["modules"][0]
  tests = {t["id"]: t for t in result["tests"]}
  assert tests["test_double"]["score"] == 0 and tests["test_square"]["score"] == 3, tests
  assert "forbidden library" in {f["rule"] for f in result["flags"]}, result["flags"]

def test_the_self_check_says_when_an_answer_imports_a_library_grading_hides(tmp_path):
  from autograder.learner.selfcheck import library_notes
  source = write_toy_course(tmp_path, modules=("01_toy",))
  nb = nbformat.read(str(source / "01_toy" / "01_toy.ipynb"), as_version=4)
  nb.metadata["autograder"]["forbidden_libraries"] = ["gguf", "tinygrad.llm.gguf"]
  for c in nb.cells:
    if grade_id(c) == "test_square": c.metadata["autograder"] = {"needs_libraries": True}
  answers = {"ans_double": "import gguf\nfrom tinygrad.llm.gguf import ggml_data_to_tensor\n", "ans_square": "import gguf\n"}
  notes = library_notes(nb, answers)
  assert len(notes) == 1 and "ans_double imports gguf, tinygrad.llm.gguf" in notes[0], notes      # square's test needs them

def test_without_a_sandbox_an_import_hook_stands_in(tmp_path, monkeypatch):
  """No bubblewrap (AUTOGRADER_SANDBOX=off): the checks' import hook refuses the forbidden libraries in the learner's
  run. Not a barrier (the answer's process can remove it): the report's `sandbox` says there was none."""
  source = write_toy_course(tmp_path, modules=("01_toy",))
  path = source / "01_toy" / "01_toy.ipynb"
  nb = nbformat.read(str(path), as_version=4)
  nb.metadata["autograder"]["forbidden_libraries"] = ["gguf"]
  nbformat.write(nb, str(path))
  submission = tmp_path / "submission"
  shutil.copytree(source, submission)
  edit(submission, lambda cells: [c if grade_id(c) != "ans_double" else
                                  nbformat.v4.new_code_cell("import gguf\ndef double(x):\n    return 2 * x\n", metadata=c.metadata) for c in cells])
  monkeypatch.setenv("AUTOGRADER_SANDBOX", "off"); available.cache_clear()
  try: assert main(["grade", str(submission), "--source", str(source), "--json", str(tmp_path / "r.json"), "--quiet"]) == 0
  finally: monkeypatch.delenv("AUTOGRADER_SANDBOX"); available.cache_clear()
  result = json.loads((tmp_path / "r.json").read_text())["modules"][0]
  assert result["sandbox"].startswith("none")
  assert {t["id"]: t["score"] for t in result["tests"]} == {"test_double": 0, "test_square": 3}, result["tests"]

@needs_sandbox
def test_a_mutation_session_runs_the_tests_that_need_the_libraries_in_their_own_kernel(tmp_path):
  """The session's control is the solution graded (tests/modules/test_mutants.py): its kernels are grading's, the
  libraries hidden but in the kernel of the tests that need them. A mutant that imports the library is caught where it
  is hidden; a wrong answer whose test needs the library is caught there."""
  from autograder.authoring.mutants import run
  from autograder.core.module import Module
  source = toy_forbidding_gguf(tmp_path)
  mutants = tmp_path / "01_toy.py"
  mutants.write_text('MUTANTS = [{"name": "double imports the library", "target": "ans_double", "old": "return 1 * x // 1 * 2", '
                     '"new": "import gguf\\n    return 1 * x // 1 * 2"},\n'
                     '{"name": "square adds", "target": "ans_square", "old": "return x * x", "new": "return x + x"}]\n')
  result = run(Module("01_toy", source), mutants)
  assert result["status"] == "completed" and not result["control"], result
  assert result["solution_seconds"] is not None and 0 < result["solution_seconds"] < result["seconds"]
  by_name = {m["name"]: m for m in result["mutants"]}
  assert by_name["double imports the library"]["caught"] and list(by_name["double imports the library"]["tests"]) == ["test_double"], by_name
  assert by_name["square adds"]["caught"] and by_name["square adds"]["tests"] == {"test_square": "failed"}, by_name
