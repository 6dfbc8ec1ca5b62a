"""`autograder canary --tinygrad VERSION`: what another tinygrad release does to the course, before the course moves
to it. In a virtual environment of its own (never .venv) with that tinygrad and every other pin of pyproject.toml,
it runs every module's reference solution against its visible and hidden checks (the reference run of grading, with
the oracle, uncached) and every code block of the course pages (the runner of tests/support/course_docs.py: stated
outputs compared, tinygrad excerpts looked up in the installed source), and reports per module and task what still
passes, what fails and the first line of why, in Markdown and JSON.

The environment: `--venv DIR`, by default `canary-VERSION` in the grader's cache (~/.cache/tinygrad-workbook or
$AUTOGRADER_CACHE), built once per version and pins (a stamp file says which) by this environment's pip (its
`--python` option: the new environment has no pip of its own), which reuses its own cache.
`--overlay` installs only tinygrad there and takes every other pinned package from the environment running this
command (a path line, read only): seconds instead of minutes, for the tests and a quick look. The runs use a
tinygrad compile cache and reference folder of the canary's own, so nothing of the course's caches is touched.

The messages are the reference run's own (a failing check states what it expected, hidden checks included): the
report is for instructors, like the gradebook."""
from __future__ import annotations
import importlib.metadata, importlib.util, json, os, re, subprocess, sys, sysconfig, tempfile, time, tomllib
sys.modules.setdefault("rfc3987_syntax", None)     # as in cli.py: its grammar, compiled at import by jsonschema, costs seconds
from pathlib import Path
from autograder.core.assemble import assemble
from autograder.core.cells import grade_id, is_test, points
from autograder.core.course import REPO
from autograder.core.module import Module
from autograder.core.report import md
from autograder.core.results import CanaryStatus, CellState, ModuleStatus, Outcome, RunStatus
from autograder.core.verdict import error_text
from autograder.core.runs import cache_root, run_module

PACKAGE_NAME = "tinygrad"
COURSE_DOCS = REPO / "tests" / "support" / "course_docs.py"      # the runner of the course's code blocks (the instructor's checkout has it)
STATUSES = tuple(CanaryStatus)

class CanaryError(RuntimeError): pass

# ---- the environment ----------------------------------------------------------------------------------------------

def pins(version:str, pyproject:Path=REPO / "pyproject.toml") -> list[str]:
  """pyproject.toml's dependencies with tinygrad at `version`."""
  deps = tomllib.loads(Path(pyproject).read_text())["project"]["dependencies"]
  rest = [d for d in deps if re.split(r"[<>=!~ \[;]", d, 1)[0].strip().lower() != PACKAGE_NAME]
  return [f"{PACKAGE_NAME}=={version}"] + rest

def pinned_version(pyproject:Path=REPO / "pyproject.toml") -> str:
  dep = next((d for d in tomllib.loads(Path(pyproject).read_text())["project"]["dependencies"] if d.startswith(f"{PACKAGE_NAME}==")), "")
  return dep.split("==", 1)[1] if dep else "?"

def latest(python:str=sys.executable) -> str:
  """The newest tinygrad release the package index offers, asked of pip (`pip index versions`), which follows pip's
  configuration (index, find-links)."""
  done = subprocess.run([python, "-m", "pip", "index", "versions", PACKAGE_NAME], capture_output=True, text=True, timeout=300)
  m = re.search(rf"^{PACKAGE_NAME} \(([^)]+)\)", done.stdout, re.M)
  if not m: raise CanaryError(f"could not find the newest {PACKAGE_NAME} release with pip: {(done.stderr or done.stdout).strip().splitlines()[-1:] or ['no answer']}")
  return m[1]

def default_venv(version:str) -> Path: return cache_root() / f"canary-{version}"

def base_python() -> str:
  """The interpreter a new virtual environment is made from (the base one when this runs in a virtual environment)."""
  return getattr(sys, "_base_executable", None) or sys.executable

