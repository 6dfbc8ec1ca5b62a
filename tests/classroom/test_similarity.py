"""`autograder similarity` finds a planted pair of copied answers (renamed, reordered, or shipped as a marshalled,
base64-encoded code object run with builtins.exec) and nothing in the starter; one learner's unreadable notebook is
that learner's row, never the end of the report. Below, similarity.py's functions on their own: the report files byte
for byte, the answers of a learner, the child process, the fingerprints and the bytecode shares."""
import base64
import csv
import hashlib
import json
import marshal
import os
import re
import shutil
import zlib
import pytest
from autograder.classroom import similarity as sim
from autograder.classroom.unwrap import unwrap
from autograder.core.assemble import Unreadable
from autograder.core.module import Module, modules_of
from classes import cli, learner
from toy_course import HELPER, write_toy_course

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

# ---- similarity.py on its own: its functions called directly, the report files byte for byte ----------------------

SIM_CSV = """module,learner_a,learner_b,similarity,a_in_b,b_in_a,tokens,text,bytecode,note\r
01_toy,ada,bob,1.0,1.0,1.0,220,1.0,1.0,\r
02_toy,ada,bob,0.0,0.0,0.0,0,0.0,0.0,\r
01_toy,dee,,,,,,,,unreadable: JSONDecodeError: Expecting value: line 1 column 12 (char 11)\r
02_toy,dee,,,,,,,,unreadable: it holds text that cannot be encoded as UTF-8 (a lone surrogate such as \\ud800)\r
"""
SIM_MD = """# Similar answers

3 learners, 4 module answers, 2 pairs compared by their text (copydetect) and their bytecode, after decoding what the answers wrap in strings (the released starter excluded as boilerplate). A high share means that much of one learner's answer is found in the other's after renaming is normalised away: read both before concluding anything. It never changes a score.

The full table: [similarity.csv](similarity.csv); the code side by side: [similarity.html](similarity.html).

| module | learner | learner | similarity | a in b | b in a | text | bytecode |
|---|---|---|---|---|---|---|---|
| 01_toy | ada | bob | 100% | 100% | 100% | 100% | 100% |

Not compared (the other learners were):

- dee, 01_toy: `unreadable: JSONDecodeError: Expecting value: line 1 column 12 (char 11)`
- dee, 02_toy: `unreadable: it holds text that cannot be encoded as UTF-8 (a lone surrogate such as \\ud800)`
"""
STUBS = ('# --- ans_double\ndef double(x):\n    """Twice x."""\n        # YOUR CODE HERE\n    raise NotImplementedError()\n\n'
         '# --- ans_square\ndef square(x):\n    """x squared."""\n        # YOUR CODE HERE\n    raise NotImplementedError()\n')

@pytest.fixture
def in_process(monkeypatch):
  """unwrap in this process (the child process is tested on its own below): a second less per learner."""
  monkeypatch.setattr(sim, "unwrapped", lambda texts, timeout=120: {m: unwrap(t) for m, t in texts.items()})

def test_the_report_files_byte_for_byte(tmp_path, in_process):
  """Values that do not hang on the winnowing's hashes (an identical pair, the starter): the files are pinned whole."""
  source, starter = released_toy(tmp_path)
  subs = tmp_path / "submissions"
  learner(subs, starter, "ada", {"01_toy": {"ans_double": PAIR}})
  learner(subs, starter, "bob", {"01_toy": {"ans_double": PAIR}})
  learner(subs, starter, "dee", broken=True)                                   # 01_toy unreadable; 02_toy with a lone surrogate
  path = subs / "dee" / "projects" / "02_toy" / "02_toy.ipynb"
  nb = json.loads(path.read_text()); nb["cells"][-1]["source"] = "x = 1  # \ud800"; path.write_text(json.dumps(nb))
  (tmp_path / "sim" / "code" / "gone").mkdir(parents=True)                      # left by an earlier run: removed
  rows = sim.similarity(subs, tmp_path / "sim", modules_of(source, ["01_toy", "02_toy"]), starter)
  assert [(r["module"], r["learner_a"], r["learner_b"], r["similarity"]) for r in rows] == [
    ("01_toy", "ada", "bob", 1.0), ("02_toy", "ada", "bob", 0.0), ("01_toy", "dee", "", ""), ("02_toy", "dee", "", "")]
  with open(tmp_path / "sim/similarity.csv", newline="") as f: assert f.read() == SIM_CSV
  assert (tmp_path / "sim/similarity.md").read_text() == SIM_MD
  assert sorted(str(p.relative_to(tmp_path / "sim")) for p in (tmp_path / "sim").rglob("*.py")) == [
    "code/ada/01_toy.py", "code/ada/02_toy.py", "code/bob/01_toy.py", "code/bob/02_toy.py", "starter/01_toy.py", "starter/02_toy.py"]
  assert (tmp_path / "sim/code/ada/02_toy.py").read_text() == (tmp_path / "sim/starter/02_toy.py").read_text() == STUBS
  assert (tmp_path / "sim/similarity.html").is_file()

