"""What release shipped in a module folder, written by release beside the pristine starter (`.released/manifest.json`)
and read by the self-check: the SHA-256 of the released notebook and of every other file release wrote, which files
are answer files (the learner's to edit; grading takes them) and which are `learner_files` (grading takes them from
the learner too). With it, `autograder check` tells a learner when their `.released` copy (what the self-check builds
from) or a support file was edited, and when an answer imports a file of the folder that grading will not take.

The manifest lives in the learner's repository and a learner can edit it as well as anything else there: it catches
the accidental edit and the naive one; grading never reads it (grading builds from the trusted source)."""
from __future__ import annotations
import hashlib, json
from pathlib import Path

MANIFEST = "manifest.json"

def sha256(data:bytes) -> str: return hashlib.sha256(data).hexdigest()

def build(module_dir:Path, notebook:str, answer_files:list[str], learner_files:list[str], skip:set[str]) -> dict:
  """The manifest of a released module folder: `skip` are names (a file's or a folder's) release leaves out of it."""
  folder = Path(module_dir)
  files = {}
  for path in sorted(folder.rglob("*")):
    rel = path.relative_to(folder)
    if not path.is_file() or rel.parts[0] == ".released" or set(rel.parts) & skip or str(rel) == notebook: continue
    files[str(rel)] = sha256(path.read_bytes())
  return {"version": 1, "notebook": sha256((folder / notebook).read_bytes()), "files": files,
          "answer_files": sorted(answer_files), "learner_files": sorted(learner_files)}

def write(module_dir:Path, manifest:dict):
  (Path(module_dir) / ".released" / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")

def read(module_dir:Path) -> dict|None:
  """The manifest of a learner's module folder, or None when there is none or it is not one (the learner's file)."""
  try: data = json.loads((Path(module_dir) / ".released" / MANIFEST).read_text())
  except (OSError, ValueError, RecursionError): return None
  if not isinstance(data, dict) or not isinstance(data.get("notebook"), str) or not isinstance(data.get("files"), dict): return None
  names = lambda v: [x for x in v if isinstance(x, str)] if isinstance(v, list) else []
  return {"notebook": data["notebook"], "files": {str(k): v for k, v in data["files"].items() if isinstance(v, str)},
          "answer_files": names(data.get("answer_files")), "learner_files": names(data.get("learner_files"))}
