"""mkdocs hook (mkdocs.yml: `hooks:`): the site serves the starter notebooks of projects/ (and their answer files), so
that a module page links `projects/NN_name/NN_name.ipynb` and the strict build checks the link. Never solutions/, never
the pristine copies in `.released/`."""
from pathlib import Path
from mkdocs.structure.files import File

def on_files(files, config):
  projects = Path(config["config_file_path"]).parent / "projects"
  for path in sorted(projects.glob("[0-9][0-9]_*/*")):
    if path.is_file() and path.suffix in (".ipynb", ".py"):
      files.append(File.generated(config, f"projects/{path.parent.name}/{path.name}", abs_src_path=str(path)))
  return files
