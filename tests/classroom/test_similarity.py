"""`autograder similarity` finds a planted pair of copied answers (renamed, reordered, or shipped as a marshalled,
base64-encoded code object run with builtins.exec) and nothing in the starter; one learner's unreadable notebook is
that learner's row, never the end of the report."""
import base64
import csv
import json
import marshal
import shutil
import zlib
from classes import cli, learner
from toy_course import write_toy_course

# Canvas's grade import/export columns: "Student Name ... OR Student ID OR Student SIS User ID ..., SIS Login ID ..., Section ...,
# Assignment Name" (teaching.resources.osu.edu/toolsets/carmencanvas/guides/calculating-final-grades/import-csv-file-carmen-grades);
# "Student, ID, SIS User ID, SIS Login ID, Section", then "Quiz 1 (87568490)"-style assignment columns in Canvas's grades.csv
# (nemogb-dev.github.io/nemogb-r/articles/detailed-canvas-export-info.html).
# Moodle's CSV grade import: "Change both dropdowns to: "Email Address" to "useremail", or to "Id Number" to "useridnumber""
# (docs.moodle.org/311/en/Grade_import); its CSV export names those columns "Email address" and "ID number".
PAIR = '''def double(x):
    """Twice x."""
    total = 0
    for step in range(2):
        total = total + x
    return total

def running_mean(values, width):
    out = []
    window_sum = 0.0
    for index, value in enumerate(values):
        window_sum += value
        if index >= width:
            window_sum -= values[index - width]
        out.append(window_sum / min(index + 1, width))
    return out

def histogram(values, bins, low, high):
    counts = [0] * bins
    size = (high - low) / bins
    for value in values:
        if low <= value < high:
            counts[int((value - low) // size)] += 1
    return counts
'''
RENAMED = '''def hist(xs, n, lo, hi):
    c = [0] * n
    w = (hi - lo) / n
    for v in xs:
        if lo <= v < hi:
            c[int((v - lo) // w)] += 1
    return c

def double(x):
    """Twice x."""
    acc = 0
    for _ in range(2):
        acc = acc + x
    return acc

def smooth(xs, k):
    res = []
    s = 0.0
    for i, v in enumerate(xs):
        s += v
        if i >= k:
            s -= xs[i - k]
        res.append(s / min(i + 1, k))
    return res
'''
OWN = '''def double(x):
    """Twice x."""
    return sum([x, x])

import statistics
def describe(sample):
    ordered = sorted(sample)
    middle = len(ordered) // 2
    return {"median": statistics.median(ordered), "spread": ordered[-1] - ordered[0], "upper": ordered[middle:]}
'''

def released_toy(tmp_path):
  """(solutions, projects) of the toy course, the starter's answer cells the stubs."""
  source = write_toy_course(tmp_path)
  starter = tmp_path / "projects"; shutil.copytree(source, starter)           # the toy's release: its answer cells are the stubs
  import nbformat
  from autograder.core.cells import is_answer
  for module in ("01_toy", "02_toy"):
    path = starter / module / f"{module}.ipynb"
    nb = nbformat.read(str(path), as_version=4)
    for c in nb.cells:
      if is_answer(c): c.source = c.source.split("### BEGIN SOLUTION")[0] + "    # YOUR CODE HERE\n    raise NotImplementedError()"
    nbformat.write(nb, str(path))
  return source, starter

def test_similarity_finds_the_planted_pair(tmp_path):
  source, starter = released_toy(tmp_path)
  subs = tmp_path / "submissions"
  learner(subs, starter, "ada", {"01_toy": {"ans_double": PAIR}})
  learner(subs, starter, "bob", {"01_toy": {"ans_double": RENAMED}})
  learner(subs, starter, "cyd", {"01_toy": {"ans_double": OWN}})
  learner(subs, starter, "dee"); learner(subs, starter, "eve")                 # the starter, untouched
  done = cli("similarity", subs, "--out", tmp_path / "sim", "--source", source, "--starter", starter)
  assert done.returncode == 0, done.stderr
  rows = list(csv.DictReader(open(tmp_path / "sim/similarity.csv")))
  assert (rows[0]["module"], rows[0]["learner_a"], rows[0]["learner_b"]) == ("01_toy", "ada", "bob") and float(rows[0]["similarity"]) > 0.5, rows[:3]
  assert all(float(r["similarity"]) < float(rows[0]["similarity"]) / 2 for r in rows[1:])
  starter_pairs = [r for r in rows if {r["learner_a"], r["learner_b"]} == {"dee", "eve"}]
  assert len(starter_pairs) == 2 and all(float(r["similarity"]) == 0 for r in starter_pairs)             # the starter alone scores nothing
  assert all(float(r["similarity"]) == 0 for r in rows if r["module"] == "02_toy")
  assert (tmp_path / "sim/similarity.html").is_file() and "| 01_toy | ada | bob |" in (tmp_path / "sim/similarity.md").read_text()
  assert "ada and bob on 01_toy" in done.stdout

