"""Rebuild a notebook for grading from the trusted source: every non-answer cell (hidden tests included) comes from the
source, answer cells come from the submission, matched by nbgrader grade_id. Whatever the learner did to the rest of
their notebook (deleted, duplicated, retyped or re-ordered test cells, renamed ids, stripped metadata, extra cells)
cannot change what runs. Files are read from the submission only when they are regular files inside it: a symbolic
link anywhere on the way is a missing file, never followed."""
from __future__ import annotations
import copy, dataclasses, hashlib, json, os, shutil
from dataclasses import dataclass, field
from pathlib import Path
import nbformat
from nbformat import NotebookNode
from autograder.core.cells import grade_id, is_answer, defined_names, has_solution_region, clear_solutions
from autograder.core.files import read_safe, refusal, too_many
from autograder.core.hints import OPENED_FILE

IGNORED = shutil.ignore_patterns("*.ipynb", ".ipynb_checkpoints", "__pycache__")

class Unreadable(Exception): pass

@dataclass
class Submission:
  """One module of a learner's submission, read once at the door: the notebook's text and the bytes of every file the
  grader takes from the learner (answer files and `learner_files`), by relative path. Every later step uses this,
  never the submission folder: what was graded is what was read, and grade-all's resume compares its `digest`."""
  notebook_text: bytes|None = None
  files: dict[str, bytes] = field(default_factory=dict)
  missing: str = ""                                       # why there is no notebook ("" when there is one)
  opened_hints: bytes|None = None                         # the learner's record of opened hints (hints.OPENED_FILE)
  refused: str = ""                                       # why the module is not graded though something is there ("": it is)
  unread: list[str] = field(default_factory=list)         # the answer and learner files that are there but were not read, and why

  def digest(self) -> str:
    """A hash of every field: two readings with the same digest are graded alike (a field added later is covered)."""
    h = hashlib.sha256()
    def put(value):
      if value is None: h.update(b"n"); return
      if isinstance(value, dict): h.update(b"d%d:" % len(value)); [put(x) for k in sorted(value) for x in (k, value[k])]; return
      if isinstance(value, list): h.update(b"l%d:" % len(value)); [put(x) for x in value]; return
      data = value if isinstance(value, bytes) else str(value).encode("utf-8", "surrogatepass")
      h.update(b"b%d:" % len(data)); h.update(data)
    for f in dataclasses.fields(self): put(f.name); put(getattr(self, f.name))
    return h.hexdigest()

def answer_files(folder:Path) -> list[str]:
  """Relative paths of a module folder's answer files: text files with a solution region (notebooks aside)."""
  out = []
  for path in sorted(Path(folder).rglob("*")):
    if not path.is_file() or path.suffix == ".ipynb" or "__pycache__" in path.parts: continue
    try:
      if has_solution_region(path.read_text()): out.append(str(path.relative_to(folder)))
    except (UnicodeDecodeError, OSError): pass
  return out

def read_submission(module, submission_root:Path) -> Submission:
  """Read everything the grader needs of a learner's folder of `module` (core/module.py) under `submission_root`, once
  (symbolic links refused, see safe_file): the notebook, the answer files and the module's `learner_files`. A module
  folder that holds more than MAX_ENTRIES files and folders, or a notebook larger than the grader reads, is refused
  with the reason (no learner's file name in it)."""
  if cap := too_many(Path(submission_root) / module.name):
    return Submission(refused=f"the folder {module.name} holds more than {cap:,} files and folders, the most a module folder may "
                              "hold, so it was not read: remove what the module does not need (data, environments, outputs) and submit again")
  rel = Path(module.name) / f"{module.name}.ipynb"
  text = read_safe(submission_root, rel)
  out = Submission(notebook_text=text)
  if text is None:
    why = refusal(submission_root, rel)
    if why.startswith("it is larger"): out.refused = f"cannot read {module.name}.ipynb: {why}"
    else:
      linked = os.path.islink(Path(submission_root) / rel) or os.path.islink(Path(submission_root) / module.name)
      out.missing = f"no notebook at {rel}" + (" (a symbolic link is not followed)" if linked else "")
  for name in dict.fromkeys(list(module.settings["learner_files"]) + module.answer_files):
    if (data := read_safe(submission_root, Path(module.name) / name)) is not None: out.files[str(name)] = data
    elif why := refusal(submission_root, Path(module.name) / name): out.unread.append(f"{name} ({why})")
  out.opened_hints = read_safe(submission_root, Path(module.name) / OPENED_FILE)
  return out

NBGRADER_TYPES = {"grade_id": (str,), "solution": (bool,), "grade": (bool,), "locked": (bool,), "task": (bool,), "points": (int, float)}

