"""What must never reach a learner: the lines of a module's solution and hidden-test regions, and the markers."""
import re
from pathlib import Path
from autograder.core.assemble import read_notebook
from autograder.core.cells import BEGIN_HIDDEN, BEGIN_SOLUTION, END_HIDDEN, END_SOLUTION

MARKERS = re.compile(r"(BEGIN|END) (SOLUTION|HIDDEN TESTS)")

def regions(text:str) -> tuple[list[str], list[str]]:
  """(lines inside solution or hidden-test regions, lines outside every region)."""
  inside, outside, on = [], [], False
  for line in text.splitlines():
    if BEGIN_SOLUTION in line or BEGIN_HIDDEN in line: on = True
    elif END_SOLUTION in line or END_HIDDEN in line: on = False
    else: (inside if on else outside).append(line.strip())
  return inside, outside

def texts(folder:Path) -> dict[str, str]:
  """Every cell source of the module's notebooks and every other text file, by a readable name."""
  out = {}
  for path in sorted(folder.rglob("*")):
    if not path.is_file() or "__pycache__" in path.parts: continue
    if path.suffix == ".ipynb":
      for i, cell in enumerate(read_notebook(path).cells): out[f"{path.name} cell {i}"] = cell.source
    else:
      try: out[path.name] = path.read_text()
      except UnicodeDecodeError: pass
  return out
