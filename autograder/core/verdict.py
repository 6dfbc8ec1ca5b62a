"""The verdict, reached in the grader's own process: each observation of the learner's run against the reference
run's, with the kind of comparison and tolerance the reference recorded. A test passes when its cell ran without
error and every observation the reference made is there and matches. Nothing the learner's kernel sent is trusted
beyond being data: it is never unpickled, and its text is cleaned before it reaches a report."""
from __future__ import annotations
import builtins, math, re
from dataclasses import replace
from autograder.core.results import CellState, Observation, Outcome, TestResult, TestStatus
from autograder.notebook.checks import MIME, FORBIDDEN_MIME
from autograder.notebook.compare import compare, join

FAILED, SKIPPED, NOT_ATTEMPTED = {"CheckFailed", "AssertionError"}, {"CheckSkipped"}, {"NotImplementedError"}
# Exception names a report may show for an error in the learner's run: Python's own and the checks'. Any other name
# (a class the answer defines) could spell anything, so it is shown as "an exception of the answer's own class".
KNOWN_ERRORS = {n for n, v in vars(builtins).items() if isinstance(v, type) and issubclass(v, BaseException)} | \
               FAILED | SKIPPED | {"CellTimeout", "CompileError", "DeadKernelError"}
# Jupyter's own words: an execute_reply's status and an output's type when the code raised
REPLY_ERROR = OUTPUT_ERROR = "error"
CONTROL = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-_]|[\x00-\x08\x0b-\x1f\x7f-\x9f]")

def clean(text:str, limit:int=300) -> str:
  """One line of inert text: no terminal escapes or control characters, no HTML tags (angle brackets become ‹ ›), no
  lone surrogate (written \\udcff), at most `limit` characters."""
  text = CONTROL.sub("", " ".join(str(text).split())).replace("<", "‹").replace(">", "›")
  text = text.encode("utf-8", "backslashreplace").decode("utf-8")       # a lone surrogate, which no file can hold, as \udcff
  return text if len(text) <= limit else text[:limit-3] + "..."

def error_text(ename:str, evalue:str) -> str:
  """An exception as one line, keeping tinygrad's `help:` line when it has one."""
  lines = [l.strip() for l in str(evalue).splitlines() if l.strip()]
  first = lines[0] if lines else ""
  helps = [l for l in lines[1:] if l.lower().startswith("help:")]
  return f"{ename}: {first}".rstrip(": ") + (f" ({helps[0]})" if helps else "")

class Redactor:
  """Withholds a message that quotes a line of the module's hidden tests, whoever wrote it."""
  def __init__(self, secret_lines:set[str]): self.secrets = sorted({" ".join(l.split()) for l in secret_lines if len(l.strip()) >= 12}, key=len)
  def __call__(self, text:str) -> str:
    flat = " ".join(str(text).split())
    if any(s in flat for s in self.secrets): return "(message withheld: it quoted the test's code)"
    return clean(text)

def observations(cell) -> list[Observation]:
  """The observation records a cell published, in order (only well-formed ones)."""
  records = (o.get("data", {}).get(MIME) for o in cell.get("outputs", []) if o.get("output_type") == "display_data")
  return [obs for rec in records if (obs := Observation.of_record(rec)) is not None]

def forbidden_records(cell) -> dict[str, list[str]]:
  """{attribute a forbidden() block of the cell named: the functions of the notebook's cells that ran inside such a
  block} (published by the reference run only; see checks.forbidden)."""
  out: dict[str, set] = {}
  for o in cell.get("outputs", []):
    rec = o.get("data", {}).get(FORBIDDEN_MIME) if o.get("output_type") == "display_data" else None
    if not isinstance(rec, dict) or not isinstance(rec.get("names"), list): continue
    called = {x for x in rec.get("called", []) if isinstance(x, str)} if isinstance(rec.get("called"), list) else set()
    for name in (x for x in rec["names"] if isinstance(x, str)): out[name] = out.get(name, set()) | called
  return {k: sorted(v) for k, v in sorted(out.items())}

def forbidden_names(cell) -> list[str]:
  """The attributes the cell's forbidden() blocks named."""
  return sorted(forbidden_records(cell))

