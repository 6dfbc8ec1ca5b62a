"""Release: write the learner starters in `projects/` from `solutions/` with nbgrader's generate_assignment, then clear
the solution regions of answer files (starter scripts), which nbgrader copies as they are. A module is written in a
staging folder beside the release folder and put in place by a rename when it is whole: an export or a self-check
during a release sees the old module or the new one, never half of one (nbgrader empties the folder it writes first)."""
from __future__ import annotations
import filecmp, json, logging, os, shutil, tempfile
from pathlib import Path
from traitlets.config import Config
from nbgrader.converters import GenerateAssignment
from nbgrader.coursedir import CourseDirectory
from autograder.core.cells import BEGIN_HIDDEN, has_solution_region, clear_solutions, grade_id, is_test
from autograder.core.hints import OPENED_FILE, strip_hints, unrecognised_hint_headings
from autograder.core import manifest
from autograder.core.course import notebook_path
from autograder.core.module import Module
from autograder.core.settings import module_settings, problems as settings_problems
from autograder.authoring.ship import EXPECTED_FILE, same_expected, self_check_misses, ship
from autograder.core.runs import reference
from autograder.learner.selfcheck import RELEASED, LAST_CHECK

IGNORED = {".ipynb_checkpoints", "__pycache__"}
LEARNER_STATE = {OPENED_FILE, LAST_CHECK}            # written in a learner's folder by `hint` and `check`, never by release

def mark_hidden_checks(released:Path, solution:Path):
  """Tell the learner's copy which test cells grading extends with hidden checks (`metadata.autograder.hidden_checks`),
  so that a self-check can say so; nothing of those checks is written."""
  import nbformat
  hidden = {grade_id(c) for c in nbformat.read(str(solution), as_version=4).cells if is_test(c) and BEGIN_HIDDEN in c.source}
  nb = nbformat.read(str(released), as_version=4)
  for cell in nb.cells:
    if is_test(cell) and grade_id(cell) in hidden: cell.metadata.setdefault("autograder", {})["hidden_checks"] = True
  nbformat.write(nb, str(released))

class BadSettings(ValueError): pass

def cut_oracle(module:Module, released:Path) -> dict:
  """The learner's copy without its oracle, and the expected values of its visible checks beside it (authoring/ship.py;
  the module's reference run, cached, gives them). Returns the reference's observation behind each shipped value."""
  import nbformat
  nb, text, observed = ship(module.fresh(), nbformat.read(str(released), as_version=4), reference(module, visible=True))
  nbformat.write(nb, str(released))
  target = released.parent / EXPECTED_FILE
  if json.loads(text)["cells"]: target.write_text(text)
  else: target.unlink(missing_ok=True)
  return observed

STAGING = ".release-staging-"                         # the prefix of a module's staging folder, beside the release folder

def release_module(module:Module, release_root:Path) -> dict:
  """Release one module; returns the reference's observation behind each value shipped in EXPECTED_FILE (ship's third
  result; empty when nothing ships)."""
  release_root = Path(release_root).resolve()
  release_root.mkdir(parents=True, exist_ok=True)
  staging = Path(tempfile.mkdtemp(prefix=f"{STAGING}{module.name}-", dir=release_root.parent))   # the same file system: a rename
  try:
    observed = _release_into(module, staging)
    target, old = release_root / module.name, staging / "replaced"
    if target.exists(): os.rename(target, old)
    os.rename(staging / module.name, target)
  finally: shutil.rmtree(staging, ignore_errors=True)
  return observed

