"""The grade as a typed record, in one place: the status words (each declared once, as an enum whose members are those
very strings), the records a run and a verdict make (a check's observation, a test cell's outcome, the reference run)
and the results every command reports (a test, a module, a report), with their JSON in and out.

A record's JSON is its fields in order; a field that is None is left out (a self-check's test has no `hint`, a
grading's module no `notes`). `from_json` reads what a file holds (a report of another run, a cached reference run, a
learner's folder): a missing key takes its default, a value of the wrong type its default too, so that reading never
raises on a well-formed JSON object. Every reader and writer of these records goes through this file; a test of the
repository fails on a status word spelled as a string anywhere else in the package."""
from __future__ import annotations
import dataclasses, json, types, typing
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

# ---- the status words ---------------------------------------------------------------------------------------------

class TestStatus(StrEnum):
  """A test's result in a report (grading and self-check)."""
  __test__ = False                                         # (pytest: not a test class)
  PASSED = "passed"; FAILED = "failed"; ERROR = "error"; TIMEOUT = "timeout"; NOT_RUN = "not_run"; SKIPPED = "skipped"

class RunStatus(StrEnum):
  """How a run of a notebook ended (core/execute.py); every value but COMPLETED is also a module's status."""
  COMPLETED = "completed"; TIMEOUT = "timeout"; KERNEL_DIED = "kernel_died"; MEMORY_LIMIT = "memory_limit"
  DISK_LIMIT = "disk_limit"; PROCESS_LIMIT = "process_limit"; CPU_LIMIT = "cpu_limit"

class ModuleStatus(StrEnum):
  """A module's result in a report and a gradebook row: graded, or why not."""
  GRADED = "graded"; MISSING = "missing"; UNREADABLE = "unreadable"; TIMEOUT = "timeout"; KERNEL_DIED = "kernel_died"
  MEMORY_LIMIT = "memory_limit"; DISK_LIMIT = "disk_limit"; PROCESS_LIMIT = "process_limit"; CPU_LIMIT = "cpu_limit"
  GRADER_ERROR = "grader_error"                            # the grader failed (on this module, or on the whole learner)
  ERROR = "error"                                          # a self-check that failed in the checker itself

class CellState(StrEnum):
  """What a run did with one code cell."""
  RAN = "ran"; TIMEOUT = "timeout"; NOT_RUN = "not_run"; SKIPPED = "skipped"

class CanaryStatus(StrEnum):
  """A test of the reference run, or a course page's code block, under another tinygrad release (authoring/canary.py)."""
  PASSES = "passes"; FAILS = "fails"; ERRORS = "errors"; SKIPPED = "skipped"; NOT_RUN = "not_run"

# How each test status is shown: a terminal table and `progress` (MARK), a feedback page (WORD).
MARK = {TestStatus.PASSED: "ok", TestStatus.FAILED: "FAIL", TestStatus.ERROR: "ERROR", TestStatus.TIMEOUT: "TIMEOUT",
        TestStatus.NOT_RUN: "not run", TestStatus.SKIPPED: "skipped"}
WORD = {TestStatus.PASSED: "passed", TestStatus.FAILED: "failed", TestStatus.ERROR: "error", TestStatus.TIMEOUT: "timed out",
        TestStatus.NOT_RUN: "not run", TestStatus.SKIPPED: "skipped (not graded here)"}
UNFINISHED = {TestStatus.FAILED, TestStatus.ERROR, TestStatus.TIMEOUT, TestStatus.NOT_RUN}      # a test that still needs work

# ---- records ------------------------------------------------------------------------------------------------------

@dataclass
class Flag:
  """Suspicious code, or a forged record, for an instructor to review (it does not change the score)."""
  where: str = ""
  rule: str = ""
  what: str = ""

