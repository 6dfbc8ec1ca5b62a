"""The course text cannot rot: its Python blocks run against the pinned tinygrad (DEV=CPU) and print what they say they
print; every tinygrad path and `tinygrad.` name it mentions exists (and every name it says is gone, is gone); the site
builds with `mkdocs build --strict`; module pages link their starter notebooks, never solutions; the figures are what
scripts/figures.py makes. Conventions: tests/support/course_docs.py and course/instructors/site.md."""
from __future__ import annotations
import json, re, subprocess, sys, tempfile
from pathlib import Path
import pytest, yaml
from course_docs import COURSE, REPO, all_blocks, built_site, excerpt_problem, failures, markers_ok, output_matches, pages, parse, run_page, \
  tinygrad_root, _env

pytestmark = pytest.mark.slow          # runs the course's code blocks and builds the site

BLOCKS = all_blocks()
RUN_PAGES = sorted({b.page for b in BLOCKS if b.runs})
SKIPPED = [b for b in BLOCKS if b.marker.startswith("needs-")]
EXCERPTS = [b for b in BLOCKS if b.marker == "excerpt"]

# names and paths the course says are gone from 0.14 (the API-changes page): they must stay gone, or the page is wrong
GONE_NAMES = {"tinygrad.shape", "tinygrad.shape.shapetracker", "tinygrad.shape.shapetracker.ShapeTracker", "tinygrad.shape.view",
              "tinygrad.ops", "tinygrad.lazy", "tinygrad.codegen.kernel", "tinygrad.codegen.kernel.Kernel",
              "tinygrad.engine.schedule", "tinygrad.runtime.ops_clang", "tinygrad.runtime.ops_llvm",
              "tinygrad.function.Function", "tinygrad.tensor.Function", "tinygrad.mlops", "tinygrad.engine.realize.CompiledRunner",
              "tinygrad.engine.realize.ExecItem", "tinygrad.engine.realize.run_schedule", "tinygrad.engine.realize.lower_schedule",
              "tinygrad.tensor.Tensor.lazydata", "tinygrad.tensor.Tensor.schedule", "tinygrad.tensor.Tensor.train",
              "tinygrad.tensor.Tensor.training", "tinygrad.tensor.Tensor.no_grad", "tinygrad.tensor.Tensor.kernelize",
              "tinygrad.runtime.ops_ptx"}
GONE_PATHS = {"tinygrad/runtime/ops_clang.py", "ops_clang.py", "tinygrad/runtime/ops_llvm.py", "ops_llvm.py", "tinygrad/shape/",
              "tinygrad/shape/shapetracker.py", "tinygrad/shape/view.py", "tinygrad/lazy.py", "tinygrad/ops.py", "mlops.py",
              "tinygrad/mlops.py", "tinygrad/codegen/kernel.py", "tinygrad/engine/schedule.py", "tinygrad/codegen/linearize.py"}
MADE_BY_THE_COURSE = {"tinygrad.runtime.ops_my", "tinygrad.runtime.ops_echo"}   # registered at run time (module 07, backends page)
SUBPACKAGES = "codegen|engine|mixin|nn|renderer|runtime|schedule|uop|viz|llm"
PATH_RE = re.compile(rf"(?<![\w/.-])((?:tinygrad/|(?:{SUBPACKAGES})/)(?:\w+/)*(?:\w+\.py)?|ops_\w+\.py)(?::([A-Za-z_][\w.]*))?")
NAME_RE = re.compile(r"(?<![\w./-])tinygrad(?:\.[A-Za-z_]\w*)+(?![\w<])")

def course_text() -> list[tuple[str, str]]:
  return [(str(p.relative_to(COURSE)), p.read_text()) for p in pages()]

# ---------------------------------------------------------------------------------------------------------------------
# code blocks

def test_markers_are_known_and_skips_give_a_reason():
  assert not markers_ok(BLOCKS), "\n".join(markers_ok(BLOCKS))

