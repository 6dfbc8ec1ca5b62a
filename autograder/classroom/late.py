"""The late policy, stated once in `grading.toml` (section `[late]`), and what it does to a raw score.

    [late]
    window_days = 3        # fetch looks this many days past a learner's due time; later commits are never graded
    percent_per_day = 10   # percent of the raw score lost per started day after the due time
    max_percent = 30       # the cap on the percent lost

A learner's due time is the roster's `deadline` plus their `extension_days` (optional column, days, may be
fractional). Without a grading.toml: window 0, so the commit graded is the last before the due time and nothing is
ever late (no credit after the deadline). "No credit for late work, but look at it" is window_days = 7,
percent_per_day = 100. The time judged is the committer date of the commit `fetch` took (recorded in
SUBMISSIONS/fetched.csv and carried into each learner's gradebook folder as fetched.json)."""
from __future__ import annotations
import math, tomllib
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

class PolicyError(ValueError): pass

@dataclass(frozen=True)
class Policy:
  window_days: float = 0.0
  percent_per_day: float = 100.0
  max_percent: float = 100.0

  def describe(self) -> str:
    if self.window_days == 0: return "no late work (commits after the due time are not fetched)"
    return (f"{self.percent_per_day:g}% per started day late, at most {self.max_percent:g}%, "
            f"commits up to {self.window_days:g} day(s) after the due time")

def load(path:Path|str|None) -> Policy:
  """The [late] section of `path`; the default policy when `path` is None or does not exist."""
  if path is None or not Path(path).is_file(): return Policy()
  try: conf = tomllib.loads(Path(path).read_text()).get("late", {})
  except tomllib.TOMLDecodeError as e: raise PolicyError(f"{path}: not valid TOML ({e})") from None
  unknown = set(conf) - set(Policy.__dataclass_fields__)
  if unknown: raise PolicyError(f"{path}: [late] has no setting {', '.join(sorted(unknown))} (known: window_days, percent_per_day, max_percent)")
  try: policy = Policy(**{k: float(v) for k, v in conf.items()})
  except (TypeError, ValueError): raise PolicyError(f"{path}: [late] settings are numbers") from None
  if policy.window_days < 0 or not 0 <= policy.percent_per_day <= 100 or not 0 <= policy.max_percent <= 100:
    raise PolicyError(f"{path}: [late] needs window_days >= 0 and percents between 0 and 100")
  return policy

def parse_time(text:str, what:str) -> datetime:
  try: t = datetime.fromisoformat(str(text).strip())
  except ValueError: raise PolicyError(f"{what}: {text!r} is not an ISO 8601 time (e.g. 2026-12-01T23:59:00+01:00)") from None
  if t.tzinfo is None: raise PolicyError(f"{what}: {text!r} needs a time zone (e.g. +01:00 or Z)")
  return t

def due(deadline:str, extension_days:str|float|None, what:str="roster") -> datetime:
  """The deadline plus the learner's extension."""
  try: extra = float(extension_days or 0)
  except ValueError: raise PolicyError(f"{what}: extension_days {extension_days!r} is not a number of days") from None
  return parse_time(deadline, what) + timedelta(days=extra)

def days_late(committed:datetime, due_time:datetime) -> int:
  """Started days after the due time: a minute late is one day."""
  seconds = (committed - due_time).total_seconds()
  return 0 if seconds <= 0 else math.ceil(seconds / 86400)

def percent_lost(days:int, policy:Policy) -> float:
  return 0.0 if days <= 0 else min(policy.max_percent, days * policy.percent_per_day)
