"""Which learners a grading machine takes: shard K of N holds the learners whose name hashes to K - 1 modulo N. The
assignment depends on the name only (never on a learner's position in the roster or folder listing), so a rerun,
a roster with learners added or removed, or a shard retried alone regrades the same learners on the same shard.

`python -m autograder.shard N` prints the GitHub Actions output line of the class workflow's matrix:
`shards=["1/N", ..., "N/N"]`."""
from __future__ import annotations
import hashlib, json, sys
from autograder.core.files import shown

class ShardError(ValueError): pass

def parse(text:str) -> tuple[int, int]:
  """'K/N' -> (K, N), with 1 <= K <= N."""
  try: k, n = (int(x) for x in str(text).split("/"))
  except ValueError: raise ShardError(f"--shard takes K/N (e.g. 2/4), not {text!r}") from None
  if not 1 <= k <= n: raise ShardError(f"--shard {text}: K must be between 1 and N")
  return k, n

def shard_of(learner:str, n:int) -> int:
  """The shard (1..n) a learner's name falls into: the name as the gradebook shows it (files.shown), so that a folder
  name that is not UTF-8 falls where its gradebook rows are looked for."""
  return int.from_bytes(hashlib.sha256(shown(learner).encode()).digest()[:8], "big") % n + 1

def matrix(n:int) -> list[str]:
  if n < 1: raise ShardError(f"the number of shards must be at least 1, not {n}")
  return [f"{k}/{n}" for k in range(1, n + 1)]

def main():
  try: print("shards=" + json.dumps(matrix(int(sys.argv[1]))))
  except (IndexError, ValueError) as e: sys.exit(f"usage: python -m autograder.shard N ({e})")

if __name__ == "__main__": main()
