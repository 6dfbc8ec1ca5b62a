"""notebook/sealed.py: exact findings ship sealed (a salted digest per value, item and entry), large float arrays ship
their first rows and block sums; the self-check judges both as grading would and says what differs without the value."""
import json
import numpy as np
import pytest
from autograder.core.results import Observation
from autograder.authoring.ship import same_value, shipped_form
from autograder.notebook.compare import encode
from autograder.notebook.sealed import block_sums, canonical, compare_shipped, is_sealed, seal, unseal_problem

def sealed(value, salt="s"): return seal(encode(value), salt)

def test_a_sealed_value_holds_no_trace_of_the_value_and_matches_what_equal_matches():
  s = sealed({"matmul": 5120, "relu": [1, 2, 3]})
  assert "5120" not in json.dumps(s) and "matmul" not in json.dumps(s)
  assert unseal_problem(encode({"relu": [1, 2, 3], "matmul": 5120}), s) is None            # a dict in any order
  assert unseal_problem(encode(np.array([1, 2], dtype=np.int32)), sealed(np.array([1, 2], dtype=np.int64))) is None   # dtype aside, as equal
  assert unseal_problem(encode(1), sealed(True)) and unseal_problem(encode((1, 2)), sealed([1, 2]))    # 1 vs True, tuple vs list: apart
  assert sealed(0.5) is None and sealed([1, 2.5]) is None and sealed(np.ones(3)) is None              # floats ship as they are
  assert sealed(5, "a") != sealed(5, "b")                                                             # the salt changes the digest

def test_a_failing_sealed_check_says_where_without_the_value():
  assert unseal_problem(encode([1, 2, 3]), sealed([1, 2, 3, 4])) == "expected 4 items, got 3"
  assert unseal_problem(encode([1, 9, 3, 8]), sealed([1, 2, 3, 4])) == "[1] differs from the course machine's value (2 of 4 items differ)"
  assert unseal_problem(encode({"a": 1, "b": 3}), sealed({"a": 1, "b": 2})) == 'the value of key "b" differs from the course machine\'s'
  assert unseal_problem(encode({"a": 1, "c": 2}), sealed({"a": 1, "b": 2})) == "1 unexpected key(s), 1 missing key(s)"
  assert "course machine" in unseal_problem(encode(41), sealed(42))
  assert compare_shipped("set", encode({("a", 1), ("b", 2)}), seal(encode({("b", 2), ("a", 1)}), "x")) is None

def test_block_sums_catch_a_value_wrong_past_the_first_rows():
  x = np.random.default_rng(0).standard_normal((100, 100)).astype(np.float32)
  o = Observation("c:1:1", 0, "close", "y", encode(x), encode(x), {"rtol": 1e-5, "atol": 1e-6})
  shipped = shipped_form(o, "t:c:1:1:0")
  assert shipped["__prefix__"]["blocks"]["size"] == 10_000 and len(json.dumps(shipped)) < 100_000
  assert compare_shipped("close", encode(x), shipped, o.opts) is None
  assert compare_shipped("close", encode(x * (1 + 1e-7)), shipped, o.opts) is None           # a CPU's last bits
  wrong = x.copy(); wrong[90, 3] += 0.01                                                   # past the first rows only
  assert "past the first rows" in compare_shipped("close", encode(wrong), shipped, o.opts)
  assert same_value("close", o.opts, shipped, shipped_form(Observation("c:1:1", 0, "close", "y", encode(x), encode(x * (1 + 1e-7)), o.opts), "t:c:1:1:0"))

def test_what_ships_sealed():
  obs = lambda kind, value, name="n": Observation("c:1:1", 0, kind, name, None, encode(value))
  assert is_sealed(shipped_form(obs("equal", 3), "w")) and is_sealed(shipped_form(obs("set", {1, 2}), "w"))
  assert shipped_form(obs("equal", (2, 3), "x shape"), "w") == encode((2, 3))              # a shape is the contract's, not a finding
  assert shipped_form(obs("close", 0.25), "w") == 0.25 and shipped_form(obs("range", [1, 2]), "w") == [1, 2]
  assert shipped_form(obs("equal", 3), "w") == shipped_form(obs("equal", 3), "w")            # a release writes the same file twice

def test_the_self_check_shows_a_passing_figure_beside_the_course_machines(capsys, monkeypatch):
  from autograder.notebook import checks, shipped
  monkeypatch.setattr(shipped, "lookup", lambda: seal(encode(5120), "s"))
  checks.check_equal(5120, ..., name="bytes")
  monkeypatch.setattr(shipped, "lookup", lambda: 0.75)
  checks.check_close(0.7500001, ..., name="ratio")
  assert capsys.readouterr().out.splitlines() == ["bytes: you 5,120; the course machine the same", "ratio: you 0.75; the course machine 0.75"]
  with pytest.raises(checks.CheckFailed, match="bytes: differs from the course machine's value"):
    monkeypatch.setattr(shipped, "lookup", lambda: seal(encode(5120), "s")); checks.check_equal(5000, ..., name="bytes")