def build(venv:Path, version:str, overlay:bool=False, log=print) -> str:
  """The canary's environment at `venv` (made or reused); returns its Python. Never writes outside `venv`."""
  venv = Path(venv).resolve()
  here = Path(sys.prefix).resolve()
  if venv == here or here.is_relative_to(venv) or venv == (REPO / ".venv").resolve():
    raise CanaryError(f"{venv} is the environment running this command: the canary needs one of its own")
  wanted = pins(version)
  stamp = json.dumps({"pins": wanted, "overlay": str(sysconfig.get_paths()["purelib"]) if overlay else "", "python": sys.version.split()[0]})
  python = venv / "bin" / "python"
  if python.is_file() and (venv / ".canary-stamp").is_file() and (venv / ".canary-stamp").read_text() == stamp:
    log(f"canary: reusing the environment {venv}"); return str(python)
  log(f"canary: building the environment {venv} ({'tinygrad ' + version + ' over this environment' if overlay else ', '.join(wanted)})")
  (venv / ".canary-stamp").unlink(missing_ok=True)
  _run([base_python(), "-m", "venv", "--clear", "--without-pip", str(venv)], "creating the virtual environment")
  pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--disable-pip-version-check"]   # this pip, for that Python
  _run(pip + (wanted[:1] if overlay else wanted), f"installing {'tinygrad ' + version if overlay else 'the pins'} with pip")
  if overlay:      # after pip ran: pip never sees (and never uninstalls from) the environment the overlay reads
    site = next((venv / "lib").glob("python3*/site-packages"))
    (site / "zz-canary-overlay.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
  (venv / ".canary-stamp").write_text(stamp)
  return str(python)

def _run(cmd:list[str], what:str):
  done = subprocess.run(cmd, capture_output=True, text=True)
  if done.returncode != 0:
    tail = [l for l in (done.stderr or done.stdout).strip().splitlines() if not l.startswith("WARNING: Location")][-3:]
    raise CanaryError(f"{what} failed (exit code {done.returncode}): {' / '.join(tail)}")

def environment(venv:Path) -> dict[str, str]:
  """The environment of the canary's runs: this grader on the path, caches of the canary's own."""
  keep = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "DEBUG", "BEAM", "NOOPT", "VIZ"))}
  return {**keep, "PYTHONPATH": str(REPO), "AUTOGRADER_CACHE": str(Path(venv) / "cache"), "CACHEDB": str(Path(venv) / "tinygrad-cache.db"),
          "DEV": os.environ.get("DEV", "CPU")}

# ---- one module's reference, inside the canary's environment ------------------------------------------------------------

SITE = []          # the canary environment's site-packages folder, left out of messages (its paths say nothing)

def site_of(prefix:str|Path) -> list[str]:
  return [str(p) + "/" for p in Path(prefix).glob("lib/python3*/site-packages")]

def first_line(text:str, limit:int=200) -> str:
  line = next((l.strip() for l in str(text).splitlines() if l.strip()), "")
  for site in SITE: line = line.replace(site, "")
  return line if len(line) <= limit else line[:limit - 3] + "..."

def verdict(outcome:Outcome, setup_errors:list[dict]) -> tuple[CanaryStatus, str, str]:
  """(status, first line of why, which checks: 'visible'/'hidden'/'') of one test of the reference run."""
  obs = outcome.observations
  failed = next((o for o in obs if o.ok is False), None)
  part = ("hidden" if failed.hidden else "visible") if failed else ""
  if outcome.state != CellState.RAN: return CanaryStatus.NOT_RUN, first_line(outcome.message or outcome.state), ""
  err = outcome.error
  if err:
    ename, evalue = err
    if ename == "CheckSkipped": return CanaryStatus.SKIPPED, first_line(evalue), ""
    if ename in ("CheckFailed", "AssertionError") and failed: return CanaryStatus.FAILS, first_line(evalue), part
    why = first_line(error_text(ename, evalue))
    if ename == "NameError" and setup_errors:
      first = setup_errors[0]
      why += f" (after the cell {first['cell']} raised {first_line(error_text(*first['error']), 120)})"
    return CanaryStatus.ERRORS, why, part
  if not obs: return CanaryStatus.FAILS, "the test made no observation", ""
  return CanaryStatus.PASSES, "", ""