def test_no_pair_beyond_the_starter_says_so(tmp_path, in_process):
  source, starter = released_toy(tmp_path)
  learner(tmp_path / "submissions", starter, "ada")                            # one learner: nothing for copydetect to compare
  assert sim.similarity(tmp_path / "submissions", tmp_path / "sim", modules_of(source, ["02_toy"]), starter) == []
  md = (tmp_path / "sim/similarity.md").read_text()
  assert md.startswith("# Similar answers\n\n1 learners, 1 module answers, 0 pairs compared by their text")
  assert md.endswith("|---|---|---|---|---|---|---|---|\n| | no pair shares code beyond the starter | | | | | | |\n") and "Not compared" not in md
  assert (tmp_path / "sim/similarity.csv").read_text() == SIM_CSV.splitlines()[0].rstrip("\r") + "\n" and not (tmp_path / "sim/similarity.html").exists()

def test_an_empty_or_missing_class_is_an_error(tmp_path):
  (tmp_path / "empty" / ".git").mkdir(parents=True)                           # a hidden folder is no learner
  for folder, message in ((tmp_path / "empty", "no learner folder in it (an empty class)"), (tmp_path / "nowhere", "no such folder")):
    with pytest.raises(sim.GradebookError, match=re.escape(message)): sim.similarity(folder, tmp_path / "sim", [Module("01_toy", tmp_path)], tmp_path)
  assert not (tmp_path / "sim").exists()

def test_answers_are_the_answer_cells_then_the_answer_files(tmp_path):
  source = write_toy_course(tmp_path, modules=("01_toy",), answer_file=True)
  learner(tmp_path / "subs", source, "ada", {"01_toy": {"ans_square": "def square(x):\n    return x ** 2\n\n"}})
  folder = tmp_path / "subs" / "ada" / "projects"
  assert sim.answers(Module("01_toy", source), folder) == (
    '# --- ans_double\ndef double(x):\n    """Twice x."""\n    ### BEGIN SOLUTION\n    return 1 * x // 1 * 2\n    ### END SOLUTION\n\n'
    "# --- ans_square\ndef square(x):\n    return x ** 2\n\n" f"# --- helper.py\n{HELPER.strip()}\n")
  (folder / "01_toy" / "helper.py").write_bytes(b"def triple(x):\n    return '\xe9'\n")        # not UTF-8: the file is left out
  assert sim.answers(Module("01_toy", source), folder).endswith("return x ** 2\n")
  assert sim.answers(Module("01_toy", source), tmp_path / "subs" / "nobody") is None
  (folder / "01_toy" / "01_toy.ipynb").write_text('{"cells": [')
  with pytest.raises(Unreadable): sim.answers(Module("01_toy", source), folder)

def test_unwrapped_runs_a_child_and_names_one_that_did_not_finish():
  assert sim.unwrapped({}) == {}
  assert sim.unwrapped({"01_toy": PAIR}) == {"01_toy": json.loads(json.dumps(unwrap(PAIR)))}
  assert sim.unwrapped({"01_toy": PAIR, "02_toy": OWN}, timeout=0.001) == {
    "01_toy": {"text": PAIR, "listing": [], "error": "its decoding did not finish"}, "02_toy": {"text": OWN, "listing": [], "error": "its decoding did not finish"}}