def malformed(nb:NotebookNode) -> str|None:
  """Why a parsed notebook cannot be graded, or None: metadata that is not a table (the notebook's, a cell's, a cell's
  `nbgrader` or `autograder` table), an nbgrader field of the wrong type (`"grade_id": 3`, `"points": "two"`), or
  text that cannot be encoded as UTF-8 (a lone surrogate such as \\ud800, which JSON can spell but no file, kernel
  or report can carry). Every reader of metadata also takes such values without raising (cells.nbgrader_meta,
  settings.cell_setting); refusing the notebook here says why, once, instead of grading it half-read."""
  if not isinstance(nb.get("metadata", {}), dict): return "the notebook's metadata is not a table"
  for n, cell in enumerate(nb.get("cells", []), 1):
    if not isinstance(cell, dict): return f"cell {n} is not a table"
    meta = cell.get("metadata", {})
    if not isinstance(meta, dict): return f"cell {n}: its metadata is {_kind(meta)}, not a table"
    for key in ("nbgrader", "autograder"):
      if key in meta and not isinstance(meta[key], dict): return f"cell {n}: metadata.{key} is {_kind(meta[key])}, not a table"
    for key, types in NBGRADER_TYPES.items():
      value = meta.get("nbgrader", {}).get(key)
      if value is not None and (type(value) not in types or (types == (int, float) and value != value)):
        return f"cell {n}: metadata.nbgrader.{key} is {_kind(value)}"
  try: json.dumps(nb, ensure_ascii=False).encode("utf-8")
  except UnicodeEncodeError: return "it holds text that cannot be encoded as UTF-8 (a lone surrogate such as \\ud800)"
  except (TypeError, ValueError, RecursionError) as e: return f"it holds a value JSON cannot write back ({type(e).__name__})"
  return None

def _kind(value) -> str:
  return "null" if value is None else f"a {type(value).__name__}" if not isinstance(value, (str, int, float)) else f"{type(value).__name__} {str(value)[:20]!r}"

def parse_notebook(text:bytes|str) -> NotebookNode:
  """A notebook from its text, or Unreadable with a one-line reason (bad JSON, not a notebook, malformed metadata,
  text that cannot be encoded: see `malformed`)."""
  try: raw = json.loads(text)
  except (ValueError, RecursionError) as e: raise Unreadable(f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:200]) from None
  if isinstance(raw, dict) and isinstance(raw.get("cells"), list) and (why := malformed(raw)) is not None: raise Unreadable(why[:200])
  try:
    nb = nbformat.reads(text.decode() if isinstance(text, bytes) else text, as_version=4)
    if not isinstance(nb.get("cells"), list): raise ValueError("no list of cells")
    for cell in nb.cells:
      if not isinstance(cell, dict) or not isinstance(cell.get("source"), str) or cell.get("cell_type") not in {"code", "markdown", "raw"}:
        raise ValueError("a cell without source or with an unknown type")
  except Exception as e:
    raise Unreadable(f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:200]) from None
  if (why := malformed(nb)) is not None: raise Unreadable(why[:200])
  return nb

def read_notebook(path:Path) -> NotebookNode:
  """A notebook, or Unreadable with a one-line reason (missing, bad JSON, not a notebook)."""
  try: text = Path(path).read_bytes()
  except OSError as e: raise Unreadable(f"{type(e).__name__}: {e.strerror or e}"[:200]) from None
  return parse_notebook(text)

def answer_cells(source:NotebookNode, submission:NotebookNode) -> dict[int, NotebookNode|None]:
  """For each answer cell of the source (by index), the learner's cell for it: the last cell with the same grade_id,
  else the last code cell that defines the same functions/classes (metadata stripped or id renamed), else None."""
  out = {}
  for i, cell in enumerate(source.cells):
    if not is_answer(cell): continue
    by_id = [c for c in submission.cells if grade_id(c) == grade_id(cell)]
    if by_id: out[i] = by_id[-1]; continue
    names = defined_names(cell.source)
    out[i] = ([c for c in submission.cells if c.cell_type == "code" and names and names <= defined_names(c.source)] or [None])[-1]
  return out

def assemble(source:NotebookNode, submission:NotebookNode|None) -> NotebookNode:
  """The notebook to grade. A missing answer falls back to the released stub, so it earns nothing."""
  nb = copy.deepcopy(source)
  found = answer_cells(source, submission) if submission is not None else {}
  for i, cell in enumerate(nb.cells):
    if cell.cell_type == "code": cell.outputs, cell.execution_count = [], None
    if not is_answer(cell): continue
    learner = found.get(i)
    cell.source = learner.source if learner is not None else clear_solutions(cell.source)
  return nb

def prepare_workdir(folder:Path, submission:Path|dict[str, bytes]|None, workdir:Path, learner_files:list[str]=()):
  """Copy the module's support files into `workdir`. Answer files (files with solution regions in the source) come
  from the submission (`Submission.files`, or a folder read here once), or as released stubs where the learner has
  none; `learner_files` (a checkpoint, say) come from the submission only; every other file comes from the source.
  `submission` None: the source's own files (the reference run)."""
  if isinstance(submission, (str, Path)):
    files = {str(n): d for n in list(learner_files) + answer_files(folder) if (d := read_safe(submission, n)) is not None}
  else: files = submission
  shutil.copytree(folder, workdir, dirs_exist_ok=True, ignore=IGNORED)
  if files is None: return
  for name in learner_files:
    target = workdir / name
    if target.is_file(): target.unlink()
    if name in files:
      target.parent.mkdir(parents=True, exist_ok=True)
      target.write_bytes(files[name])
  for name in answer_files(folder):
    if name in learner_files: continue
    path = workdir / name
    if name in files: path.write_bytes(files[name])
    else: path.write_text(clear_solutions(path.read_text()))

def remove_tree(path:Path):
  """Remove a folder whatever a kernel left in it (thousands of files, deep nesting, odd permissions), never raising."""
  try: shutil.rmtree(path)
  except Exception:
    import subprocess
    try: subprocess.run(["rm", "-rf", "--one-file-system", str(path)], capture_output=True, timeout=300)
    except Exception: pass