def reference_checks(module:Module) -> dict:
  """The reference run of `module` in this interpreter, every test with its status and first line of why."""
  nb, titles = module.notebook, module.titles
  setup_errors, start = [], time.monotonic()
  try: tests, status, message, _ = run_module(assemble(nb, nb), module, None, learner=False, errors=setup_errors)
  except Exception as e:                                                    # the grader itself broke under this tinygrad
    tests, status, message = {}, ModuleStatus.GRADER_ERROR, first_line(f"{type(e).__name__}: {e}")
  out = []
  for c in nb.cells:
    if not is_test(c): continue
    state, why, part = verdict(tests.get(grade_id(c), Outcome(message=message)), setup_errors)
    n_obs = len(tests[grade_id(c)].observations) if grade_id(c) in tests else 0
    out.append({"test": grade_id(c), "task": titles.get(grade_id(c), ""), "points": points(c), "status": state, "why": why,
                "checks": part, "observed": n_obs})
  return {"module": module.name, "status": status, "message": first_line(message), "seconds": round(time.monotonic() - start, 1),
          "setup_errors": [{"cell": e["cell"], "error": first_line(error_text(*e["error"]))} for e in setup_errors], "tests": out}

def main(argv:list[str]|None=None):
  """`python -m autograder.authoring.canary MODULE SOURCE OUT.json`, run by the canary in its own environment."""
  module, solutions, out = (argv or sys.argv[1:])[:3]
  SITE[:] = site_of(sys.prefix)
  result = reference_checks(Module(module, Path(solutions)))
  result["tinygrad"] = importlib.metadata.version(PACKAGE_NAME)
  Path(out).write_text(json.dumps(result))

# ---- the whole canary ---------------------------------------------------------------------------------------------

