"""The course text as test data: its pages, its fenced code blocks and their markers, the runner that executes the
Python blocks of a page, and the built site (built once per test session, shared by pytest-xdist workers).

Conventions for authors (also in course/instructors/site.md):

* Every block fenced as ```` ```python ```` runs, in order, in one fresh Python process per page (blocks of a page share
  their names), with `DEV=CPU` and `NUM_CPU_THREADS=2`, in the repository's root. Blocks must not write files there
  (use `tempfile`); the test checks that no new file appears in the root.
* A block that states its output is followed (only blank lines between) by a block fenced as ```` ```output ````; the
  block's stdout must match it. `...` in the stated output matches anything (doctest's ELLIPSIS), trailing spaces and
  leading/trailing blank lines are ignored.
* A marker is an HTML comment on the line right above the fence (invisible in the site):
  `<!-- test: needs-gpu REASON -->`, `<!-- test: needs-network REASON -->`: not run, reported as skipped with REASON;
  `<!-- test: needs-notebook REASON -->`: a fragment of a notebook cell that calls a module's answers (instructor
  pages): not run, reported as skipped with REASON;
  `<!-- test: fresh VAR=value ... -->`: run alone in a new process whose environment has these variables (what must
  be set before `import tinygrad`);
  `<!-- test: excerpt tinygrad/PATH.py -->`: a quotation of tinygrad's source, not run: every line must occur, in
  order, in that file of the installed package (a line `...` stands for lines left out).
"""
from __future__ import annotations
import doctest, fcntl, hashlib, json, os, re, shutil, subprocess, sys, tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
COURSE = REPO / "course"
RUNNER = Path(__file__).parent / "docs_runner.py"
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`]*)$")
MARKER = re.compile(r"^\s*<!--\s*test:\s*(?P<kind>[a-z-]+)\s*(?P<rest>.*?)\s*-->\s*$")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
KINDS = {"needs-gpu", "needs-network", "needs-notebook", "fresh", "excerpt"}

@dataclass
class Block:
  page: str                 # path relative to course/
  line: int                 # 1-based line of the first code line
  lang: str
  code: str
  marker: str = ""          # kind of marker, "" for none
  marker_arg: str = ""
  output: str | None = None # the stated output, if any
  output_line: int = 0
  @property
  def where(self) -> str: return f"course/{self.page}:{self.line}"
  @property
  def runs(self) -> bool: return self.lang == "python" and self.marker in ("", "fresh")

def pages() -> list[Path]:
  return sorted(COURSE.rglob("*.md"))

def parse(path:Path, root:Path=COURSE) -> list[Block]:
  """The fenced blocks of a page, with their markers and stated outputs."""
  lines = path.read_text().splitlines()
  page = str(path.relative_to(root))
  raw, i = [], 0
  while i < len(lines):
    m = FENCE.match(lines[i])
    if not m: i += 1; continue
    indent, fence, info = m["indent"], m["fence"], m["info"].strip()
    lang = info.split()[0].lstrip("{.").rstrip("}") if info else ""
    j = i + 1
    while j < len(lines) and not (lines[j].strip().startswith(fence[0] * len(fence)) and lines[j].strip().strip(fence[0]) == ""):
      j += 1
    body = [l[len(indent):] if l.startswith(indent) else l.lstrip() for l in lines[i+1:j]]
    prev = next((lines[k] for k in range(i - 1, -1, -1) if lines[k].strip()), "")
    raw.append((i, j, lang, "\n".join(body) + "\n", MARKER.match(prev)))
    i = j + 1
  blocks: list[Block] = []
  for n, (start, end, lang, code, mk) in enumerate(raw):
    if lang == "output": continue
    b = Block(page, start + 2, lang, code, mk["kind"] if mk else "", mk["rest"] if mk else "")
    if n + 1 < len(raw) and raw[n+1][2] == "output" and all(not l.strip() for l in lines[end+1:raw[n+1][0]]):
      b.output, b.output_line = raw[n+1][3], raw[n+1][0] + 2
    blocks.append(b)
  return blocks

def all_blocks() -> list[Block]:
  return [b for p in pages() for b in parse(p)]

def markers_ok(blocks:list[Block]) -> list[str]:
  bad = [f"{b.where}: unknown marker {b.marker!r}" for b in blocks if b.marker and b.marker not in KINDS]
  bad += [f"{b.where}: a marker on a {b.lang or 'plain'} block" for b in blocks if b.marker and b.lang != "python"]
  bad += [f"{b.where}: skipped without a reason" for b in blocks if b.marker.startswith("needs-") and len(b.marker_arg) < 10]
  bad += [f"{b.where}: output stated for a block that is not code" for b in blocks if b.output is not None and b.lang != "python"]
  bad += [f"{b.where}: output stated for an excerpt" for b in blocks if b.output is not None and b.marker == "excerpt"]
  return bad

# ---------------------------------------------------------------------------------------------------------------------
# running the blocks of a page

def _env(extra:dict|None=None) -> dict:
  env = {k: v for k, v in os.environ.items() if not k.startswith(("DEBUG", "BEAM", "NOOPT", "VIZ"))}
  env.update(DEV="CPU", NUM_CPU_THREADS="2", MPLBACKEND="Agg", PYTHONHASHSEED="0", PYTHONPATH=str(REPO))
  env.setdefault("CACHEDB", str(Path(tempfile.gettempdir()) / "tinygrad-workbook-docs-cache.db"))
  env.update(extra or {})
  return env

def run_blocks(blocks:list[Block], scratch:Path, env:dict|None=None, timeout:float=300, python:str|None=None, root:Path=COURSE) -> list[dict]:
  """Run blocks in order in one new process, in the repository's root (as a learner would); one result per block:
  {"error": traceback or None, "stdout": ..., "seconds": ...}. `scratch` holds the results file. `python`: another
  interpreter (the canary's, `autograder canary`); `root`: the folder of the pages."""
  out = scratch / f"results-{blocks[0].line}.json"
  payload = json.dumps([{"file": str(root / b.page), "line": b.line, "code": b.code} for b in blocks])
  try:
    done = subprocess.run([python or sys.executable, str(RUNNER), str(out)], input=payload, cwd=REPO, env=_env(env),
                          capture_output=True, text=True, timeout=timeout)
    crash = None if done.returncode == 0 else f"the process ended with {done.returncode}: {done.stderr[-2000:]}"
  except subprocess.TimeoutExpired:
    crash = f"timed out after {timeout} s"
  results = json.loads(out.read_text()) if out.exists() else []
  while len(results) < len(blocks): results.append({"error": crash or "did not run", "stdout": "", "seconds": 0})
  return results

def run_page(page:str, scratch:Path, python:str|None=None, root:Path=COURSE, env:dict|None=None) -> list[tuple[Block, dict]]:
  """Every runnable block of a page: the plain ones in one shared process, each `fresh` one in its own. `python`,
  `root`, `env`: another interpreter, folder of pages and environment variables (the canary's)."""
  blocks = [b for b in parse(root / page, root) if b.runs]
  shared = [b for b in blocks if b.marker == ""]
  results = dict(zip((b.line for b in shared), run_blocks(shared, scratch, env, python=python, root=root))) if shared else {}
  for b in blocks:
    if b.marker == "fresh":
      extra = dict(kv.split("=", 1) for kv in b.marker_arg.split()) if b.marker_arg else {}
      results[b.line] = run_blocks([b], scratch, {**(env or {}), **extra}, python=python, root=root)[0]
  return [(b, results[b.line]) for b in blocks]

def output_matches(want:str, got:str) -> bool:
  norm = lambda s: "\n".join(l.rstrip() for l in ANSI.sub("", s).strip("\n").splitlines()) + "\n"   # colours off
  return doctest.OutputChecker().check_output(norm(want), norm(got), doctest.ELLIPSIS)

def failures(results:list[tuple[Block, dict]]) -> list[str]:
  out = []
  for b, r in results:
    if r["error"]: out.append(f"{b.where}: the block raised\n{r['error']}")
    elif b.output is not None and not output_matches(b.output, r["stdout"]):
      out.append(f"{b.where}: the output differs from the one stated at course/{b.page}:{b.output_line}\n"
                 f"--- stated\n{b.output}--- printed\n{r['stdout']}")
  return out

# ---------------------------------------------------------------------------------------------------------------------
# excerpts of tinygrad's source

def tinygrad_root(python:str|None=None) -> Path:
  done = subprocess.run([python or sys.executable, "-c", "import tinygrad, os; print(os.path.dirname(tinygrad.__file__))"],
                        capture_output=True, text=True, env=_env(), check=True)
  return Path(done.stdout.strip())

def excerpt_problem(b:Block, root:Path) -> str | None:
  """None when every line of the excerpt occurs, in order, in the file it quotes."""
  rel = b.marker_arg.split()[0] if b.marker_arg else ""
  if not rel.startswith("tinygrad/"): return f"{b.where}: the excerpt names no tinygrad/ file"
  path = root.parent / rel
  if not path.is_file(): return f"{b.where}: {rel} does not exist in the installed tinygrad"
  norm = lambda l: re.sub(r"\s+#.*$", "", l.strip())             # a quotation may add or drop a trailing comment
  src = [norm(l) for l in path.read_text().splitlines()]
  pos = 0
  for want in (norm(l) for l in b.code.splitlines()):
    if not want or want == "...": continue
    try: pos = src.index(want, pos) + 1
    except ValueError: return f"{b.where}: the line {want!r} is not (in this order) in {rel}"
  return None

# ---------------------------------------------------------------------------------------------------------------------
# the built site: one `mkdocs build --strict` per session, shared by xdist workers through a lock

def site_inputs_hash() -> str:
  h = hashlib.sha256()
  for p in sorted([REPO / "mkdocs.yml", *COURSE.rglob("*"), *(REPO / "scripts").glob("mkdocs_*.py"), *(REPO / "projects").rglob("*")]):
    if p.is_file() and "__pycache__" not in p.parts: h.update(str(p.relative_to(REPO)).encode()); h.update(p.read_bytes())
  return h.hexdigest()[:16]

def built_site() -> tuple[Path, str, float]:
  """(site folder, mkdocs's log, seconds the build took); built once for the current course text."""
  base = Path(tempfile.gettempdir()) / f"tinygrad-workbook-site-{hashlib.sha256(str(REPO).encode()).hexdigest()[:8]}"
  base.mkdir(exist_ok=True)
  key = site_inputs_hash()
  site, log, secs = base / key, base / f"{key}.log", base / f"{key}.seconds"
  with open(base / "lock", "w") as lock:
    fcntl.flock(lock, fcntl.LOCK_EX)
    if not (site / "index.html").exists() or not secs.exists():
      import time
      for old in base.iterdir():                                        # earlier builds of this checkout
        if old.name != "lock" and not old.name.startswith(key):
          shutil.rmtree(old) if old.is_dir() else old.unlink()
      t0 = time.perf_counter()
      done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)], cwd=REPO,
                            capture_output=True, text=True, timeout=300, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
      log.write_text(f"exit {done.returncode}\n{done.stdout}{done.stderr}")
      if done.returncode == 0: secs.write_text(f"{time.perf_counter() - t0:.2f}")
      else: shutil.rmtree(site, ignore_errors=True)
  return site, log.read_text(), float(secs.read_text()) if secs.exists() else -1.0

if __name__ == "__main__":     # python tests/course_docs.py course/PAGE.md ...: run the pages' blocks, show what they print
  import time
  for arg in sys.argv[1:]:
    page = str(Path(arg).resolve().relative_to(COURSE))
    with tempfile.TemporaryDirectory() as tmp:
      t0 = time.perf_counter(); res = run_page(page, Path(tmp))
    for b, r in res:
      print(f"--- {b.where} ({r['seconds']} s){' [fresh]' if b.marker == 'fresh' else ''}\n{r['stdout']}", end="")
      if r["error"]: print(r["error"])
    print("\n".join(failures(res)) or f"{page}: {len(res)} blocks ok", f"({time.perf_counter() - t0:.1f} s)")
