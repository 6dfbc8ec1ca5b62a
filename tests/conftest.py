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
