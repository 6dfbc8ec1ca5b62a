"""BEAM search results shipped with module 13, so that nothing is searched while the notebook runs or is graded.

`beam_opts.json` holds, for each square float32 matmul size n that the notebook times, the opts that tinygrad's BEAM
search (width 2, DEV=CPU) chose for the kernel of `a @ b` (a, b realized n x n float32 tensors), with the seconds the
search took and the machine it ran on. `beam_opts(n)` returns them as a list of Opt, ready for
`KernelInfo(opts_to_apply=...)`.

  python beam_opts.py 96 128 160      # search again (about a minute per size on 2 cores) and rewrite beam_opts.json
"""
from __future__ import annotations
import json, os, platform, sys, time
from pathlib import Path

BEAM_FILE = Path(__file__).resolve().parent / "beam_opts.json"

def beam_opts(n:int) -> list:
  "BEAM's opts for the n x n float32 matmul, as a list of tinygrad Opt (KeyError for a size that was not searched)."
  from tinygrad.codegen.opt import Opt, OptOps
  entry = json.loads(BEAM_FILE.read_text())["matmul"][str(n)]
  return [Opt(OptOps[op], axis, tuple(arg) if isinstance(arg, list) else arg) for op, axis, arg in entry["opts"]]

def search(sizes, width:int=2) -> dict:
  "Run tinygrad's BEAM search on the matmul of each size (IGNORE_BEAM_CACHE: really search) and return the file's content."
  os.environ["IGNORE_BEAM_CACHE"] = "1"
  import numpy as np
  from tinygrad import Tensor
  from tinygrad.engine.realize import compile_linear
  from tinygrad.helpers import ansistrip, NUM_CPU_THREADS
  data = json.loads(BEAM_FILE.read_text()) if BEAM_FILE.exists() else {"matmul": {}}
  for n in sizes:
    rng = np.random.default_rng(n)
    a, b = (Tensor(rng.standard_normal((n, n), dtype=np.float32)).realize() for _ in range(2))
    st = time.perf_counter()
    compiled = compile_linear((a @ b).schedule_linear(), beam=width)
    secs = time.perf_counter() - st
    prg = compiled.src[0].src[0]
    data["matmul"][str(n)] = {"opts": [[o.op.name, o.axis, list(o.arg) if isinstance(o.arg, tuple) else o.arg] for o in prg.src[0].arg.applied_opts],
                              "name": ansistrip(prg.arg.name), "beam": width, "search_s": round(secs, 1),
                              "machine": f"{platform.machine()}, {os.cpu_count()} cores, NUM_CPU_THREADS={NUM_CPU_THREADS.value}, load {os.getloadavg()[0]:.1f}"}
    print(n, data["matmul"][str(n)])
  return data

if __name__ == "__main__":
  data = search([int(s) for s in sys.argv[1:]])
  BEAM_FILE.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
