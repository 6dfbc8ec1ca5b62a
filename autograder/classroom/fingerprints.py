"""What a class was graded against, kept in the grading folder (`fingerprints.json`) so that a later regrade can say
why a learner's result changed (autograder/classroom/changes.py).

Per module: a hash of its trusted set-up cells; per test: its points, its task, and for the visible part and the
hidden part of the test cell apart, a hash of the code, the number of checks the reference run made there and a hash
of those checks' kinds and tolerances (rtol, atol, an agreement's `at_least`, a range's bounds). Beside them the
grader's own hash and the library versions. Only hashes and counts: no line of a hidden test and no expected value is
in the file, since a gradebook is shown to instructors and may be shared. Nothing in it depends on the machine's
clock or paths, so a sharded run writes the same file on every shard."""
from __future__ import annotations
import hashlib, importlib.metadata, json
from pathlib import Path
from autograder.core.cells import grade_id, is_answer, is_test, points
from autograder.core.course import PACKAGE
from autograder.core.module import Module
from autograder.core.results import Observation, ReferenceRun
from autograder.core.settings import cell_setting
from autograder.core.transform import hidden_lines

FILE = "fingerprints.json"
FORMAT = 1
LIBRARIES = ("tinygrad", "torch", "numpy")

def digest(value) -> str:
  text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)
  return hashlib.sha256(text.encode()).hexdigest()[:16]

def _code(lines:list[str]) -> str:
  return digest("\n".join(l.rstrip() for l in lines if l.strip()))

def _settings(observations:list[Observation]) -> list:
  """What a check decides with besides the values: its kind, its options (tolerances, thresholds), a range's bounds."""
  return [[o.kind, o.opts or {}, o.expected if o.kind == "range" else None] for o in observations]

def test_fingerprint(cell, observations:list[Observation], task:str="") -> dict:
  hidden = hidden_lines(cell.source)
  lines = cell.source.splitlines()
  out = {"points": points(cell), "task": task}
  for part, mine in (("visible", False), ("hidden", True)):
    obs = [o for o in observations if o.hidden == mine]
    out[part] = {"code": _code([l for n, l in enumerate(lines, 1) if (n in hidden) == mine]), "checks": len(obs), "settings": digest(_settings(obs))}
  return out

def module_fingerprint(module:Module, ref:ReferenceRun) -> dict:
  """One module's fingerprint from its trusted notebook and its reference run (`core.runs.reference`)."""
  nb, titles = module.notebook, module.titles
  setup = [c.source for c in nb.cells if c.cell_type == "code" and not is_answer(c) and not is_test(c) and not cell_setting(c, "skip_grading")]
  tests = {grade_id(c): test_fingerprint(c, ref.tests[grade_id(c)].observations if grade_id(c) in ref.tests else [], titles.get(grade_id(c), ""))
           for c in nb.cells if is_test(c)}
  return {"setup": _code(setup), "tests": tests}

def grader_hash() -> str:
  h = hashlib.sha256()
  for path in sorted(p for p in PACKAGE.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
    h.update(str(path.relative_to(PACKAGE)).encode()); h.update(path.read_bytes())
  return h.hexdigest()[:16]

def libraries() -> dict[str, str]:
  out = {}
  for pkg in LIBRARIES:
    try: out[pkg] = importlib.metadata.version(pkg)
    except importlib.metadata.PackageNotFoundError: pass
  return out

def fingerprints(modules:list[Module], refs:dict[str, ReferenceRun]) -> dict:
  """The fingerprint of a grading of `modules`, with their reference runs (`refs`, by module name)."""
  return {"format": FORMAT, "grader": grader_hash(), "libraries": libraries(),
          "modules": {m.name: module_fingerprint(m, refs[m.name]) for m in sorted(modules, key=lambda m: m.name)}}

def write(out:Path, prints:dict):
  (Path(out) / FILE).write_text(json.dumps(prints, indent=1, sort_keys=True) + "\n")

def read(folder:Path) -> dict|None:
  """A grading folder's fingerprints; None for a folder graded before they were kept (or an unreadable file)."""
  try: prints = json.loads((Path(folder) / FILE).read_text())
  except (OSError, ValueError): return None
  return prints if isinstance(prints, dict) and isinstance(prints.get("modules"), dict) else None
