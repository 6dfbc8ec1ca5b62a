"""`autograder export-student DIR`: the learner-facing repository. The starters, the course text, the data, the
`autograder` package (self-check; nothing secret lives in it) and the set-up, with a learner README, Makefile, CI
workflow and dev container (.devcontainer/devcontainer.json: a Codespace or VS Code opens set up, with JupyterLab);
no solutions, no hidden tests, no mutants, no reference observations, no solution checkpoints, no data that a module
hides from learners (MNIST's test labels). It refuses to finish if anything of a solution or a hidden test got in."""
from __future__ import annotations
import re, shutil
from pathlib import Path
from autograder.core.assemble import read_notebook
from autograder.core.course import REPO, module_names, notebook_path
from autograder.core.settings import module_settings

# scripts: only what a learner runs (the set-up, the site build); the instructors' scripts read solutions/
COPIED = ["projects", "course", "autograder", "scripts/setup.sh", "scripts/mkdocs_hooks.py", "data", "pyproject.toml", "mkdocs.yml"]
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints", "*.egg-info")
MARKERS = re.compile(r"(BEGIN|END) (SOLUTION|HIDDEN TESTS)")
LEARNER = Path(__file__).parent / "learner_repo"          # the learner repository's own README, Makefile, CI workflow and dev container
GITIGNORE = ".venv/\n__pycache__/\n*.egg-info/\n.ipynb_checkpoints/\n/site/\ncheck.json\ncheck.md\n.last_check.json\n"

class LeakFound(Exception): pass

def _learner_nav(path:Path):
  """mkdocs.yml without the instructors' pages."""
  import yaml
  if not path.is_file(): return
  conf = yaml.safe_load(path.read_text())
  def keep(item):
    if isinstance(item, str): return not item.startswith("instructors/")
    if isinstance(item, dict):
      for k, v in list(item.items()):
        if isinstance(v, list): item[k] = [x for x in v if keep(x)]
        if (isinstance(item[k], str) and not keep(item[k])) or item[k] == []: del item[k]
      return bool(item)
    return True
  conf["nav"] = [x for x in conf.get("nav", []) if keep(x)]
  path.write_text(yaml.safe_dump(conf, sort_keys=False, allow_unicode=True))

def hidden_data(repo:Path=REPO) -> list[str]:
  """The data files (relative to data/) that some module's metadata hides from learners (`hide_data`)."""
  return sorted({h for m in module_names(repo / "solutions") for h in module_settings(read_notebook(notebook_path(repo / "solutions", m)))["hide_data"]})

def leaks(folder:Path) -> list[str]:
  """Files of `folder` that hold a solution or hidden-test marker (the test in tests/ also looks for their lines)."""
  out = []
  for path in sorted(folder.rglob("*")):
    if not path.is_file() or path.is_relative_to(folder / "autograder"): continue   # the grader's own code names the markers
    try: text = path.read_text()
    except (UnicodeDecodeError, OSError): continue
    if MARKERS.search(text): out.append(str(path.relative_to(folder)))
  return out

def export_student(dest:Path, repo:Path=REPO) -> list[str]:
  """Write the learner repository into `dest` (which must not exist yet); returns the files written."""
  dest = Path(dest)
  if dest.exists() and any(dest.iterdir()): raise FileExistsError(f"{dest} exists and is not empty")
  dest.mkdir(parents=True, exist_ok=True)
  for name in COPIED:
    src = repo / name
    if src.is_dir(): shutil.copytree(src, dest / name, ignore=IGNORED, symlinks=True)
    elif src.is_file(): (dest / name).parent.mkdir(parents=True, exist_ok=True); shutil.copyfile(src, dest / name)
  shutil.rmtree(dest / "course" / "instructors", ignore_errors=True)       # releasing and grading: not the learner's business
  for hidden in hidden_data(repo): (dest / "data" / hidden).unlink(missing_ok=True)   # what only the grader may read (test labels)
  _learner_nav(dest / "mkdocs.yml")
  shutil.copyfile(LEARNER / "README.md", dest / "README.md")
  shutil.copyfile(LEARNER / "Makefile", dest / "Makefile")
  (dest / ".github" / "workflows").mkdir(parents=True)
  shutil.copyfile(LEARNER / "workflows" / "check.yml", dest / ".github" / "workflows" / "check.yml")
  (dest / ".devcontainer").mkdir()
  shutil.copyfile(LEARNER / "devcontainer.json", dest / ".devcontainer" / "devcontainer.json")   # Codespaces / VS Code: set up, JupyterLab
  (dest / ".gitignore").write_text(GITIGNORE)
  found = leaks(dest)
  if found:
    shutil.rmtree(dest)
    raise LeakFound(f"refusing to export: solution or hidden-test markers in {', '.join(found[:5])}")
  return sorted(str(p.relative_to(dest)) for p in dest.rglob("*") if p.is_file())