# what other tests write into the root meanwhile, on the other worker: test_site_browser's build/screenshots (a full run
# of 2026-12-04 saw it appear while 11's blocks ran)
WRITTEN_BY_OTHER_TESTS = {"build"}

def root_files() -> set[str]: return {p.name for p in REPO.iterdir()} - WRITTEN_BY_OTHER_TESTS

@pytest.mark.parametrize("page", RUN_PAGES)
def test_python_blocks_run_and_print_what_they_state(page, tmp_path):
  before = root_files()
  results = run_page(page, tmp_path)
  slow = sorted(((r["seconds"], b.where) for b, r in results), reverse=True)[:3]
  print(f"{page}: {len(results)} blocks, {sum(r['seconds'] for _, r in results):.1f} s in the blocks; slowest: {slow}")
  problems = failures(results)
  assert not problems, "\n\n".join(problems)
  assert root_files() <= before, f"the blocks of {page} wrote {root_files() - before} into the repository's root"

@pytest.mark.parametrize("block", SKIPPED, ids=[b.where for b in SKIPPED])
def test_block_not_run_here(block):
  """Blocks that need a GPU, the network, or a module's notebook: listed as skipped, with the page's reason."""
  need = {"needs-gpu": "needs a GPU", "needs-network": "needs the network", "needs-notebook": "needs a module's notebook"}
  pytest.skip(f"{block.where}: {need[block.marker]}: {block.marker_arg}")

@pytest.fixture(scope="module")
def tg_root() -> Path: return tinygrad_root()

@pytest.mark.parametrize("block", EXCERPTS, ids=[b.where for b in EXCERPTS])
def test_source_excerpts_are_in_the_installed_tinygrad(block, tg_root):
  problem = excerpt_problem(block, tg_root)
  assert problem is None, problem

def test_the_block_conventions_are_parsed(tmp_path):
  """The parser on a page written for it: a stated output, each marker, an indented block, a non-Python block."""
  page = tmp_path / "probe.md"
  page.write_text("x\n\n```python\nprint(1)\n```\n\n```output\n1\n```\n\n<!-- test: needs-gpu a CUDA device for this -->\n"
                  "```python\nimport cuda\n```\n\n!!! note\n    ```python\n    print(2)\n    ```\n\n```bash\nls\n```\n")
  bs = parse(page, tmp_path)
  assert [(b.lang, b.marker, b.output, b.line) for b in bs] == [("python", "", "1\n", 4), ("python", "needs-gpu", None, 13),
                                                                 ("python", "", None, 18), ("bash", "", None, 22)]
  assert bs[2].code == "print(2)\n" and not bs[1].runs and not bs[3].runs
  assert output_matches("a ... c\n\n", "a b c  \n") and output_matches("x\n", "\x1b[32mx\x1b[0m\n")
  assert not output_matches("1\n", "2\n") and not output_matches("1\n", "1\n2\n")

# ---------------------------------------------------------------------------------------------------------------------
# tinygrad paths and names

def test_tinygrad_paths_exist(tg_root):
  files = {str(p.relative_to(tg_root.parent)) for p in tg_root.rglob("*.py")}
  dirs = {str(p.relative_to(tg_root.parent)) + "/" for p in [tg_root, *tg_root.rglob("*")] if p.is_dir() and p.name != "__pycache__"}
  names_by_base = {Path(f).name for f in files}
  written = {n.rsplit(".", 1)[1] + ".py" for n in MADE_BY_THE_COURSE}          # files the course writes (the ECHO example's ops_echo.py)
  bad, seen = [], 0
  for page, text in course_text():
    for m in PATH_RE.finditer(text):
      path, member = m[1], m[2]
      seen += 1
      if path in written: continue
      if path in GONE_PATHS or Path(path).name in GONE_PATHS:
        if path in files or path in dirs or (("/" not in path) and path in names_by_base): bad.append(f"{page}: {path} is said to be gone, but exists")
        continue
      full = path if path.startswith("tinygrad/") else ("tinygrad/" + path if "/" in path else None)
      ok = (full in files or full in dirs) if full else path in names_by_base
      if not ok: bad.append(f"{page}: {path} is not in the installed tinygrad"); continue
      if member and full and full.endswith(".py"):
        src, last = (tg_root.parent / full).read_text(), member.rstrip(".").split(".")[-1]
        if not re.search(rf"(def|class)\s+{last}\b|^\s*{last}\s*[:=]|\b{last}\s*=", src, re.M):
          bad.append(f"{page}: {path} defines no {last}")
  print(f"{seen} tinygrad paths checked")
  assert seen > 50 and not bad, "\n".join(bad)