def run_module_canary(python:str, module:Module, env:dict, timeout:float) -> dict:
  with tempfile.TemporaryDirectory(prefix="canary-") as tmp:
    out = Path(tmp) / "result.json"
    try:
      done = subprocess.run([python, "-m", "autograder.authoring.canary", module.name, str(Path(module.solutions).resolve()), str(out)], cwd=REPO, env=env,
                            capture_output=True, text=True, timeout=timeout)
      crash = first_line(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit code {done.returncode}")
    except subprocess.TimeoutExpired: crash = f"the module's canary run took longer than {timeout:.0f} s"
    if out.is_file(): return json.loads(out.read_text())
  nb = module.notebook
  return {"module": module.name, "status": ModuleStatus.GRADER_ERROR, "message": crash, "seconds": 0.0, "setup_errors": [],
          "tests": [{"test": grade_id(c), "task": "", "points": points(c), "status": CanaryStatus.NOT_RUN, "why": crash, "checks": "", "observed": 0}
                    for c in nb.cells if is_test(c)]}

def _course_docs():
  """tests/support/course_docs.py, loaded from the instructor's checkout (None where it is absent: a learner export)."""
  if not COURSE_DOCS.is_file(): return None
  if "course_docs" in sys.modules: return sys.modules["course_docs"]
  spec = importlib.util.spec_from_file_location("course_docs", COURSE_DOCS)
  mod = sys.modules["course_docs"] = importlib.util.module_from_spec(spec)       # (its dataclasses look themselves up there)
  spec.loader.exec_module(mod)
  return mod

def output_difference(stated:str, printed:str) -> str:
  """The first line where a block's output differs from the one its page states (a stated line with `...` matches
  anything, as in the docs tests)."""
  norm = lambda text: [l.rstrip() for l in re.sub(r"\x1b\[[0-9;]*m", "", text).strip("\n").splitlines()]
  want, got = norm(stated), norm(printed)
  for i, w in enumerate(want):
    g = got[i] if i < len(got) else None
    if "..." in w: continue
    if g != w:
      return first_line(f"prints otherwise than the page states, line {i + 1}: {g if g is not None else '(nothing)'} (stated: {w})", 300)
  return first_line(f"prints otherwise than the page states, where it states `...` ({len(got)} line(s) printed, {len(want)} stated)", 300)

def run_pages(python:str, pages_root:Path, env:dict, log=print) -> list[dict]:
  """Every code block of the pages under `pages_root`, run with the canary's Python: one row per page."""
  docs = _course_docs()
  if docs is None: return [{"page": "(all)", "blocks": [], "note": f"not run: {COURSE_DOCS.relative_to(REPO)} is not in this checkout"}]
  root = Path(pages_root).resolve()
  pages = sorted(root.rglob("*.md"))
  tiny_root = None
  out = []
  for n, path in enumerate(pages, 1):
    page = str(path.relative_to(root))
    blocks = docs.parse(path, root)
    rows, start = [], time.monotonic()
    if any(b.runs for b in blocks):
      with tempfile.TemporaryDirectory(prefix="canary-page-") as tmp:
        for b, r in docs.run_page(page, Path(tmp), python=python, root=root, env={k: env[k] for k in ("CACHEDB",)}):
          if r["error"]: rows.append({"where": f"{root.name}/{page}:{b.line}", "status": CanaryStatus.FAILS, "why": first_line(r["error"].strip().splitlines()[-1])})
          elif b.output is not None and not docs.output_matches(b.output, r["stdout"]):
            rows.append({"where": f"{root.name}/{page}:{b.line}", "status": CanaryStatus.FAILS, "why": output_difference(b.output, r["stdout"])})
          else: rows.append({"where": f"{root.name}/{page}:{b.line}", "status": CanaryStatus.PASSES, "why": ""})
    for b in blocks:
      if b.lang != "python": continue
      where = f"{root.name}/{page}:{b.line}"
      if b.marker == "excerpt":
        tiny_root = tiny_root or docs.tinygrad_root(python)
        problem = docs.excerpt_problem(b, tiny_root)
        rows.append({"where": where, "status": CanaryStatus.FAILS if problem else CanaryStatus.PASSES, "why": first_line(problem.split(": ", 1)[-1]) if problem else ""})
      elif b.marker.startswith("needs-"): rows.append({"where": where, "status": CanaryStatus.SKIPPED, "why": first_line(f"{b.marker}: {b.marker_arg}")})
    rows.sort(key=lambda r: int(r["where"].rsplit(":", 1)[1]))
    if rows:
      out.append({"page": page, "blocks": rows, "seconds": round(time.monotonic() - start, 1)})
      count = {s: sum(r["status"] == s for r in rows) for s in STATUSES}
      log(f"canary: page {n}/{len(pages)} {page}: {count[CanaryStatus.PASSES]} of {len(rows)} block(s) pass" + (f", {count[CanaryStatus.FAILS]} fail" if count[CanaryStatus.FAILS] else "")
          + (f", {count[CanaryStatus.SKIPPED]} skipped" if count[CanaryStatus.SKIPPED] else "") + f" ({time.monotonic() - start:.0f} s)")
  return out

def canary(version:str, modules:list[Module], pages_root:Path|None, venv:Path|None=None, overlay:bool=False,
           timeout:float=1800, log=print) -> dict:
  """Build (or reuse) the environment, run every module's reference and every page's blocks; the report as data."""
  t0 = time.monotonic()
  venv = Path(venv) if venv else default_venv(version)
  python = build(venv, version, overlay, log)
  SITE[:] = site_of(venv)
  built = time.monotonic() - t0
  env = environment(venv)
  got = subprocess.run([python, "-c", f"import importlib.metadata as m; print(m.version({PACKAGE_NAME!r}))"], capture_output=True, text=True, env=env)
  installed = got.stdout.strip() or "?"
  results, t1 = [], time.monotonic()
  for n, module in enumerate(modules, 1):
    log(f"canary: module {n}/{len(modules)} {module.name}: the reference run against every check ...")
    r = run_module_canary(python, module, env, timeout)
    results.append(r)
    counts = {s: sum(t["status"] == s for t in r["tests"]) for s in STATUSES}
    log(f"canary: module {n}/{len(modules)} {module.name}: " + ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in counts.items() if v) + f" ({r['seconds']:.0f} s)")
  t2 = time.monotonic()
  pages = run_pages(python, pages_root, env, log) if pages_root is not None else []
  t3 = time.monotonic()
  return {"tinygrad": version, "installed": installed, "pinned": pinned_version(), "overlay": overlay, "venv": str(venv),
          "seconds": {"environment": round(built, 1), "modules": round(t2 - t1, 1), "pages": round(t3 - t2, 1), "total": round(t3 - t0, 1)},
          "modules": results, "pages": pages}

def totals(report:dict) -> dict:
  tests = [t for m in report["modules"] for t in m["tests"]]
  blocks = [b for p in report["pages"] for b in p["blocks"]]
  return {"tests": len(tests), "passes": sum(t["status"] == CanaryStatus.PASSES for t in tests),
          "points": sum(t["points"] for t in tests), "points_passing": sum(t["points"] for t in tests if t["status"] == CanaryStatus.PASSES),
          "blocks": len(blocks), "blocks_passing": sum(b["status"] == CanaryStatus.PASSES for b in blocks),
          "blocks_failing": sum(b["status"] == CanaryStatus.FAILS for b in blocks)}

