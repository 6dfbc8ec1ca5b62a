"""A module is a folder plus its content: copying a folder and writing its content must leave nothing out. Every module
of solutions/ has its course page, an entry in the site's navigation, a row in the home page's and the README's
module tables and a file of hand-written wrong variants; support files that several modules ship under the same name
stay byte-identical (module 10 carries module 04's MNIST loader)."""
import re
import pytest, yaml
from autograder.core.course import REPO, module_names

SOLUTIONS = REPO / "solutions"
MODULES = module_names(SOLUTIONS)

def nav_pages(items) -> list[str]:
  out = []
  for item in items:
    if isinstance(item, str): out.append(item)
    elif isinstance(item, dict):
      for v in item.values(): out += nav_pages(v) if isinstance(v, list) else [v]
  return out

@pytest.mark.parametrize("module", MODULES)
def test_every_module_has_its_page_nav_entry_table_rows_and_mutants(module):
  page = f"{module}.md"
  missing = [what for what, ok in [
    (f"course/{page}", (REPO / "course" / page).is_file()),
    ("an entry in mkdocs.yml's nav", page in nav_pages(yaml.safe_load((REPO / "mkdocs.yml").read_text())["nav"])),
    ("a row in course/index.md's module table", f"]({page})" in (REPO / "course" / "index.md").read_text()),
    ("a row in README.md's module table", re.search(rf"^\| `{module}`", (REPO / "README.md").read_text(), re.M) is not None),
    (f"tests/mutants/{module}.py", (REPO / "tests" / "mutants" / f"{module}.py").is_file()),
  ] if not ok]
  assert not missing, f"{module} has no " + ", no ".join(missing)

def test_support_files_shared_by_modules_stay_identical():
  by_name = {}
  for path in sorted(SOLUTIONS.glob("*/*.py")): by_name.setdefault(path.name, []).append(path)
  differ = [name for name, paths in by_name.items() if len(paths) > 1 and len({p.read_bytes() for p in paths}) > 1]
  assert not differ, f"support files with the same name differ between modules: {differ} (copy the newer one over the others)"