@dataclass
class Observation:
  """One check's record (notebook/checks.py publishes it): where it was made (`site`, `cell:line:col`, and its
  occurrence `k` there), its kind of comparison, the name it shows, the value observed, and in the reference run the
  expected value, the options, whether it lies in a hidden region and whether it matched."""
  site: str = ""
  k: int = 0
  kind: Any = None                                         # (a learner's record may hold anything: compared, never trusted)
  name: Any = "result"
  actual: Any = None
  expected: Any = None
  opts: dict|None = None
  hidden: bool = False
  ok: bool|None = None

  @staticmethod
  def of_record(rec:Any) -> Observation|None:
    """A record as a kernel published it, or None when it is not well formed (a site that is text, a whole k)."""
    if not isinstance(rec, dict) or not isinstance(rec.get("site"), str) or type(rec.get("k")) is not int: return None
    opts = rec.get("opts")
    return Observation(rec["site"], rec["k"], rec.get("kind"), rec.get("name", "result"), rec.get("actual"), rec.get("expected"),
                       opts if isinstance(opts, dict) else None, rec.get("hidden") is True, rec.get("ok") if type(rec.get("ok")) is bool else None)

@dataclass
class Outcome:
  """What one run did with one test cell: its state, its error (ename, evalue) if any, its observations, the names its
  forbidden() blocks trapped and, per name, the functions of the notebook's cells that ran while a block trapping it
  was open (reference run only), the run's message and the cause of its error (core/cause.py)."""
  state: CellState = CellState.NOT_RUN
  error: tuple[str, str]|None = None
  observations: list[Observation] = field(default_factory=list)
  forbidden: list[str] = field(default_factory=list)
  forbidden_in: dict[str, list[str]] = field(default_factory=dict)
  message: str = ""
  cause: str = ""

  @property
  def skipped(self) -> bool: return self.error is not None and self.error[0] == "CheckSkipped"

@dataclass
class ReferenceRun:
  """A module's reference run (core/runs.py): how it ended, its outcome per test id, and its tinygrad cache."""
  status: RunStatus = RunStatus.COMPLETED
  message: str = ""
  seconds: float = 0.0
  tests: dict[str, Outcome] = field(default_factory=dict)
  db: str|None = None

  @property
  def clean(self) -> bool:
    """Completed, and every test ran without error (a skip is no error): a run worth caching."""
    return self.status == RunStatus.COMPLETED and all(t.state == CellState.RAN and (t.error is None or t.skipped) for t in self.tests.values())

@dataclass
class TestResult:
  """A test's line of a report. `task` None: not known (a module that never ran); `hint` (grading) and `ename`,
  `hidden_checks` (self-check) only where they are said; `metrics` where the test records leaderboard figures;
  `forged` is for the grader's flags, never written."""
  __test__ = False
  id: str|None = None
  task: str|None = None
  max_score: float = 0.0
  status: TestStatus = TestStatus.NOT_RUN
  score: float = 0.0
  message: str = ""
  hint: str|None = None
  ename: str|None = None
  hidden_checks: bool|None = None
  metrics: dict[str, float]|None = None                    # leaderboard figures (checks.record_metric), never scored
  forged: str|None = field(default=None, metadata={"json": False})

@dataclass
class ModuleResult:
  """A module's part of a report. Grading fills `sandbox` and `flags`, a self-check `notes`, `task`, `released_edited`
  and `passed`; `hints_opened` is {task: [opened, of]} where the module has hints."""
  module: str = ""
  status: ModuleStatus = ModuleStatus.GRADED
  message: str = ""
  sandbox: str|None = None
  flags: list[Flag]|None = None
  notes: list[str]|None = None
  hints_opened: dict[str, list[float]]|None = None
  score: float = 0.0
  max_score: float = 0.0
  seconds: float = 0.0
  tests: list[TestResult] = field(default_factory=list)
  task: str|None = None
  released_edited: bool|None = None
  passed: bool|None = None

