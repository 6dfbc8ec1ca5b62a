"""notebook/timing.py: the interval of a median, interleaved rounds, the decision on a ratio of times (scripted, and
real under noisy neighbours), and the clocks tests pass."""
import math
import pytest
from autograder.notebook.timing import ABOVE, BELOW, UNDECIDED, ScriptedClock, StepClock, decide, interleaved, median, median_interval
from neighbours import noisy_neighbours

def test_the_median_interval_is_the_sign_tests():
  assert median_interval(range(1, 9), 0.99) == (1, 8) and median_interval(range(1, 21), 0.99) == (4, 17)
  assert median_interval(range(1, 6), 0.95) == (-math.inf, math.inf) and median_interval(range(1, 7), 0.95) == (1, 6)
  assert median_interval([5, 1, 4, 2, 3, 8, 7, 6], 0.99) == (1, 8) and median([3, 1, 2]) == 2 and median([4, 1, 3, 2]) == 2.5

def test_interleaved_rounds_alternate_the_order_and_time_each_call():
  log = []
  fns = [lambda: log.append("a"), lambda: log.append("b"), lambda: log.append("c")]
  times = interleaved(fns, 3, warmup=1, clock=ScriptedClock([1, 2, 3, 4, 5, 6, 7, 8, 9], log))
  assert log == ["a", "b", "c"] + ["clock", "a", "clock", "clock", "b", "clock", "clock", "c", "clock"] + \
                ["clock", "c", "clock", "clock", "b", "clock", "clock", "a", "clock"] + ["clock", "a", "clock", "clock", "b", "clock", "clock", "c", "clock"]
  assert times == [[1, 6, 7], [2, 5, 8], [3, 4, 9]]
  assert interleaved(fns, 1, 0, ScriptedClock([1, 2, 3]), start=1) == [[3], [2], [1]]      # going on from an odd round
  assert interleaved(fns[:2], 2, 0, ScriptedClock([5, 1, 3, 2, 9, 4, 7, 8]), repeats=2) == [[1, 7], [2, 4]]   # the fastest of each pair of calls

def scripted(ratios:list[float]):
  """A clock for decide(repeats=1): round k (after the warm-up rounds) makes candidate/baseline = ratios[k]."""
  durations = []
  for k, r in enumerate(ratios): durations += [r, 1.0] if k % 2 == 0 else [1.0, r]
  return ScriptedClock(durations)

def test_decide_stops_as_soon_as_the_interval_clears_the_bound():
  d = decide(lambda: None, lambda: None, 1.5, min_rounds=9, repeats=1, clock=scripted([0.9] * 9))
  assert (d.verdict, d.rounds) == (BELOW, 9) and d.ratio == pytest.approx(0.9)
  noisy = [0.9, 1.2, 0.8, 2.5, 0.95, 1.0, 3.0, 0.85, 1.1] + [0.9] * 30
  d = decide(lambda: None, lambda: None, 1.5, min_rounds=9, repeats=1, clock=scripted(noisy))
  assert d.verdict == BELOW and d.rounds == 15 and d.high < 1.5            # two outliers above the bound: 15 rounds to outvote them at 99%
  d = decide(lambda: None, lambda: None, 1.5, min_rounds=9, repeats=1, clock=scripted([2.0] * 9))
  assert (d.verdict, d.rounds) == (ABOVE, 9)

def test_decide_says_undecided_at_the_edge_after_max_rounds():
  edge = [1.4, 1.6] * 40
  d = decide(lambda: None, lambda: None, 1.5, min_rounds=9, max_rounds=25, repeats=1, clock=scripted(edge))
  assert (d.verdict, d.rounds) == (UNDECIDED, 25) and d.low < 1.5 < d.high and "undecided 1.5" in str(d)
  with pytest.raises(ValueError): decide(lambda: None, lambda: None, 1.5, min_rounds=10, max_rounds=5)

def busy(n:int):
  def f():
    x = 0
    for i in range(n): x += i
  return f

def test_a_real_ratio_is_decided_the_same_with_every_core_busy():
  """Twice and half the work against bounds 1.5 and 0.75, with a busy process per core beside the test."""
  with noisy_neighbours(limit=60):
    for _ in range(3):
      assert decide(busy(60_000), busy(30_000), 1.5).verdict == ABOVE
      assert decide(busy(15_000), busy(30_000), 0.75).verdict == BELOW

def test_the_clocks_tests_pass():
  c = ScriptedClock([0.5, 0.25], after=2.0)
  assert [c() for _ in range(6)] == [0.0, 0.5, 0.5, 0.75, 0.75, 2.75] and c.reads == 6
  calls = [0]
  s = StepClock(mark=lambda: calls[0])
  s(); calls[0] += 1; s.advance(0.5); assert s() == 1000.5 and s.reads == [0, 1]

def test_check_ratio_observes_the_verdict_and_retries_while_undecided():
  from autograder.notebook.checks import CheckFailed, check_ratio
  got = check_ratio(lambda: None, lambda: None, at_most=1.5, repeats=1, clock=scripted([0.9] * 9))
  assert got.verdict == BELOW
  with pytest.raises(CheckFailed, match="time ratio at least 2: expected 'above', got 'below'"):
    check_ratio(lambda: None, lambda: None, at_least=2, repeats=1, clock=scripted([0.9] * 9))
  clock = scripted([1.4, 1.6] * 5 + [1.0] * 9)           # undecided after 10 rounds, then decided on the retry
  assert check_ratio(lambda: None, lambda: None, at_most=1.5, repeats=1, max_rounds=10, clock=clock).rounds == 9
  with pytest.raises(ValueError): check_ratio(lambda: None, lambda: None)
