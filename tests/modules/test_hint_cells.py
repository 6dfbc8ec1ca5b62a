"""Every module's hint cells are well formed (a task with a test, two levels or more) and quote no line of a solution.
Reads the source notebooks only."""
import pytest
from autograder.core.assemble import read_notebook
from autograder.core.cells import BEGIN_SOLUTION, END_SOLUTION, is_answer, task_titles
from autograder.core.course import REPO, module_names, notebook_path
from autograder.core.hints import LOOKS_LIKE_HINTS, heading, hint_task, levels

@pytest.mark.parametrize("module", module_names(REPO / "solutions"))
def test_hint_cells_are_well_formed_and_do_not_hold_the_answer(module):
  """Each hint cell names a task that has a test, has at least two levels, and quotes no line of a solution (the last
  level is close to the method, not the answer). Reads the source notebooks only: no run."""
  nb = read_notebook(notebook_path(REPO / "solutions", module))
  tasks = set(task_titles(nb).values())
  solution_lines, on = set(), False
  for c in nb.cells:
    if not is_answer(c): continue
    for line in c.source.splitlines():
      if BEGIN_SOLUTION in line: on = True
      elif END_SOLUTION in line: on = False
      elif on and len(line.strip()) >= 25 and not line.strip().startswith("#"): solution_lines.add(line.strip())
  for c in nb.cells:
    if (task := hint_task(c)) is None: continue
    assert task in tasks, f"{module}: hints for {task}, which has no test cell"
    assert len(levels(c)) >= 2, f"{module}: {task} has {len(levels(c))} hint level(s); write at least two"
    quoted = [line for line in c.source.splitlines() if line.strip() in solution_lines]
    assert not quoted, f"{module}: the hints of {task} quote the solution: {quoted[:2]}"

@pytest.mark.parametrize("module", module_names(REPO / "projects"))
def test_no_released_notebook_keeps_a_hint_cell(module):
  """Hints reach a learner one level at a time, from the hints file: none is left in the released notebook (module 08's
  second hint cell of Task 5.2 was, with its heading's label)."""
  nb = read_notebook(notebook_path(REPO / "projects", module))
  kept = [h for c in nb.cells if (h := heading(c)) is not None and LOOKS_LIKE_HINTS.match(h)]
  assert not kept, f"{module}: hint cells in the learner's notebook: {kept}"
