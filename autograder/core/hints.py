"""Hints on request. An author writes a task's hints in the source notebook as one markdown cell whose first line is a
heading `Hints: Task 3.2` (a label in parentheses may follow: `Hints: Task 3.2 (the second part)`; a task's cells are
shown in order) and whose levels are separated by lines holding only `---`. Release takes these cells out of
the learner's notebook and ships them in HINTS_FILE (base64 of JSON: a glance at the file spoils nothing);
`autograder hint 05 3.2` shows them one level at a time and counts what was opened in OPENED_FILE, a small JSON file
the learner commits with the notebook. Grading reads that file as untrusted input, for information only."""
from __future__ import annotations
import base64, json, re
from pathlib import Path
from nbformat import NotebookNode
from autograder.core.files import safe_file

HINTS_FILE = "hints.b64"                   # written by release, next to the starter notebook
OPENED_FILE = "hints_opened.json"          # written by `autograder hint`, in the learner's module folder
MAX_OPENED_BYTES, MAX_TASKS, MAX_LEVEL = 4096, 100, 20
HEADING = re.compile(r"^\s*#{1,6}\s*Hints?:\s*Task\s+(\d+(?:\.\d+)*)\s*(?:\([^()]*\))?\s*$")
LOOKS_LIKE_HINTS = re.compile(r"^\s*(?:#{1,6}|\*{1,2}|_{1,2})?\s*Hints?(?![a-z])", re.IGNORECASE)   # a first line (a heading, bold or plain) release would keep in the notebook if HEADING missed it
TASK_ARG = re.compile(r"^\s*(?:Task\s+)?(\d+(?:\.\d+)*)\s*$", re.IGNORECASE)

def heading(cell:NotebookNode) -> str|None:
  """A markdown cell's first line (None for another cell): where a hint cell's heading stands."""
  return (cell.get("source") or "").lstrip("\n").split("\n", 1)[0] if cell.get("cell_type") == "markdown" else None

def hint_task(cell:NotebookNode) -> str|None:
  """'Task 3.2' when the cell is a hint cell, else None."""
  return f"Task {m[1]}" if (first := heading(cell)) is not None and (m := HEADING.match(first)) else None

def is_hint_cell(cell:NotebookNode) -> bool: return hint_task(cell) is not None

def unrecognised_hint_headings(nb:NotebookNode) -> list[str]:
  """The first lines of markdown cells headed like hints that are not hint cells: release would leave them, method and
  all, in the learner's notebook (module 08's `Hints: Task 5.2 (tensor_cores)` before labels were allowed)."""
  return [f for c in nb.cells if (f := heading(c)) is not None and LOOKS_LIKE_HINTS.match(f) and not HEADING.match(f)]

def levels(cell:NotebookNode) -> list[str]:
  """The hint levels of a hint cell, in order: the text between `---` lines (outside fenced code), heading left out."""
  out, current, fenced = [], [], False
  for line in cell.source.lstrip("\n").split("\n")[1:]:
    if line.lstrip().startswith(("```", "~~~")): fenced = not fenced
    if not fenced and line.strip() == "---": out.append("\n".join(current).strip()); current = []
    else: current.append(line)
  out.append("\n".join(current).strip())
  return [text for text in out if text]

def collect(nb:NotebookNode) -> dict[str, list[str]]:
  """Every task's hint levels, by task ('Task 3.2'), in the order of the notebook."""
  out: dict[str, list[str]] = {}
  for cell in nb.cells:
    if (task := hint_task(cell)): out.setdefault(task, []).extend(levels(cell))
  return out

def task_name(text:str) -> str|None:
  """'3.2', 'Task 3.2' or 'task 3.2' as 'Task 3.2'; None when it names no task."""
  return f"Task {m[1]}" if (m := TASK_ARG.match(str(text))) else None

# ---- the released hints file ----------------------------------------------------------------------------------------

def encode(hints:dict[str, list[str]]) -> str:
  data = json.dumps({"version": 1, "tasks": hints}, ensure_ascii=False, sort_keys=True)
  text = base64.b64encode(data.encode()).decode()
  return "\n".join(text[i:i + 76] for i in range(0, len(text), 76)) + "\n"