def _minutes(s:float) -> str: return f"{s:.0f} s" if s < 120 else f"{s / 60:.1f} min"

def markdown(report:dict) -> str:
  t, secs = totals(report), report["seconds"]
  out = [f"# Canary: tinygrad {report['tinygrad']} (the course pins {report['pinned']})", "",
         f"Every module's reference solution against its visible and hidden checks, and every code block of the course pages, "
         f"with tinygrad {report['installed']}" + (" over the course's other pinned packages (overlay)" if report["overlay"] else " and the course's other pins") + ".",
         f"Time: {_minutes(secs['total'])} (environment {_minutes(secs['environment'])}, modules {_minutes(secs['modules'])}, pages {_minutes(secs['pages'])}).", "",
         f"- **tests**: {t['passes']} of {t['tests']} still pass ({t['points_passing']:g} of {t['points']:g} points)",
         f"- **course blocks**: {t['blocks_passing']} of {t['blocks']} pass, {t['blocks_failing']} fail", "",
         "| module | passes | fails | errors | skipped | not run | points still passing | first failure |", "|---|---|---|---|---|---|---|---|"]
  for m in report["modules"]:
    c = {s: sum(x["status"] == s for x in m["tests"]) for s in STATUSES}
    first = next((x for x in m["tests"] if x["status"] not in (CanaryStatus.PASSES, CanaryStatus.SKIPPED)), None)
    pts = sum(x["points"] for x in m["tests"] if x["status"] == CanaryStatus.PASSES), sum(x["points"] for x in m["tests"])
    out.append(f"| {m['module']} | " + " | ".join(str(c[s]) for s in STATUSES) + f" | {pts[0]:g}/{pts[1]:g} | "
               + (f"{md(first['task'])} `{first['test']}`: {md(first['why'])}".lstrip() if first else "") + " |")
  for m in report["modules"]:
    out += ["", f"## {m['module']}", ""]
    if m["status"] != RunStatus.COMPLETED: out += [f"The run: {m['status']}" + (f" ({md(m['message'])})" if m["message"] else ""), ""]
    for e in m["setup_errors"][:3]: out.append(f"- set-up cell `{e['cell']}` raised {md(e['error'])}")
    if m["setup_errors"]: out.append("")
    out += ["| task | test | status | checks | first line of why |", "|---|---|---|---|---|"]
    out += [f"| {md(x['task'])} | `{x['test']}` | {x['status'].replace('_', ' ')} | {x['checks']} | {md(x['why'])} |" for x in m["tests"]]
  if report["pages"]:
    out += ["", "## Course pages", "", "| page | blocks | pass | fail | skipped | first failure |", "|---|---|---|---|---|---|"]
    for p in report["pages"]:
      if not p["blocks"]: out.append(f"| {md(p['page'])} | | | | | {md(p.get('note', ''))} |"); continue
      c = {s: sum(b["status"] == s for b in p["blocks"]) for s in STATUSES}
      first = next((b for b in p["blocks"] if b["status"] == CanaryStatus.FAILS), None)
      out.append(f"| {md(p['page'])} | {len(p['blocks'])} | {c[CanaryStatus.PASSES]} | {c[CanaryStatus.FAILS]} | {c[CanaryStatus.SKIPPED]} | "
                 + (f"{md(first['where'].rsplit(':', 1)[1])}: {md(first['why'])}" if first else "") + " |")
    failing = [b for p in report["pages"] for b in p["blocks"] if b["status"] == CanaryStatus.FAILS]
    if failing:
      out += ["", "Failing blocks:", "", "| where | first line of why |", "|---|---|"]
      out += [f"| {md(b['where'])} | {md(b['why'])} |" for b in failing]
  return "\n".join(out) + "\n"

def write(report:dict, out:Path):
  out = Path(out)
  out.mkdir(parents=True, exist_ok=True)
  (out / "canary.json").write_text(json.dumps(report, indent=1) + "\n")
  (out / "canary.md").write_text(markdown(report))

if __name__ == "__main__": main()
