"""Each pytest worker gets its own tinygrad compile cache and the CPU device (no GPU probe). Notebooks graded in a
temporary folder find the repository's data through WORKBOOK_DATA (module 04's loader reads it)."""
import hashlib, os, sys, tempfile
from pathlib import Path

os.environ["DEV"] = "CPU"
# one cache per checkout and worker: two checkouts tested at once (a clone and a worktree) wrote into one worker's
# sqlite file, and a reference run's copy-back into it replaces the whole file (runs.copy_db)
_worker = f'{hashlib.sha1(str(Path(__file__).resolve().parent).encode()).hexdigest()[:8]}-{os.environ.get("PYTEST_XDIST_WORKER", "main")}'
os.environ.setdefault("WORKBOOK_DATA", str(Path(__file__).resolve().parent.parent / "data"))
os.environ["CACHEDB"] = str(Path(tempfile.gettempdir()) / f"tinygrad-workbook-cache-{_worker}.db")
sys.path.insert(0, str(Path(__file__).parent / "support"))          # toy_course, course_docs, ...: helpers the tests share
os.environ.setdefault("AUTOGRADER_CACHE", str(Path(tempfile.gettempdir()) / "autograder-test-cache"))   # reference runs, shared by workers
import autograder                                    # first, before any test imports nbformat: see autograder/__init__.py
import pytest

# Every run copies its seed tinygrad cache in, and a reference run copies it back (runs.copy_db: an sqlite backup,
# about 0.15 s for 30 MB). The worker's cache holds every real module's kernels after a full run (30 MB), so each toy
# grading copied 30 MB two to four times: the tests outside the slow tier (unit tests, the toy course) keep a cache of
# their own, which holds the toy's few kernels.
_FAST_CACHEDB = str(Path(tempfile.gettempdir()) / f"tinygrad-workbook-fast-cache-{_worker}.db")

@pytest.fixture(autouse=True)
def _fast_tier_cache(request, monkeypatch):
  if request.node.get_closest_marker("slow") is None: monkeypatch.setenv("CACHEDB", _FAST_CACHEDB)

# A kernel a test starts never runs beside another test's noisy neighbours (tests/support/neighbours.py): each run
# holds a share of the machine that loading it waits out (a toy class graded beside them lost its points too).
_RUNNERS = ("autograder.core.runs", "autograder.authoring.mutants", "autograder.learner.selfcheck")

@pytest.fixture(autouse=True)
def _no_kernel_beside_a_load(monkeypatch):
  import importlib
  from neighbours import machine_share
  for name in _RUNNERS:
    module = importlib.import_module(name)
    def shared(*args, _run=module.run_notebook, **kwargs):
      with machine_share(): return _run(*args, **kwargs)
    monkeypatch.setattr(module, "run_notebook", shared)

# The longest tests first, on both workers: pytest-xdist (`--dist worksteal`, see the Makefile) gives each worker one
# contiguous half of the collection, and an idle worker then steals the end of the other's queue. With every grading
# of a whole module at the front of the collection, one worker ran all of them in a row while the other ran the short
# tests and then stole gradings near the end (a 55-minute run on 2026-12-02 ended with the worker that had run the
# mutation sessions still grading). So the whole-module gradings, the heaviest kinds first, are dealt alternately to
# the two halves, each half's short tests after them: what is left to steal at the end is short.
HEAVY_FIRST = ["test_every_mutant_loses_points", "test_plain_nbgrader_autograde_gives_the_solution_full_marks",
               "test_solution_gets_full_marks", "test_projects_is_what_release_writes",
               "test_a_faked_clock_does_not_pass_the_speed_budget", "test_the_reference_passes_with_its_margins_on_a_second_cpu_target",
               "test_starter_gets_zero_and_runs_to_the_end"]

def pytest_collection_modifyitems(config, items):
  rank = {name: i for i, name in enumerate(HEAVY_FIRST)}
  def order(item):
    module = getattr(item, "callspec", None) and item.callspec.params.get("module")
    later = -int(module[:2]) if isinstance(module, str) and module[:2].isdigit() else 0     # the newer modules are the larger
    return (rank.get(item.originalname, len(HEAVY_FIRST)), later if item.originalname in rank else 0)
  items.sort(key=order)                                    # stable: the rest keep their order
  heavy = sum(item.originalname in rank for item in items)
  first, second, light = items[:heavy:2], items[1:heavy:2], items[heavy:]
  cut = max(0, len(items) // 2 - len(first))               # the first worker's half: `first` and the first `cut` short tests
  items[:] = first + light[:cut] + second + light[cut:]

def pytest_runtest_logreport(report):
  """TEST_TIMES=file: each test's time appended as it ends (by xdist's controller, which sees every worker's reports),
  so that a run stopped by a timeout still tells where its time went (pytest's --durations prints only at the end)."""
  if report.when == "call" and (path := os.environ.get("TEST_TIMES")) and "PYTEST_XDIST_WORKER" not in os.environ:
    with open(path, "a") as f: f.write(f"{report.duration:8.1f} {report.outcome:7s} {report.nodeid}\n")
