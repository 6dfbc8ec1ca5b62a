"""`autograder similarity` finds a planted pair of copied answers (renamed, reordered) and nothing in the starter."""
import csv
import shutil
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

def test_similarity_finds_the_planted_pair(tmp_path):
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