def decode(text:str) -> dict[str, list[str]]:
  data = json.loads(base64.b64decode("".join(text.split())).decode())
  tasks = data.get("tasks", {}) if isinstance(data, dict) else {}
  return {str(k): [str(x) for x in v] for k, v in tasks.items() if isinstance(v, list) and v} if isinstance(tasks, dict) else {}

def strip_hints(notebook:Path) -> dict[str, list[str]]:
  """Take the hint cells out of a released notebook (rewritten only when it has some) and write HINTS_FILE beside
  it; returns the hints. A notebook without hint cells gets no hints file."""
  import nbformat
  nb = nbformat.read(str(notebook), as_version=4)
  hints = collect(nb)
  target = notebook.parent / HINTS_FILE
  if not hints:
    target.unlink(missing_ok=True)
    return hints
  nb.cells = [c for c in nb.cells if not is_hint_cell(c)]
  nbformat.write(nb, str(notebook))
  target.write_text(encode(hints))
  return hints

def released_hints(folder:Path) -> dict[str, list[str]]|None:
  """The hints shipped with a learner's module folder, or None when it has none."""
  path = Path(folder) / HINTS_FILE
  if not path.is_file(): return None
  try: return decode(path.read_text()) or None
  except (OSError, ValueError, UnicodeDecodeError, RecursionError): return None

# ---- what the learner opened ------------------------------------------------------------------------------------------

def parse_opened(text:str|bytes) -> dict[str, int]:
  """The learner's record of opened hints, read as untrusted data: at most MAX_OPENED_BYTES, task names of the form
  'Task 3.2', counts from 1 to MAX_LEVEL; anything else is dropped (a malformed file reads as nothing opened)."""
  if len(text) > MAX_OPENED_BYTES: return {}
  try: data = json.loads(text)
  except (ValueError, RecursionError, UnicodeDecodeError): return {}
  opened = data.get("opened") if isinstance(data, dict) else None
  if not isinstance(opened, dict): return {}
  out = {}
  for task, n in list(opened.items())[:MAX_TASKS]:
    if isinstance(task, str) and task_name(task) == task and type(n) is int and 1 <= n <= MAX_LEVEL: out[task] = n
  return out

def read_opened(folder:Path) -> dict[str, int]:
  """What `autograder hint` recorded in a module folder (a symbolic link or an oversized file reads as nothing)."""
  path = safe_file(Path(folder), OPENED_FILE)
  if path is None or path.stat().st_size > MAX_OPENED_BYTES: return {}
  try: return parse_opened(path.read_bytes())
  except OSError: return {}

def write_opened(folder:Path, opened:dict[str, int]):
  (Path(folder) / OPENED_FILE).write_text(json.dumps({"version": 1, "opened": dict(sorted(opened.items()))}, indent=1) + "\n")

def next_hint(folder:Path, task:str) -> tuple[int, list[str]]:
  """Open the next level of `task`'s hints in a learner's module folder: (the level now shown, 1-based, and all levels).
  Asked again after the last level, the last level is shown again."""
  hints = released_hints(folder) or {}
  opened = read_opened(folder)
  level = min(opened.get(task, 0) + 1, len(hints[task]))
  opened[task] = max(opened.get(task, 0), level)
  write_opened(folder, opened)
  return level, hints[task]

def opened_line(task:str, opened:dict[str, int], hints:dict[str, list[str]]|None) -> str:
  """'hints opened: 2 of 3' for a task that has hints, else ''."""
  if not hints or task not in hints: return ""
  return f"hints opened: {min(opened.get(task, 0), len(hints[task]))} of {len(hints[task])}"

def pointer(module:str, task:str) -> str:
  """What a failing test of a task that has hints says."""
  number = module.split("_", 1)[0]
  return f"ask for a hint: autograder hint {number} {task.removeprefix('Task ').strip()}"

def opened_hints(data:bytes|None, hinted:dict[str, list[str]]) -> dict:
  """For a grading report: {"hints_opened": {task: [opened, levels]}} from the bytes of the submission's OPENED_FILE
  (read with the rest of the submission, assemble.read_submission), for the tasks of the trusted source that have
  hints; {} when the module has none or the file is absent. Information only."""
  if not hinted or data is None: return {}
  opened = parse_opened(data[:MAX_OPENED_BYTES + 1])
  return {"hints_opened": {t: [min(opened.get(t, 0), len(v)), len(v)] for t, v in hinted.items()}}
