"""The mutants this version of a module and its grader has already caught (issue 43, item 7), as Stryker's incremental
mode keeps them: the suite grades again only the mutants whose key is not in the module's ledger,
tests/mutants/caught/NN_name.txt, and writes the ledger anew once every mutant is caught. A key hashes the mutant and
everything its verdict depends on: every file of the module and of the grader, the libraries' versions, Python's
version, the machine's architecture and the device. Any edit of those makes every key of the module new, so a ledger can
only say "caught" of the very code that was graded; `MUTANTS=all` grades every mutant whatever the ledger says."""
from __future__ import annotations
import hashlib, json, os
from pathlib import Path
from autograder.core.module import Module
from autograder.core.runs import version_hash

FIELDS = ("name", "target", "old", "new", "tests", "task")        # what makes a mutant the mutant it is

def version_key(module:Module) -> str:
  """The module and its grader as graded here: a key's common part."""
  return version_hash(module).hexdigest()

def key(version:str, mutant:dict) -> str:
  text = json.dumps({k: mutant.get(k) for k in FIELDS}, sort_keys=True)
  return hashlib.sha256(f"{version}\n{text}".encode()).hexdigest()[:20]

def caught(path:Path) -> set[str]:
  """The keys a ledger holds (none without the file, or under MUTANTS=all)."""
  if os.environ.get("MUTANTS") == "all" or not Path(path).is_file(): return set()
  return {line.split()[0] for line in Path(path).read_text().splitlines() if line.strip() and not line.startswith("#")}

def record(path:Path, result:dict):
  """Write the ledger of a session in which every mutant was caught: one `key name` a line, the current mutants only."""
  lines = sorted(f"{m['key']} {m['name']}" for m in result["mutants"] if m.get("key"))
  Path(path).parent.mkdir(parents=True, exist_ok=True)
  Path(path).write_text("# mutants caught by this version of the module and its grader (autograder/authoring/ledger.py)\n" + "\n".join(lines) + "\n")