RESOLVE = r"""
import importlib, importlib.util, json, sys
def resolves(name):
  parts = name.split(".")
  for i in range(len(parts), 0, -1):
    mod = ".".join(parts[:i])
    try: spec = importlib.util.find_spec(mod)
    except (ImportError, ValueError, AttributeError): spec = None
    if spec is None: continue
    if i == len(parts): return True
    try: obj = importlib.import_module(mod)
    except Exception: return False
    for p in parts[i:]:
      if not hasattr(obj, p): return False
      obj = getattr(obj, p)
    return True
  return False
print(json.dumps({n: resolves(n) for n in json.load(sys.stdin)}))
"""

def test_tinygrad_names_resolve():
  """Every `tinygrad.a.b` the course mentions imports (module) or is an attribute of one; the gone ones stay gone."""
  mentioned = {}
  for page, text in course_text():
    for m in NAME_RE.finditer(text): mentioned.setdefault(m[0], page)
  names = sorted(set(mentioned) | GONE_NAMES)
  done = subprocess.run([sys.executable, "-c", RESOLVE], input=json.dumps(names), capture_output=True, text=True,
                        env=_env(), timeout=120, cwd=tempfile.gettempdir())
  assert done.returncode == 0, done.stderr[-2000:]
  ok = json.loads(done.stdout)
  bad = [f"{mentioned[n]}: {n} does not exist in tinygrad 0.14.0" for n in mentioned
         if not ok[n] and n not in GONE_NAMES and n not in MADE_BY_THE_COURSE]
  bad += [f"{mentioned.get(n, 'GONE_NAMES')}: {n} is said to be gone, but exists" for n in GONE_NAMES if ok[n]]
  print(f"{len(mentioned)} tinygrad names checked")
  assert len(mentioned) > 20 and not bad, "\n".join(bad)

# ---------------------------------------------------------------------------------------------------------------------
# the site

def nav_pages(nav) -> list[str]:
  out = []
  for item in nav:
    if isinstance(item, str): out.append(item)
    elif isinstance(item, dict):
      for v in item.values(): out += nav_pages(v) if isinstance(v, list) else [v]
  return out

def test_docs_build_strict():
  site, log, seconds = built_site()
  print(f"mkdocs build --strict: {seconds:.1f} s -> {site}")
  assert (site / "index.html").exists(), log[-3000:]
  assert "WARNING" not in log, log[-3000:]

def test_every_page_is_in_the_nav_in_order():
  conf = yaml.safe_load((REPO / "mkdocs.yml").read_text())
  listed = nav_pages(conf["nav"])
  on_disk = sorted(str(p.relative_to(COURSE)) for p in pages())
  assert sorted(listed) == on_disk, f"not in the nav: {set(on_disk) - set(listed)}; missing files: {set(listed) - set(on_disk)}"
  modules = [p for p in listed if re.match(r"\d\d_", p)]
  assert modules == sorted(modules), "module pages must be in numbering order"
  sections = [next(iter(i)) for i in conf["nav"] if isinstance(i, dict) and isinstance(next(iter(i.values())), list)]
  assert sections[-1] == "For instructors", sections