def _release_into(module:Module, release_root:Path) -> dict:
  observed = {}
  source = json.loads(module.path.read_text())
  if (bad := settings_problems(source)):               # a typo such as `skip_grade` would grade a demo cell in silence
    raise BadSettings(f"{module.name}: " + "; ".join(bad))
  if (bad := unrecognised_hint_headings(module.notebook)):       # hints that would ship in the learner's notebook
    raise BadSettings(f"{module.name}: hint headings release does not recognise (write `#### Hints: Task N.M`): {bad}")
  c = Config()
  c.CourseDirectory.root = str(Path(module.solutions).resolve().parent)
  c.CourseDirectory.source_directory = str(Path(module.solutions).resolve())
  c.CourseDirectory.release_directory = str(Path(release_root).resolve())
  own = module_settings(source)
  c.CourseDirectory.ignore = sorted(IGNORED | LEARNER_STATE) + ["*.pyc"] + [Path(f).name for f in own["learner_files"]]   # the solution's checkpoint stays behind
  c.GenerateAssignment.no_database = True
  c.SaveCells.enabled = False
  c.BaseConverter.force = True
  coursedir = CourseDirectory(config=c)
  coursedir.assignment_id = module.name
  converter = GenerateAssignment(coursedir=coursedir, config=c)
  converter.log.setLevel(logging.ERROR)
  converter.start()
  released = notebook_path(release_root, module.name)
  if released.is_file():                                   # the pristine starter, for self-checks (see learner/selfcheck.py)
    strip_hints(released)                                  # hint cells go into the hints file, shown on request
    mark_hidden_checks(released, module.path)
    observed = cut_oracle(module, released)
    (released.parent / RELEASED).mkdir(exist_ok=True)
    shutil.copyfile(released, released.parent / RELEASED / released.name)
  for path in (Path(release_root) / module.name).rglob("*"):
    if path.is_file() and path.suffix != ".ipynb":
      try: text = path.read_text()
      except UnicodeDecodeError: continue
      if has_solution_region(text): path.write_text(clear_solutions(text))
  if released.is_file():                                   # what was shipped, for the self-check (core/manifest.py)
    manifest.write(released.parent, manifest.build(released.parent, released.name, module.answer_files,
                                                   own["learner_files"], IGNORED | LEARNER_STATE))
  return observed

def release(modules:list[Module], release_root:Path) -> dict[str, dict]:
  """Release each module; returns each one's observations behind its shipped values (release_module)."""
  return {module.name: release_module(module, release_root) for module in modules}

def _files(folder:Path) -> set[Path]:
  return {p.relative_to(folder) for p in folder.rglob("*") if p.is_file() and not IGNORED & set(p.relative_to(folder).parts)
          and p.name not in LEARNER_STATE} if folder.is_dir() else set()

def _same(a:Path, b:Path, observed:dict|None=None) -> bool:
  """Two released files are the same; the shipped expected values may differ in the last bits of a float (a reference
  run on another CPU), as far as the check that uses each value would not tell them apart (`observed`: the fresh
  release's observations behind them, ship.same_expected)."""
  if filecmp.cmp(a, b, shallow=False): return True
  if a.name not in (EXPECTED_FILE, manifest.MANIFEST): return False
  try: x, y = json.loads(a.read_text()), json.loads(b.read_text())
  except (OSError, ValueError): return False
  if a.name == manifest.MANIFEST:                          # it holds the shipped values' hash: compared above, as the checks compare
    for m in (x, y): m.get("files", {}).pop(EXPECTED_FILE, None)
    return x == y
  return same_expected(x, y, observed)

def differences(modules:list[Module], release_root:Path) -> list[str]:
  """The files under `release_root` that differ from what release would write now (missing, extra or changed), and
  the shipped values that the reference's own answers, computed here, fail as a learner's self-check compares them
  (a right answer must pass its self-check on any CPU)."""
  with tempfile.TemporaryDirectory(prefix="release-check-") as tmp:
    observed = release(modules, Path(tmp))
    out = []
    for module in modules:
      fresh, current = Path(tmp) / module.name, Path(release_root) / module.name
      want, have = _files(fresh), _files(current)
      out += [f"{module.name}/{p} (missing)" for p in sorted(want - have)]
      out += [f"{module.name}/{p} (not written by release)" for p in sorted(have - want)]
      out += [f"{module.name}/{p} (differs)" for p in sorted(want & have) if not _same(fresh / p, current / p, observed[module.name])]
      try: shipped = json.loads((current / EXPECTED_FILE).read_text()) if observed[module.name] else None
      except (OSError, ValueError): shipped = None        # missing or unreadable: named above
      if isinstance(shipped, dict):
        out += [f"{module.name}/{EXPECTED_FILE}: the reference's own answer fails its self-check: {m}" for m in self_check_misses(observed[module.name], shipped)]
    return out
