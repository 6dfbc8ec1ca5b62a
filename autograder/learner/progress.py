"""`autograder progress`: every module's last self-check, read from the LAST_CHECK file `check` leaves in each module
folder; nothing runs."""
from __future__ import annotations
from pathlib import Path
from autograder.learner.selfcheck import LAST_CHECK, load_last
from autograder.core.hints import read_opened, released_hints
from autograder.core.results import MARK, TestStatus
from autograder.core.verdict import clean


def _task_key(task:str) -> tuple:
  return tuple(int(x) for x in task.removeprefix("Task ").split(".") if x.isdigit()) or (999,)

def module_lines(folder:Path) -> list[str]:
  last = load_last(folder)
  if last is None: return [f"{folder.name:<24} never checked (autograder check {folder.name[:2]})"]
  tests = last["tests"]
  passed = sum(t.get("status") == TestStatus.PASSED for t in tests.values())
  points = sum(float(t.get("score", 0)) for t in tests.values()), sum(float(t.get("max_score", 0)) for t in tests.values())
  out = [f"{folder.name:<24} {passed}/{len(tests)} visible checks passed ({points[0]:g}/{points[1]:g} points before hidden checks), "
         f"last checked {last.get('when', '?')}"]
  by_task: dict[str, list[dict]] = {}
  for tid, t in tests.items(): by_task.setdefault(t.get("task") or tid, []).append(t)
  hints, opened = released_hints(folder) or {}, read_opened(folder)
  for task in sorted(by_task, key=_task_key):
    states = [t.get("status", "?") for t in by_task[task]]
    state = MARK[TestStatus.PASSED] if all(s == TestStatus.PASSED for s in states) else next(MARK.get(s, s) for s in states if s != TestStatus.PASSED)
    if state == MARK[TestStatus.ERROR] and all("not attempted" in t.get("message", "") for t in by_task[task] if t.get("status") != TestStatus.PASSED): state = "todo"
    message = next((t.get("message", "") for t in by_task[task] if t.get("status") != TestStatus.PASSED and t.get("message")), "")
    extra = f" [hints opened: {min(opened.get(task, 0), len(hints[task]))} of {len(hints[task])}]" if task in hints else ""
    out.append(f"  {clean(task):<10} {clean(state):<8}{extra} {clean(message)[:100]}".rstrip())   # (the file is the learner's to edit: cleaned like every text shown)
  return out

def progress(projects:Path, modules:list[str]) -> str:
  lines = []
  for module in modules:
    try: lines += module_lines(Path(projects) / module)
    except Exception as e: lines.append(f"{module:<24} its last check cannot be read ({type(e).__name__}); run `autograder check {module[:2]}` again")
  lines.append(f"(from each module's {LAST_CHECK}, written by `autograder check`; grading adds hidden checks, so these are not scores)")
  return "\n".join(lines)