def test_fingerprints_leave_out_kgrams_across_code_objects():
  tokens = [f"OP {i}" for i in range(20)]
  assert sim.fingerprints([]) == set() and sim.fingerprints(tokens[:sim.K - 1]) == set()
  assert len(sim.fingerprints(tokens[:sim.K])) == 1 and sim.fingerprints(tokens) == sim.fingerprints(list(tokens))
  assert sim.fingerprints(["|" if i % sim.K == 0 else t for i, t in enumerate(tokens)]) == set()   # a "|" in every k-gram
  assert len(sim.fingerprints(tokens)) <= len(tokens) - sim.K + 1

def test_bytecode_similarity_removes_the_starter_and_skips_small_answers():
  mine = unwrap(PAIR)["listing"]
  other = [t + " x" for t in mine]                                           # no instruction in common
  small = mine[:sim.K + 1]                                                   # too few fingerprints to compare
  listings = {("", "m"): [], ("ada", "m"): mine, ("bob", "m"): list(mine), ("cyd", "m"): other, ("dee", "m"): small,
              ("", "n"): mine, ("ada", "n"): mine, ("bob", "n"): mine}
  got = sim.bytecode_similarity(listings, ["ada", "bob", "cyd", "dee", "eve"], ["m", "n"])
  assert got == {("m", "ada", "bob"): (1.0, 1.0), ("m", "ada", "cyd"): (0.0, 0.0), ("m", "ada", "dee"): (0.0, 0.0),
                 ("m", "bob", "cyd"): (0.0, 0.0), ("m", "bob", "dee"): (0.0, 0.0), ("m", "cyd", "dee"): (0.0, 0.0),
                 ("n", "ada", "bob"): (0.0, 0.0)}                            # n: all of it is the starter's; eve: no answer

def test_bytecode_similarity_is_the_same_in_every_process(monkeypatch):
  listings = {("", "m"): [], ("ada", "m"): unwrap(PAIR)["listing"], ("bob", "m"): unwrap(RENAMED)["listing"], ("cyd", "m"): unwrap(OWN)["listing"]}
  seen = set()
  for salt in range(4):                                                      # four processes' salts, stood in for
    monkeypatch.setattr(sim, "hash", lambda t, salt=salt: int.from_bytes(hashlib.blake2b(repr((salt, t)).encode(), digest_size=8).digest(), "little"),
                        raising=False)
    seen.add(tuple(sorted(sim.bytecode_similarity(listings, ["ada", "bob", "cyd"], ["m"]).items())))
  assert len(seen) == 1, seen

def test_a_learner_folder_named_outside_utf8_does_not_end_the_report(tmp_path, in_process):
  source, starter = released_toy(tmp_path)
  learner(tmp_path / "submissions", starter, "ada", {"01_toy": {"ans_double": PAIR}})
  learner(tmp_path / "submissions", starter, os.fsdecode(b"caf\xe9"), {"01_toy": {"ans_double": PAIR}})
  rows = sim.similarity(tmp_path / "submissions", tmp_path / "sim", modules_of(source, ["01_toy"]), starter)
  assert [(r["learner_a"], r["learner_b"], r["similarity"]) for r in rows] == [("ada", "caf\\xe9", 1.0)]     # shown with \x escapes
  assert "| 01_toy | ada | `caf\\xe9` | 100% |" in (tmp_path / "sim/similarity.md").read_text() and (tmp_path / "sim/similarity.html").is_file()

def test_a_learner_name_in_the_markdown_is_as_it_is_or_inert():
  assert sim._name("ada") == "ada" and sim._name("jean-luc.o_k@x+y") == "jean-luc.o_k@x+y"
  assert sim._name("a|b <img>") == "`a\\|b ‹img›`" and sim._name("caf\\xe9") == "`caf\\xe9`" and sim._name("=1+1\n") == "`=1+1`"
