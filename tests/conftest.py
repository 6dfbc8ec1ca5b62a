"""Each pytest worker gets its own tinygrad compile cache and the CPU device (no GPU probe). Notebooks graded in a
temporary folder find the repository's data through WORKBOOK_DATA (module 04's loader reads it)."""
import os, sys, tempfile
from pathlib import Path

os.environ["DEV"] = "CPU"
_worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
os.environ.setdefault("WORKBOOK_DATA", str(Path(__file__).resolve().parent.parent / "data"))
os.environ["CACHEDB"] = str(Path(tempfile.gettempdir()) / f"tinygrad-workbook-cache-{_worker}.db")
sys.path.insert(0, str(Path(__file__).parent / "support"))          # toy_course, course_docs, ...: helpers the tests share
os.environ.setdefault("AUTOGRADER_CACHE", str(Path(tempfile.gettempdir()) / "autograder-test-cache"))   # reference runs, shared by workers

# The longest tests first: pytest-xdist (`--dist worksteal`, see the Makefile) hands out tests in collection order and
# an idle worker takes the other's queued ones; a grading of a whole module that starts last keeps one worker busy
# while the other idles. The gradings of whole modules go first, the heaviest kinds first.
HEAVY_FIRST = ["test_every_mutant_loses_points", "test_plain_nbgrader_autograde_gives_the_solution_full_marks",
               "test_solution_gets_full_marks", "test_a_label_table_earns_no_accuracy_points", "test_projects_is_what_release_writes",
               "test_a_faked_clock_does_not_pass_the_speed_budget", "test_the_reference_passes_with_its_margins_on_a_second_cpu_target",
               "test_starter_gets_zero_and_runs_to_the_end"]

def pytest_collection_modifyitems(config, items):
  rank = {name: i for i, name in enumerate(HEAVY_FIRST)}
  def order(item):
    module = getattr(item, "callspec", None) and item.callspec.params.get("module")
    later = -int(module[:2]) if isinstance(module, str) and module[:2].isdigit() else 0     # the newer modules are the larger
    return (rank.get(item.originalname, len(HEAVY_FIRST)), later if item.originalname in rank else 0)
  items.sort(key=order)                                    # stable: the rest keep their order