def outcome(cell, index:int, run) -> Outcome:
  """What one run did with one test cell: its state, its error (ename, evalue) if any, and its observations."""
  reply = run.replies.get(index, {})
  err = (reply.get("ename", "Error"), reply.get("evalue", "")) if reply.get("status") == REPLY_ERROR else None
  if err is None:
    out = next((o for o in cell.get("outputs", []) if o.get("output_type") == OUTPUT_ERROR), None)
    if out is not None: err = (out.get("ename", "Error"), out.get("evalue", ""))
  records = forbidden_records(cell)
  return Outcome(CellState(run.cells.get(index, CellState.NOT_RUN)), err, observations(cell), sorted(records), records)

def forged(ref_obs:list[Observation], got_obs:list[Observation], sites:set[str]|None=None) -> str|None:
  """Why the learner's records for one test cell cannot all come from its checks, or None.

  The learner's code runs in the same process as the checks, so nothing in that process is out of its reach: a
  secret given to the checks (a key to sign records with) could be read back with `gc` or a frame and used to sign
  forgeries, so the grader does not pretend to have one. What it can hold against the records is what the trusted
  cells can produce: each record names a site (`cell:line:col`) that the transform wrote into a trusted cell (the
  test cell, or a set-up cell whose helper it calls: `sites`); a site's records are numbered k = 0, 1, 2, ... in the
  order they were made, one each; and a site's kind of comparison is the one the reference run recorded there. A
  record published by an answer next to the real check's is a second record for its (site, k), or one out of order:
  the test fails and the report flags it.
  What remains possible is to replace the checks themselves in the learner's kernel (their records are then the only
  ones): it buys nothing without the expected values, which are not in that process; that is why every test also
  observes a value that cannot be guessed (see `compare.strong`)."""
  kinds = {r.site: r.kind for r in ref_obs}
  nxt = {}
  for o in got_obs:
    site, k = o.site, o.k
    if sites is not None and site not in sites: return "a record for a site where no trusted cell has a check"      # (its text is the learner's)
    where = clean(site, 60) if sites is not None else "a check"     # a known site is the transform's text, any other the learner's
    if k != nxt.get(site, 0): return f"{'a second record' if k < nxt.get(site, 0) else 'a record out of order'} at {where} (k={k})"
    if site in kinds and o.kind != kinds[site]: return f"a record of another kind at {where}"
    nxt[site] = k + 1
  return None

HIDDEN_LABEL = "a hidden check"
DEFAULT_NAMES = {"result", "call", "computation", "text"}           # the checks' own defaults (notebook/checks.py)
NAME_SUFFIXES = (" shape", " dtype", ": kernels run", ": kernels")   # what check_shape, check_dtype, the kernel checks append

def label(name:str, hidden:bool, shown:set[str]|None) -> str:
  """A check's name as a message shows it. A hidden check's name is shown only when the visible code could have
  produced it: a string constant of the notebook's visible code, a name a visible check recorded, or a default
  (`shown`, see transform.visible_strings); else it is HIDDEN_LABEL, since a name computed in the hidden part
  (`f"kernels for {n} elements"`) can spell a hidden input. `shown` None: every name is shown."""
  if not hidden or shown is None: return name
  base = next((name[:-len(x)] for x in NAME_SUFFIXES if name.endswith(x)), name)
  return name if name in shown or base in shown or base in DEFAULT_NAMES else HIDDEN_LABEL

def _problem(r:Observation, mine:Observation|None, shown:set[str]|None=None) -> str|None:
  """What is wrong with one observation against the reference's (None when it matches; a metric never is wrong)."""
  if r.kind == "metric": return None
  name = clean(label(str(r.name), r.hidden, shown), 200)
  if mine is None: return f"{name}: not observed (the test stopped before this check)"
  try: message = compare(r.kind, mine.actual, r.expected, r.opts or {}, reveal=not r.hidden, text=False)
  except Exception as e: message = f"the observed value could not be read ({type(e).__name__})"
  if message is None: return None
  if r.kind == "true": return (name if name != HIDDEN_LABEL else f"{name}: the condition is false") if message == "the condition is false" else f"{name}: {message}"
  return join(name, message)

def _observed(got_obs:list[Observation]) -> dict:
  got = {}
  for o in got_obs: got.setdefault((o.site, o.k), o)
  return got

def _problems(ref_obs:list[Observation], got_obs:list[Observation], shown:set[str]|None=None) -> list[str]:
  got = _observed(got_obs)
  return [p for r in ref_obs if (p := _problem(r, got.get((r.site, r.k)), shown)) is not None]

