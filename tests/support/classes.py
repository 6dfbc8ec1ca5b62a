"""Helpers for the class tests: the command line in a child process, a learner's folder made from the toy course,
and a grading folder read back as data."""
import json, os, shutil, subprocess, sys
from pathlib import Path
import nbformat
from autograder.core.cells import grade_id
from autograder.core.course import REPO

def cli(*args, cwd=None, env=None):
  return subprocess.run([sys.executable, "-m", "autograder.cli", *map(str, args)], capture_output=True, text=True, timeout=600, cwd=cwd,
                        env={**os.environ, "PYTHONPATH": str(REPO), **(env or {})})

def files(folder:Path) -> dict[str, object]:
  """Every file of a grading folder, report.json without its wall-clock `seconds` (the one thing two runs differ in)."""
  out = {}
  for p in sorted(folder.rglob("*")):
    if not p.is_file(): continue
    rel = str(p.relative_to(folder))
    if p.name == "report.json":
      report = json.loads(p.read_text())
      for m in report.get("modules", []): m.pop("seconds", None)
      out[rel] = report
    else: out[rel] = p.read_bytes()
  return out

def learner(root:Path, source:Path, name:str, answers:dict|None=None, broken:bool=False):
  folder = root / name / "projects"
  shutil.copytree(source, folder)
  for module, cells in (answers or {}).items():
    path = folder / module / f"{module}.ipynb"
    nb = nbformat.read(str(path), as_version=4)
    for c in nb.cells:
      if grade_id(c) in cells: c.source = cells[grade_id(c)]
    nbformat.write(nb, str(path))
  if broken: (folder / "01_toy" / "01_toy.ipynb").write_text('{"cells": [')
