"""`autograder canary`: another tinygrad release in an environment of its own, the course's references and code
blocks run there, a report per module, task and page. Tested with a stand-in release (a wheel of a `tinygrad` with no
`Tensor`, version 0.99.0) found by pip in a local folder, over this environment's other packages (--overlay): the
toy course's tinygrad task breaks, its other tasks pass, and .venv is left as it was. The real run (0.13.0, a full
environment) is in course/instructors/upgrades.md."""
import importlib.metadata
import json
import sys
import zipfile
from pathlib import Path
import pytest
from nbformat.v4 import new_code_cell
from autograder.authoring import canary
from autograder.core.results import Outcome, from_json
from classes import cli
from toy_course import edit, meta, write_toy_course

FAKE = "0.99.0"
TINY_TEST = "from tinygrad import Tensor\ncheck_equal(Tensor([1, 2]).sum().item(), 3, name='sum of [1, 2]')"
PAGE = """# A page

```python
import tinygrad
print("imported")
```

```output
imported
```

```python
from tinygrad import Tensor
```

```python
import importlib.metadata
print(importlib.metadata.version("tinygrad"))
```

```output
0.14.0
```

<!-- test: needs-gpu a block that needs a GPU to run -->
```python
Tensor([1]).to("CUDA")
```
"""