def module_pages() -> list[Path]:
  return sorted(p for p in COURSE.glob("[0-9][0-9]_*.md"))

def test_module_pages_link_their_starter_never_solutions():
  bad = []
  for p in module_pages():
    text, name = p.read_text(), p.stem
    if f"](projects/{name}/{name}.ipynb)" not in text: bad.append(f"{p.name}: no link to projects/{name}/{name}.ipynb")
    if re.search(r"\]\([^)]*solutions/", text) or re.search(r"(?<![\w-])solutions/\d\d_", text):
      bad.append(f"{p.name}: mentions a solutions/ path")
    if not (REPO / "projects" / name / f"{name}.ipynb").exists(): bad.append(f"{p.name}: projects/{name}/{name}.ipynb is missing")
  assert module_pages() and not bad, "\n".join(bad)

def test_module_pages_say_what_they_need():
  """The issue's checklist: the notebook, learning goals, the time it takes, a GPU or not, the tasks."""
  bad = []
  for p in module_pages():
    text = p.read_text()
    for what, pattern in [("learning goals", r"## What you learn"), ("the tasks", r"## (Tasks|How the tasks)"),
                          ("the time it takes", r"\b(about|plan on|takes)\b[^.]{0,40}\b(hours?|minutes|a day)\b"),
                          ("a GPU or not", r"\b(no GPU|needs? an? (NVIDIA )?GPU|GPU is (not )?needed|without a GPU)\b")]:
      if not re.search(pattern, text, re.I): bad.append(f"{p.name}: does not say {what}")
  assert not bad, "\n".join(bad)

def test_the_home_page_lists_every_module():
  home = (COURSE / "index.md").read_text()
  missing = [p.name for p in module_pages() if f"]({p.name})" not in home]
  assert not missing, f"course/index.md's module table has no row for {missing}"

def test_learner_pages_do_not_link_instructor_pages():
  """export-student drops course/instructors/: a learner page linking there would break the learners' strict build."""
  bad = [f"{page}" for page, text in course_text() if not page.startswith("instructors/") and re.search(r"\]\((\.\./)*instructors/", text)]
  assert not bad, bad

def test_the_site_serves_the_starters_not_the_solutions():
  site, log, _ = built_site()
  assert (site / "index.html").exists(), log[-3000:]
  for p in module_pages():
    assert (site / "projects" / p.stem / f"{p.stem}.ipynb").is_file(), p.stem
  served = [str(f.relative_to(site)) for f in site.rglob("*") if f.is_file()]
  assert not [f for f in served if f.startswith("solutions") or ".released" in f], "a solution reached the site"
  starters = [site / f for f in served if f.startswith("projects/")]
  assert starters and not [f for f in starters if re.search(r"(BEGIN|END) (SOLUTION|HIDDEN TESTS)", f.read_text())]

# ---------------------------------------------------------------------------------------------------------------------
# figures

def test_figures_are_what_the_script_makes(tmp_path):
  """scripts/figures.py regenerates every committed figure byte for byte (from real runs and the data files)."""
  done = subprocess.run([sys.executable, str(REPO / "scripts" / "figures.py"), "--out", str(tmp_path)], cwd=REPO, env=_env(),
                        capture_output=True, text=True, timeout=300)
  assert done.returncode == 0, done.stderr[-3000:]
  committed = sorted(p.name for p in (COURSE / "figures").glob("*.svg"))
  made = sorted(p.name for p in tmp_path.glob("*.svg"))
  assert committed == made and made
  differ = [n for n in made if (tmp_path / n).read_bytes() != (COURSE / "figures" / n).read_bytes()]
  assert not differ, f"out of date (run `python scripts/figures.py`): {differ}"
  used = "".join(t for _, t in course_text())
  assert not [n for n in made if f"figures/{n}" not in used], "a figure no page shows"