def first_failing_check(ref_obs:list[Observation], got_obs:list[Observation], shown:set[str]|None=None) -> str|None:
  """The first check, in the reference's order, that the learner's run observed and got wrong, while every check
  before it was observed and right: where a self-check (whose checks raise at once) would have stopped. In the
  learner's run the checks only record, so the test goes on and may raise later on the wrong value (an IndexError
  from the test's own indexing, say): the check is the explanation, the same as the self-check's."""
  got = _observed(got_obs)
  for r in ref_obs:
    mine = got.get((r.site, r.k))
    if mine is None: return None
    if (p := _problem(r, mine, shown)) is not None: return p
  return None

def learner_error(ename:str) -> str:
  """An exception of the learner's run as a report may show it: its type only, when Python or the checks define it.
  Its message is never shown: the kernel's history holds every cell it ran, hidden tests included, and a message is
  free text (base64, zlib, hex, rot13, ... of that history would get through any filter on what it says). The learner
  reads the message of an error in a visible test with `autograder check`."""
  name = str(ename)
  return name if name in KNOWN_ERRORS else "an exception of a class the answer defines"

def metrics(ref_obs:list[Observation], got_obs:list[Observation]) -> dict[str, float]|None:
  """The leaderboard figures a learner's run recorded in one test (checks.record_metric), named as the reference run
  named them (the learner's own names are never shown); only finite numbers. None when the test records none."""
  got = _observed(got_obs)
  out = {clean(str(r.name), 80): float(o.actual) for r in ref_obs if r.kind == "metric" and (o := got.get((r.site, r.k))) is not None
         and type(o.actual) in (int, float) and math.isfinite(o.actual)}
  return out or None

def judge(test:TestResult, ref:Outcome, got:Outcome, run_message:str, redact=clean, sites:set[str]|None=None, shown:set[str]|None=None) -> TestResult:
  """The result of one test: `test` has its id, task and max_score; `ref` and `got` are outcomes (see `outcome`);
  `sites`: the sites of the checks in the trusted cells (transform.notebook_sites); `shown`: the names a hidden check
  may show (see `label`). A result whose records were forged carries `forged` (why) for the report's flags."""
  done = lambda status, message, forged=None: replace(test, status=status, score=0.0, message=redact(message), forged=forged)
  if ref.error and ref.error[0] in SKIPPED: return done(TestStatus.SKIPPED, error_text(*ref.error).split(": ", 1)[-1])
  if ref.state != CellState.RAN or ref.error or not ref.observations:
    why = error_text(*ref.error) if ref.error else ("it made no observation" if ref.state == CellState.RAN else ref.state)
    return done(TestStatus.ERROR, f"the reference solution does not pass this test, a bug in the course: {why}")
  if got.state == CellState.NOT_RUN: return done(TestStatus.NOT_RUN, run_message or "not run")
  if got.state == CellState.TIMEOUT: return done(TestStatus.TIMEOUT, run_message or "the cell ran out of time")
  if (why := forged(ref.observations, got.observations, sites)):
    return done(TestStatus.FAILED, f"observation records that the test's checks did not make: {why}", forged=why)
  problems = _problems(ref.observations, got.observations, shown)
  if got.error:                                            # a skip counts only where the reference skipped too (above)
    ename = got.error[0]
    if ename in SKIPPED: return done(TestStatus.FAILED, f"{ename}: the test was skipped in this run but not in the reference run")
    if (first := first_failing_check(ref.observations, got.observations, shown)) is not None: return done(TestStatus.FAILED, first)
    shown = learner_error(ename)
    if ename in FAILED: return done(TestStatus.FAILED, f"{shown}: a check of the test failed" + (f"; first: {problems[0]}" if problems else ""))
    return done(TestStatus.ERROR, f"{shown}: raised while the test ran (its message is not shown in a report; `autograder check` shows it for the visible tests)"
                if ename not in NOT_ATTEMPTED else f"{shown}: not implemented yet")
  if problems: return done(TestStatus.FAILED, problems[0] + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
  return replace(test, status=TestStatus.PASSED, score=float(test.max_score), message="")

def not_attempted(test:TestResult) -> bool:
  """An error from a stub the learner has not filled in yet."""
  return test.status == TestStatus.ERROR and test.message.split(":")[0] in NOT_ATTEMPTED
