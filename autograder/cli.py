"""The `autograder` command. Each role registers its own commands (`add_commands` of learner, grading, classroom and
authoring); this file only builds the parser and runs the command asked for."""
from __future__ import annotations
import argparse, sys
# jsonschema (which nbformat imports) loads rfc3987_syntax when it is installed, for its "iri" format, and that compiles
# a grammar at import: seconds on every command. Notebook schemas use no such format.
sys.modules.setdefault("rfc3987_syntax", None)
from pathlib import Path
from autograder.authoring import commands as authoring
from autograder.classroom import commands as classroom
from autograder.core.course import REPO, UnknownModule
from autograder.grading import commands as grading
from autograder.learner import commands as learner

def _root(name:str) -> Path:
  """`solutions`/`projects` of the current folder, else of this repository."""
  return Path(name) if Path(name).is_dir() else REPO / name

def parser() -> argparse.ArgumentParser:
  p = argparse.ArgumentParser(prog="autograder", description="Release, self-check and grade the tinygrad workbook.")
  sub = p.add_subparsers(dest="command", required=True)
  for role in (learner, grading, classroom, authoring): role.add_commands(sub, _root)
  return p

def main(argv:list[str]|None=None) -> int:
  args = parser().parse_args(argv)
  try: return args.fn(args)
  except UnknownModule as e:
    print(f"autograder: {e}", file=sys.stderr); return 2

if __name__ == "__main__": sys.exit(main())