def test_equal_items_do_not_show_as_equal_digests():
  """A sealed list or dict must not tell which of its answers are the same (a learner class of 2026-12-02 read 03's
  grad_kind groups off the equal item digests): each item is salted with its place, and the self-check still names the
  wrong one."""
  listed = seal(["zeros", "none", "zeros", "zeros"], "salt")["__sealed__"]
  assert len(set(listed["items"])) == 4
  keyed = seal({"__dict__": [["x", "values"], ["w", "values"], ["n", "none"]]}, "salt")["__sealed__"]
  assert len(set(keyed["entries"].values())) == 3
  assert unseal_problem(["zeros", "none", "zeros", "zeros"], {"__sealed__": listed}) is None
  assert unseal_problem(["zeros", "zeros", "zeros", "zeros"], {"__sealed__": listed}).startswith("[1] differs")
  assert unseal_problem({"__dict__": [["x", "values"], ["w", "values"], ["n", "none"]]}, {"__sealed__": keyed}) is None
  assert "key" in unseal_problem({"__dict__": [["x", "values"], ["w", "none"], ["n", "none"]]}, {"__sealed__": keyed})

def test_a_float_finding_ships_sealed_by_the_buckets_of_its_tolerance():
  """06's half_rms_limit (235.9965) shipped in plain text beside a task that asks for it (issue 46): a float finding of
  a `close` check ships as the digests of the buckets its tolerance covers. Every value within the tolerance passes the
  self-check, from any side, and none further than an eighth of the tolerance beyond; a CPU's last bits change nothing."""
  from autograder.notebook.sealed import BUCKETS_PER_UNIT
  obs = lambda value, rtol, atol: Observation("c:1:1", 0, "close", "limit", None, encode(value), {"rtol": rtol, "atol": atol, "dtype": True})
  for ref, rtol, atol in [(235.9965, 1e-3, 0.0), (-3.25e-4, 1e-5, 1e-6), (0.0, 1e-5, 1e-6), (1.5e12, 0.02, 0.0), (7.0, 0.0, 0.5), (0.3, 0.5, 0.0)]:
    shipped = shipped_form(obs(ref, rtol, atol), "t:c:1:1:0")
    assert is_sealed(shipped) and str(ref) not in json.dumps(shipped) and len(shipped["__sealed__"]["buckets"][0]) <= 64
    tol = atol + rtol * abs(ref)
    for x in np.linspace(ref - tol, ref + tol, 101):                                  # within: passes
      assert compare_shipped("close", encode(float(x)), shipped) is None, (ref, x)
    for x in (ref - tol * (1 + 1.5 / BUCKETS_PER_UNIT) - 1e-12, ref + tol * (1 + 1.5 / BUCKETS_PER_UNIT) + 1e-12, ref + 10 * tol + 1):
      assert "by more than the check's tolerance" in compare_shipped("close", encode(float(x)), shipped), (ref, x)
    other = shipped_form(obs(float(np.nextafter(np.float32(ref), np.float32(np.inf))), rtol, atol), "t:c:1:1:0")
    assert same_value("close", {}, shipped, other)                                      # a second CPU's reference
  assert not same_value("close", {}, shipped_form(obs(1.0, 1e-3, 0.0), "w"), shipped_form(obs(1.01, 1e-3, 0.0), "w"))
  pair = shipped_form(obs([2.5, -1.0], 1e-3, 0.0), "w")
  assert compare_shipped("close", encode([2.5001, -1.0]), pair) is None
  assert compare_shipped("close", encode([2.5, -1.1]), pair).startswith("[1] differs") and compare_shipped("close", encode([2.5]), pair) == "expected 2 items, got 1"
  assert compare_shipped("close", encode(236), shipped_form(obs(236.0, 1e-3, 0.0), "w"))                 # an int where a float is due
  counts = shipped_form(obs([217088, 1507328], 0.05, 0.0), "w")                   # 06's flops: a count with a tolerance ships sealed too
  assert is_sealed(counts) and "217088" not in json.dumps(counts)
  assert compare_shipped("close", encode([217088, 1507328]), counts) is None and compare_shipped("close", encode([220000, 1507328]), counts) is None
  assert compare_shipped("close", encode([217088, 1707328]), counts).startswith("[1] differs")
  assert compare_shipped("close", encode([217088.0, 1507328.0]), counts)                                  # floats where ints are due
  assert shipped_form(obs(0.25, 0.0, 0.0), "w") == 0.25 and shipped_form(obs(0.3, 1.5, 0.0), "w") == 0.3   # no tolerance; one across zero, relative only