@dataclass
class Report:
  """A whole report: the modules' results and their sums; `error` when grade-all could not grade the learner at all."""
  score: float = 0.0
  max_score: float = 0.0
  modules: list[ModuleResult] = field(default_factory=list)
  error: str|None = None

  @staticmethod
  def of(modules:list[ModuleResult]) -> Report:
    return Report(sum(m.score for m in modules), sum(m.max_score for m in modules), modules)

# ---- JSON in and out ----------------------------------------------------------------------------------------------

def to_json(record:Any) -> Any:
  """A record (or a list or dict of them) as JSON-able data: fields in order, None fields left out."""
  if dataclasses.is_dataclass(record):
    return {f.name: to_json(v) for f in dataclasses.fields(record) if f.metadata.get("json", True) and (v := getattr(record, f.name)) is not None}
  if isinstance(record, dict): return {k: to_json(v) for k, v in record.items()}
  if isinstance(record, (list, tuple)): return [to_json(v) for v in record]
  return record

def _read(kind:Any, value:Any, default:Any) -> Any:
  """`value` read as the annotated `kind`, else `default`."""
  origin, args = typing.get_origin(kind), typing.get_args(kind)
  if origin in (types.UnionType, typing.Union):
    if value is None and type(None) in args: return None
    for k in (a for a in args if a is not type(None)):
      got = _read(k, value, _MISSING)
      if got is not _MISSING: return got
    return default
  if kind is Any: return value
  if isinstance(kind, type) and issubclass(kind, StrEnum):
    try: return kind(value)
    except ValueError: return default
  if dataclasses.is_dataclass(kind): return from_json(kind, value) if isinstance(value, dict) else default
  if origin is list: return [x for v in value if (x := _read(args[0], v, _MISSING)) is not _MISSING] if isinstance(value, list) else default
  if origin is tuple: return tuple(value) if isinstance(value, (list, tuple)) and len(value) == len(args) and all(isinstance(v, str) for v in value) else default
  if origin is dict:
    return {k: x for k, v in value.items() if (x := _read(args[1], v, _MISSING)) is not _MISSING} if isinstance(value, dict) else default
  if kind is float: return value if type(value) in (int, float) else default       # (an int stays an int: 0 is written as 0)
  if kind is int: return value if type(value) is int else default
  return value if type(value) is kind else default

_MISSING = object()

def from_json(cls:type, data:Any):
  """A record of type `cls` from JSON data; a missing or ill-typed field takes its default (see the module's doc)."""
  if not isinstance(data, dict): data = {}
  hints = typing.get_type_hints(cls)
  values = {}
  for f in dataclasses.fields(cls):
    default = f.default if f.default is not dataclasses.MISSING else f.default_factory() if f.default_factory is not dataclasses.MISSING else None
    values[f.name] = _read(hints[f.name], data[f.name], default) if f.name in data else default
  return cls(**values)

REQUIRED = {ModuleResult: ("module", "status", "score", "max_score", "tests"), TestResult: ("id", "status", "score", "max_score", "message")}

def is_report(data:Any) -> bool:
  """Whether JSON data has the shape of a report: modules and their tests with the fields every writer writes."""
  has = lambda x, cls: isinstance(x, dict) and all(k in x for k in REQUIRED[cls])
  modules = data.get("modules", []) if isinstance(data, dict) else None
  return isinstance(modules, list) and all(has(m, ModuleResult) and isinstance(m["tests"], list) and all(has(t, TestResult) for t in m["tests"]) for m in modules)

def write_json(path:Path|str, record:Any, indent:int|None=2):
  Path(path).write_text(json.dumps(to_json(record), indent=indent) + "\n")

def read_report(path:Path|str) -> Report:
  """A report file; raises OSError or ValueError when it cannot be read or is not a JSON object."""
  data = json.loads(Path(path).read_text())
  if not is_report(data): raise ValueError("not a grading report")
  return from_json(Report, data)
