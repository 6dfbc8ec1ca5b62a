"""Timing verdicts that do not move with the machine or its load, for the tests (and for learners who measure).

A time alone says as much about the machine as about the code: a check never compares one with a fixed bound. It
compares two pieces of code timed in turns in the same process (`interleaved`: round k times every function a few
times in a row and keeps its fastest call, in an order that alternates from round to round, so that a burst of load
lands on both and a pause by the scheduler on neither), takes the ratio of their times in each round, and decides on the median ratio only when a distribution-free confidence interval of that median lies
wholly on one side of the bound (`decide`): at least `min_rounds` rounds, then one more until the interval clears the
bound or `max_rounds` are spent. Undecided after that, it says so (`Decision.verdict == UNDECIDED`): the test then
retries, or decides by a count that does not depend on time (kernels, bytes, FLOPs), as its contract states.

The interval is the one of the sign test: with n ratios sorted, [r(k), r(n+1-k)] holds the median with probability at
least `confidence` for the largest k with P(Binomial(n, 1/2) < k) <= (1 - confidence) / 2. It assumes nothing about
how the times are spread (load makes them skewed and heavy-tailed); rounds are taken as independent.

`ScriptedClock` and `StepClock` are the clocks tests pass instead of time.perf_counter."""
from __future__ import annotations
import math, time
from dataclasses import dataclass, field
from typing import Callable, Sequence

BELOW, ABOVE, UNDECIDED = "below", "above", "undecided"

def median_interval(values:Sequence[float], confidence:float=0.99) -> tuple[float, float]:
  """A distribution-free interval holding the median of the values' population with probability >= `confidence`;
  (-inf, inf) when there are too few values for that confidence (6 at 0.95, 8 at 0.99)."""
  xs, n = sorted(values), len(values)
  tail, k, cdf = (1 - confidence) / 2, 0, 0.0
  while k < n:                                             # cdf = P(Binomial(n, 1/2) <= k - 1) while k grows
    p = math.comb(n, k) / 2 ** n
    if cdf + p > tail: break
    cdf += p; k += 1
  return (-math.inf, math.inf) if k == 0 else (xs[k - 1], xs[n - k])

def median(values:Sequence[float]) -> float:
  xs, n = sorted(values), len(values)
  return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2

def interleaved(fns:Sequence[Callable[[], object]], rounds:int, warmup:int=1, clock:Callable[[], float]=time.perf_counter,
                sync:Callable[[], object]|None=None, start:int=0, repeats:int=1) -> list[list[float]]:
  """`warmup` untimed rounds, then `rounds` timed ones; each round times every function `repeats` times in a row and
  keeps the fastest (a call that the scheduler paused for another process only looks slower), the functions in order
  on even rounds and in reverse on odd ones (counting from `start`, for a caller that goes on where it stopped).
  Returns times[i] = the seconds of fns[i] in each timed round. `sync` (a device's synchronize, say) runs inside each
  timed call, after the function."""
  for _ in range(warmup):
    for fn in fns: fn()
  times = [[] for _ in fns]
  for r in range(start, start + rounds):
    for i in (range(len(fns)) if r % 2 == 0 else reversed(range(len(fns)))):
      best = math.inf
      for _ in range(repeats):
        begin = clock(); fns[i]()
        if sync is not None: sync()
        best = min(best, clock() - begin)
      times[i].append(best)
  return times

@dataclass
class Decision:
  """A ratio of times against a bound: `verdict` BELOW (the whole interval is below the bound), ABOVE, or UNDECIDED;
  `ratio` the median ratio, (`low`, `high`) its interval, `ratios` the ratio of each round."""
  verdict: str
  bound: float
  ratio: float
  low: float
  high: float
  ratios: list[float] = field(default_factory=list)

  @property
  def rounds(self) -> int: return len(self.ratios)
  def __str__(self) -> str:
    return (f"{self.verdict} {self.bound:g}: median ratio {self.ratio:.3g} over {self.rounds} rounds "
            f"({self.low:.3g} to {self.high:.3g} at the chosen confidence)")

def decide(candidate:Callable[[], object], baseline:Callable[[], object], bound:float, warmup:int=2, min_rounds:int=9,
           max_rounds:int=61, confidence:float=0.99, clock:Callable[[], float]=time.perf_counter, sync:Callable[[], object]|None=None,
           repeats:int=3) -> Decision:
  """Whether time(candidate) / time(baseline) lies below or above `bound`, decided as the module's doc says; a round's
  time of each is the fastest of `repeats` calls in a row (see `interleaved`)."""
  if min_rounds < 1 or max_rounds < min_rounds: raise ValueError("need 1 <= min_rounds <= max_rounds")
  interleaved([candidate, baseline], 0, warmup, clock, sync)
  ratios:list[float] = []
  while True:
    a, b = interleaved([candidate, baseline], min_rounds if not ratios else 1, 0, clock, sync, start=len(ratios), repeats=repeats)
    ratios += [x / y if y > 0 else math.inf for x, y in zip(a, b)]
    low, high = median_interval(ratios, confidence)
    verdict = BELOW if high < bound else ABOVE if low > bound else UNDECIDED
    if verdict != UNDECIDED or len(ratios) >= max_rounds: return Decision(verdict, bound, median(ratios), low, high, ratios)

# ---- clocks for tests ---------------------------------------------------------------------------------------------

class ScriptedClock:
  """Stands in for time.perf_counter when code reads the clock twice around each timed call: the k-th pair of
  readings is durations[k] apart (`after` seconds once they run out). Records how often it was read; each reading is
  appended to `log` when one is given (to check the order of calls and readings)."""
  def __init__(self, durations:Sequence[float], log:list|None=None, after:float=1.0):
    self.durations, self.log, self.after, self.reads, self.now = list(durations), log, after, 0, 0.0
  def __call__(self) -> float:
    if self.reads % 2 == 1: self.now += self.durations[self.reads // 2] if self.reads // 2 < len(self.durations) else self.after
    self.reads += 1
    if self.log is not None: self.log.append("clock")
    return self.now

class StepClock:
  """A clock that moves only when told (`advance(seconds)`, from the stand-ins a test times) and records, at each
  reading, `mark()`'s value then (how many calls had run, say)."""
  def __init__(self, start:float=1000.0, mark:Callable[[], object]|None=None):
    self.now, self.mark, self.reads = start, mark, []
  def advance(self, seconds:float): self.now += seconds
  def __call__(self) -> float:
    self.reads.append(self.mark() if self.mark is not None else self.now)
    return self.now