MARSHALLED = "import base64, marshal, builtins\nbuiltins.exec(marshal.loads(base64.b64decode({payload!r})))\n"
ZIPPED = "import base64, zlib\nexec(zlib.decompress(base64.b64decode({payload!r})).decode())\n"

def test_a_copy_shipped_as_marshalled_code_ranks_first(tmp_path):
  """Issue 33, finding 9: a classmate's answers as base64 marshal code run with builtins.exec shared no text with the
  original (similarity 0%). The bytecode of what the payload decodes to is the original's."""
  source, starter = released_toy(tmp_path)
  subs = tmp_path / "submissions"
  learner(subs, starter, "ada", {"01_toy": {"ans_double": PAIR}})
  learner(subs, starter, "cyd", {"01_toy": {"ans_double": OWN}})
  learner(subs, starter, "fay", {"01_toy": {"ans_double": MARSHALLED.format(payload=base64.b64encode(marshal.dumps(compile(PAIR, "x", "exec"))).decode())}})
  learner(subs, starter, "gus", {"01_toy": {"ans_double": ZIPPED.format(payload=base64.b64encode(zlib.compress(RENAMED.encode())).decode())}})
  learner(subs, starter, "dee")
  done = cli("similarity", subs, "--out", tmp_path / "sim", "--source", source, "--starter", starter)
  assert done.returncode == 0, done.stderr
  rows = [r for r in csv.DictReader(open(tmp_path / "sim/similarity.csv")) if r["module"] == "01_toy"]
  assert {rows[0]["learner_a"], rows[0]["learner_b"]} == {"ada", "fay"} and float(rows[0]["bytecode"]) > 0.9, rows[:3]
  assert float(rows[0]["text"]) < 0.2                                      # the text alone would not have found it
  gus = next(r for r in rows if {r["learner_a"], r["learner_b"]} == {"ada", "gus"})
  assert float(gus["similarity"]) > 0.5, gus                               # exec of a compressed source: decoded, then compared
  assert "# --- decoded from a string constant" in (tmp_path / "sim/code/gus/01_toy.py").read_text()
  others = [r for r in rows if "cyd" in (r["learner_a"], r["learner_b"]) or "dee" in (r["learner_a"], r["learner_b"])]
  assert all(float(r["similarity"]) < 0.3 for r in others), others

def test_one_learners_unreadable_notebook_does_not_stop_the_report(tmp_path):
  """Issue 33, finding 5: a cell with `"metadata": {"nbgrader": null}` or a lone surrogate in a module the learner
  skipped ended `similarity` without similarity.csv. Now that module is that learner's row, with the reason."""
  source, starter = released_toy(tmp_path)
  subs = tmp_path / "submissions"
  learner(subs, starter, "ada", {"01_toy": {"ans_double": PAIR}})
  learner(subs, starter, "bob", {"01_toy": {"ans_double": RENAMED}})
  learner(subs, starter, "cyd", {"01_toy": {"ans_double": OWN}})
  for name, poison in (("cyd", lambda nb: nb["cells"][0]["metadata"].__setitem__("nbgrader", None)),
                       ("bob", lambda nb: nb["cells"][-1].__setitem__("source", "x = 1  # \ud800"))):
    path = subs / name / "projects" / "02_toy" / "02_toy.ipynb"
    nb = json.loads(path.read_text()); poison(nb); path.write_text(json.dumps(nb))
  done = cli("similarity", subs, "--out", tmp_path / "sim", "--source", source, "--starter", starter)
  assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
  rows = list(csv.DictReader(open(tmp_path / "sim/similarity.csv")))
  assert {rows[0]["learner_a"], rows[0]["learner_b"]} == {"ada", "bob"} and rows[0]["module"] == "01_toy"
  problems = {(r["learner_a"], r["module"]): r["note"] for r in rows if not r["learner_b"]}
  assert set(problems) == {("bob", "02_toy"), ("cyd", "02_toy")}, problems
  assert "metadata.nbgrader is null" in problems[("cyd", "02_toy")] and "UTF-8" in problems[("bob", "02_toy")]
  assert "not compared (see similarity.md): bob, cyd" in done.stdout