def stand_in_release(folder:Path, version:str=FAKE) -> Path:
  """A wheel of a `tinygrad` that has no Tensor: what a release that moved an API looks like to the course."""
  dist = f"tinygrad-{version}.dist-info"
  files = {"tinygrad/__init__.py": '"""A stand-in tinygrad release for the canary\'s test."""\n',
           f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: tinygrad\nVersion: {version}\n",
           f"{dist}/WHEEL": "Wheel-Version: 1.0\nGenerator: test_canary\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
  folder.mkdir(parents=True, exist_ok=True)
  with zipfile.ZipFile(folder / f"tinygrad-{version}-py3-none-any.whl", "w") as z:
    for name, text in files.items(): z.writestr(name, text)
    z.writestr(f"{dist}/RECORD", "".join(f"{n},,\n" for n in [*files, f"{dist}/RECORD"]))
  return folder

def test_pins_keep_everything_but_tinygrad():
  got = canary.pins("0.13.0")
  assert got[0] == "tinygrad==0.13.0" and "torch==2.13.0" in got and not [p for p in got[1:] if p.startswith("tinygrad")]
  assert len(got) == len(canary.tomllib.loads((canary.REPO / "pyproject.toml").read_text())["project"]["dependencies"])
  assert canary.pinned_version() == importlib.metadata.version("tinygrad")

def test_a_test_of_the_reference_run_is_read_as_passes_fails_errors_or_skipped():
  ok = {"state": "ran", "error": None, "observations": [{"ok": True, "hidden": False}]}
  hidden = {"state": "ran", "error": ("CheckFailed", "x: expected 1, got 2\nmore"), "observations": [{"ok": True}, {"ok": False, "hidden": True}]}
  api = {"state": "ran", "error": ("AttributeError", "type object 'Tensor' has no attribute 'realize_all'"), "observations": []}
  gone = {"state": "ran", "error": ("NameError", "name 'Tensor' is not defined"), "observations": []}
  setup = [{"cell": "setup", "error": ("ImportError", "cannot import name 'Tensor' from 'tinygrad'")}]
  assert canary.verdict(from_json(Outcome, ok), []) == ("passes", "", "")
  assert canary.verdict(from_json(Outcome, hidden), []) == ("fails", "x: expected 1, got 2", "hidden")
  assert canary.verdict(from_json(Outcome, api), []) == ("errors", "AttributeError: type object 'Tensor' has no attribute 'realize_all'", "")
  assert canary.verdict(from_json(Outcome, gone), setup)[1] == "NameError: name 'Tensor' is not defined (after the cell setup raised ImportError: cannot import name 'Tensor' from 'tinygrad')"
  assert canary.verdict(from_json(Outcome, {"state": "ran", "error": ("CheckSkipped", "no CUDA device"), "observations": []}), [])[0] == "skipped"
  assert canary.verdict(from_json(Outcome, {"state": "timeout", "message": "the cell ran out of time"}), [])[0] == "not_run"

@pytest.mark.slow                 # over 4 s: the fast tier stays under 2 minutes (make test runs it)
def test_the_canary_reports_what_a_release_breaks(tmp_path):
  source = write_toy_course(tmp_path, modules=("01_toy",))
  edit(source, lambda cells: cells + [new_code_cell(TINY_TEST, metadata=meta("test_tiny", grade=True, points=1))])
  (tmp_path / "pages").mkdir(); (tmp_path / "pages" / "page.md").write_text(PAGE)
  wheels = stand_in_release(tmp_path / "wheels")
  before = importlib.metadata.version("tinygrad")
  out, summary, venv = tmp_path / "canary", tmp_path / "summary.md", tmp_path / "venv"
  env = {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheels)}         # the package index: this folder, newest release 0.99.0
  done = cli("canary", "--tinygrad", "latest", "--out", out, "--summary", summary,       # as the class workflow runs it, on the toy course
             "--source", source, "--pages", tmp_path / "pages", "--overlay", "--venv", venv, env=env)
  assert done.returncode == 1, done.stdout + done.stderr[-3000:]                        # something fails: 1, with the report written
  assert "the newest tinygrad release is 0.99.0" in done.stderr and "canary: module 1/1 01_toy" in done.stderr      # progress on stderr
  report = json.loads((out / "canary.json").read_text())
  assert report["tinygrad"] == report["installed"] == FAKE and report["pinned"] == before
  tests = {t["test"]: t for t in report["modules"][0]["tests"]}
  assert {k: t["status"] for k, t in tests.items()} == {"test_double": "passes", "test_square": "passes", "test_tiny": "errors"}
  assert tests["test_tiny"]["why"].startswith("ImportError: cannot import name 'Tensor' from 'tinygrad'")
  blocks = report["pages"][0]["blocks"]
  assert [b["status"] for b in blocks] == ["passes", "fails", "fails", "skipped"] and blocks[0]["where"] == "pages/page.md:4"
  assert blocks[1]["why"].startswith("ImportError: cannot import name 'Tensor'")
  assert blocks[2]["why"] == "prints otherwise than the page states, line 1: 0.99.0 (stated: 0.14.0)"
  text = (out / "canary.md").read_text()
  assert text.startswith(f"# Canary: tinygrad {FAKE} (the course pins {before})") and "2 of 3 still pass (5 of 6 points)" in text
  assert "| 01_toy | 2 | 0 | 1 | 0 | 0 | 5/6 | `Toy module 1` `test_tiny`: `ImportError: cannot import name 'Tensor' from 'tinygrad'" in text
  assert "| `page.md` | 4 | 1 | 2 | 1 |" in text and summary.read_text() == text
  assert importlib.metadata.version("tinygrad") == before and not list(Path(sys.prefix).glob(f"lib/*/site-packages/tinygrad-{FAKE}*"))   # .venv untouched
  again = cli("canary", "--tinygrad", FAKE, "--out", out, "--source", source, "--pages", "none", "--overlay", "--venv", venv, env=env)
  assert "reusing the environment" in again.stderr and again.returncode == 1

def test_a_changed_output_is_told_by_its_first_differing_line():
  assert canary.output_difference("a\nb 12\nc", "a\nb 19\nc") == "prints otherwise than the page states, line 2: b 19 (stated: b 12)"
  assert canary.output_difference("a ...\nb", "a 7") == "prints otherwise than the page states, line 2: (nothing) (stated: b)"

def test_the_canary_refuses_the_environment_it_runs_in(tmp_path):
  with pytest.raises(canary.CanaryError, match="one of its own"): canary.build(Path(sys.prefix), "0.14.0")
