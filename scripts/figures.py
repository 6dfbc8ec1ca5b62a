#!/usr/bin/env python3
"""The figures of the course site, written as SVG into course/figures/ (committed; tests/course/test_course.py checks that this
script still makes them byte for byte).

  pipeline.svg  the compiler pipeline, each stage annotated with what a real run of `(a @ b).relu()` produced
  fusion.svg    one fused kernel against three unfused ones: kernels and bytes moved, from GlobalCounters
  roofline.svg  a roofline of an H200 from the reference figures in figures_data/h200_section13b.json (not this machine)
  training.svg  a training curve from figures_data/training_spirals.csv (made by `--train`: tinygrad and PyTorch)
  llm_decode.svg  module 12's decode step and prefill on a roofline of the course machine, from figures_data/llm_decode_cpu.json
  kernel_opts.svg  the kernel times of opt lists for a 128x128 matmul, from figures_data/kernel_opts_times.json (made by
                `--kernel-opts`: measured on the course machine, not this one)

  python scripts/figures.py [--out DIR]     # a few seconds: two small real runs on DEV=CPU, two data files
  python scripts/figures.py --train         # also re-runs the training (minutes on a 2-core machine) into the CSV
  python scripts/figures.py --kernel-opts   # also re-times module 13's opt lists (a minute) into the JSON

Runs use DEV=CPU and NUM_CPU_THREADS=2 (the course machine's core count: the optimiser's THREAD choice, and so the
kernel names, depend on it), so the figures come out the same on any machine.
"""
from __future__ import annotations
import argparse, csv, json, os, sys
from pathlib import Path
os.environ["DEV"], os.environ["NUM_CPU_THREADS"] = "CPU", "2"      # before tinygrad is imported
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.patches import FancyBboxPatch

REPO = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "figures_data"
plt.rcParams.update({"svg.hashsalt": "tinygrad-workbook", "svg.fonttype": "none", "font.size": 10,
                     "axes.spines.top": False, "axes.spines.right": False})
BLUE, ORANGE, GREEN, GREY, RED = "#1f77b4", "#ff7f0e", "#2ca02c", "#7f7f7f", "#d62728"

def save(fig, out:Path, name:str):
  fig.savefig(out / name, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
  plt.close(fig)
  print("wrote", out / name)

def box(ax, x, y, w, h, title, lines, color):
  ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0.02,rounding_size=0.08", fc=color, ec="black", lw=0.8, alpha=0.9))
  ax.text(x + w / 2, y + h - 0.12, title, ha="center", va="top", fontsize=10, fontweight="bold")
  ax.text(x + w / 2, y + h - 0.42, "\n".join(lines), ha="center", va="top", fontsize=8, family="monospace", linespacing=1.4)

def arrow(ax, x0, y0, x1, y1, label=""):
  ax.annotate("", xy=(x1, y1), xytext=(x0, y0), arrowprops=dict(arrowstyle="->", lw=1.2))
  if label: ax.text((x0 + x1) / 2, (y0 + y1) / 2 + 0.08, label, ha="center", va="bottom", fontsize=7.5, family="monospace")

# ---------------------------------------------------------------------------------------------------------------------

def pipeline_run() -> dict:
  """Every stage of one small computation, as tinygrad 0.14 produces it."""
  from tinygrad import Device, Tensor
  from tinygrad.uop.ops import Ops
  from tinygrad.codegen import to_program
  from tinygrad.engine.realize import run_linear
  from tinygrad.helpers import ansistrip
  a, b = Tensor.ones(64, 64).contiguous().realize(), Tensor.ones(64, 64).contiguous().realize()
  out = (a @ b).relu()
  graph = out.uop.toposort()
  lin = out.schedule_linear()
  ast = lin.src[0].src[0]
  prg = to_program(ast, Device["CPU"].renderer)
  sink, linear, source, binary = prg.src
  run_linear(lin)
  return {"graph_uops": len(graph), "graph_ops": sorted({u.op.name for u in graph}), "calls": len(lin.src),
          "ast_uops": len(ast.toposort()), "opts": [f"{o.op.name} {o.axis} {o.arg}" for o in sink.arg.applied_opts],
          "linear_uops": len(linear.src), "c_lines": len(source.arg.splitlines()), "name": ansistrip(prg.arg.name),
          "value": out.tolist()[0][0], "binary_magic": bytes(binary.arg[:4])}

def fig_pipeline(out:Path):
  r = pipeline_run()
  fig, ax = plt.subplots(figsize=(12.5, 4.4))
  ax.set_xlim(0, 12.5); ax.set_ylim(0, 4.4); ax.axis("off")
  w, h, gap, y = 2.2, 2.3, 0.3, 1.75
  stages = [
    ("1 tensor graph", [f"{r['graph_uops']} UOps:", "BUFFER, RESHAPE,", "PERMUTE, MUL,", "REDUCE, WHERE ..."], "#dbe9f6",
     "tensor.py\nmixin/*.py"),
    ("2 schedule", ["schedule_linear():", f"LINEAR of {r['calls']} CALL;", "its kernel AST:", f"SINK of {r['ast_uops']} UOps"], "#fde3c8",
     "schedule/__init__.py\nschedule/rangeify.py"),
    ("3 optimise", ["heuristic (or BEAM):", *r["opts"]], "#e2f0d9", "codegen/opt/heuristic.py\ncodegen/opt/search.py"),
    ("4 lower, linearise", ["expand, devectorise,", "decompose, ...:", f"{r['linear_uops']} UOps in order"], "#e2f0d9",
     "codegen/__init__.py\nfull_rewrite_to_sink"),
    ("5 render, compile", [f"{r['c_lines']} lines of C,", "clang: ELF object", "kernel name", r["name"]], "#eadcf2",
     "renderer/cstyle.py\nruntime/support/\ncompiler_cpu.py"),
  ]
  for i, (title, lines, color, where) in enumerate(stages):
    x = 0.05 + i * (w + gap)
    box(ax, x, y, w, h, title, lines, color)
    ax.text(x + w / 2, y + 0.1, where, ha="center", va="bottom", fontsize=7, family="monospace", color=GREY, linespacing=1.3)
    if i: arrow(ax, x - gap, y + h / 2, x, y + h / 2)
  box(ax, 5.2, 0.35, 5.0, 1.05, "6 run", ["run_linear(): the CPU device's Program on the buffers;",
                                          f"every element of the result: {r['value']}"], "#f4f4f4")
  arrow(ax, 0.05 + 4 * (w + gap) + w / 2, y, 10.2, 0.9)
  ax.text(0.05, 0.9, "(a @ b).relu() on two realized 64x64 float32\ntensors; DEV=CPU, NUM_CPU_THREADS=2;\n"
          "what tinygrad 0.14.0 produced at each stage\n(paths under tinygrad/)", fontsize=8.5, color=GREY, va="center")
  save(fig, out, "pipeline.svg")

# ---------------------------------------------------------------------------------------------------------------------

def fusion_run(n:int=128) -> dict:
  from tinygrad import Tensor, GlobalCounters, Device
  from tinygrad.codegen import to_program
  from tinygrad.helpers import ansistrip
  a, b = Tensor.ones(n, n).contiguous().realize(), Tensor.ones(n, n).contiguous().realize()
  def names(t): return [ansistrip(to_program(c.src[0], Device["CPU"].renderer).arg.name) for c in t.schedule_linear().src]
  def measure(fn):
    GlobalCounters.reset(); val = fn(); return {"kernels": GlobalCounters.kernel_count, "bytes": GlobalCounters.global_mem,
                                                "ops": GlobalCounters.global_ops, "value": val}
  fused = measure(lambda: (a + b).relu().sum().item())
  def unfused():
    x = (a + b).realize(); y = x.relu().realize(); return y.sum().item()
  unf = measure(unfused)
  x = a + b; n1 = names(x); x.realize(); y = x.relu(); n2 = names(y); y.realize()
  unf["names"], fused["names"] = n1 + n2 + names(y.sum()), names((a + b).relu().sum())
  return {"n": n, "fused": fused, "unfused": unf}

def fig_fusion(out:Path):
  r = fusion_run()
  f, u, n = r["fused"], r["unfused"], r["n"]
  fig = plt.figure(figsize=(12, 4.4))
  ax = fig.add_axes([0.0, 0.0, 0.66, 1.0]); ax.set_xlim(0, 8); ax.set_ylim(0, 4.4); ax.axis("off")
  mb = lambda x: f"{x / 2**10:.0f} KiB"
  ax.text(0.1, 4.25, f"(a + b).relu().sum() on two {n}x{n} float32 tensors", fontsize=10, fontweight="bold")
  ax.text(0.1, 3.85, f"unfused: .realize() after each op, {u['kernels']} kernels", fontsize=9, color=RED)
  xs = [0.1, 2.1, 4.1, 6.1]
  labels = [("a, b", "#dbe9f6"), (u["names"][0] + "\na + b", "#fbe0e0"), (u["names"][1] + "\nrelu", "#fbe0e0"), (u["names"][2] + "\nsum", "#fbe0e0")]
  for i, (text, color) in enumerate(labels):
    ax.add_patch(FancyBboxPatch((xs[i], 2.65), 1.3, 0.85, boxstyle="round,pad=0.02", fc=color, ec="black", lw=0.8))
    ax.text(xs[i] + 0.65, 3.07, text, ha="center", va="center", fontsize=8, family="monospace")
    if i: arrow(ax, xs[i] - 0.7, 3.07, xs[i], 3.07, "" if i == 1 else f"{n}x{n} in\nmemory")
  ax.text(0.1, 2.2, f"fused: one lazy graph, realized once, {f['kernels']} kernel", fontsize=9, color=GREEN)
  ax.add_patch(FancyBboxPatch((xs[0], 1.0), 1.3, 0.85, boxstyle="round,pad=0.02", fc="#dbe9f6", ec="black", lw=0.8))
  ax.text(xs[0] + 0.65, 1.42, "a, b", ha="center", va="center", fontsize=8, family="monospace")
  ax.add_patch(FancyBboxPatch((xs[1], 1.0), 5.3, 0.85, boxstyle="round,pad=0.02", fc="#e2f0d9", ec="black", lw=0.8))
  ax.text(xs[1] + 2.65, 1.42, f"{f['names'][0]}: load a, b; add; relu; accumulate the sum in a register",
          ha="center", va="center", fontsize=8, family="monospace")
  arrow(ax, xs[1] - 0.7, 1.42, xs[1], 1.42)
  ax.text(0.1, 0.45, f"both print {f['value']}; GlobalCounters after each run, DEV=CPU, tinygrad 0.14.0", fontsize=8, color=GREY)
  bx = fig.add_axes([0.72, 0.12, 0.26, 0.72])
  vals = [u["bytes"] / 2**10, f["bytes"] / 2**10]
  bars = bx.bar(["unfused", "fused"], vals, color=[RED, GREEN])
  for bar, k, v in zip(bars, [u["kernels"], f["kernels"]], vals):
    bx.text(bar.get_x() + bar.get_width() / 2, v, f"{v:.0f} KiB\n{k} kernel{'s' if k > 1 else ''}", ha="center", va="bottom", fontsize=9)
  bx.set_ylabel("bytes read and written (KiB, GlobalCounters.global_mem)")
  bx.set_ylim(0, max(vals) * 1.3)
  bx.set_title(f"memory traffic: {u['bytes'] / f['bytes']:.1f}x", fontsize=10)
  save(fig, out, "fusion.svg")

# ---------------------------------------------------------------------------------------------------------------------

def fig_roofline(out:Path):
  d = json.loads((DATA / "h200_section13b.json").read_text())
  bw, peak = d["bandwidth_tb_s"]["pytorch_device_copy"], d["bandwidth_tb_s"]["h200_peak"]
  rows = d["matmul"]
  best16 = max(r["cublas"] for r in rows if r["dtype"] != "fp32")
  best32 = max(r["cublas"] for r in rows if r["dtype"] == "fp32")
  fig, ax = plt.subplots(figsize=(9.5, 5.6))
  xs = [2 ** (i / 4) for i in range(-20, 56)]
  ax.plot(xs, [min(best16, bw * x) for x in xs], color="black", lw=1.5, label=f"roof: {bw} TB/s copy, {best16:.0f} TFLOPS (best fp16/bf16 cuBLAS)")
  ax.plot(xs, [min(best32, bw * x) for x in xs], color="black", lw=1.0, ls=":", label=f"fp32 roof: {best32} TFLOPS (best fp32 cuBLAS, TF32 off)")
  ax.plot(xs, [peak * x for x in xs], color=GREY, lw=0.8, ls="--", label=f"H200 peak bandwidth, {peak} TB/s (vendor figure)")
  marker = {"fp32": "o", "fp16": "s", "bf16": "^"}
  for r in rows:
    ai = 2 * r["n"] / (3 * r["bytes"])                         # 2 N^3 FLOPs over 3 N^2 elements read or written once
    ax.scatter(ai, r["cublas"], marker=marker[r["dtype"]], color=GREY, s=30, zorder=3)
    ax.scatter(ai, r["tinygrad_beam0"], marker=marker[r["dtype"]], color=BLUE, s=30, zorder=3)
    if r["tinygrad_beam2"]:
      ax.scatter(ai, r["tinygrad_beam2"], marker=marker[r["dtype"]], color=ORANGE, s=36, zorder=3)
      ax.annotate("", xy=(ai, r["tinygrad_beam2"]), xytext=(ai, r["tinygrad_beam0"]), arrowprops=dict(arrowstyle="->", color=ORANGE, lw=0.8))
  add = d["elementwise_add"]
  ai_add, tf_add = 1 / 12, add["elements"] / add["seconds"] / 1e12          # one FLOP per 12 bytes (two loads, one store of fp32)
  ax.scatter(ai_add, tf_add, marker="D", color=GREEN, s=36, zorder=3)
  ax.annotate(f"tinygrad a + b, 2^28 fp32\n{3 * 4 * add['elements'] / add['seconds'] / 1e12:.1f} TB/s", (ai_add, tf_add),
              xytext=(ai_add * 3, tf_add * 4), fontsize=8, arrowprops=dict(arrowstyle="-", lw=0.6))
  for lab, c in [("cuBLAS (PyTorch)", GREY), ("tinygrad BEAM=0", BLUE), ("tinygrad BEAM=2", ORANGE)]:
    ax.scatter([], [], color=c, label=lab)
  for dt, m in marker.items(): ax.scatter([], [], marker=m, color="white", edgecolor="black", label=f"matmul {dt} (N = 1024, 4096, 8192)")
  ax.set_xscale("log", base=2); ax.set_yscale("log", base=10)
  ax.set_xlabel("arithmetic intensity (FLOPs per byte of memory traffic)"); ax.set_ylabel("TFLOPS")
  ax.set_title("Roofline of one NVIDIA H200: REFERENCE FIGURES measured there (facts, section 13b), not on your machine", fontsize=9.5)
  ax.legend(fontsize=7.5, loc="lower right", frameon=False)
  ax.set_ylim(0.05, 2000)
  save(fig, out, "roofline.svg")

# ---------------------------------------------------------------------------------------------------------------------

TRAIN_CSV = DATA / "training_spirals.csv"
TRAIN_HEADER = ("# Two spirals (512 points, numpy seed 0), an MLP 2-32-32-2 with tanh, full-batch Adam(lr=0.02), 300 steps, the\n"
                "# same initial weights (numpy seed 1) in tinygrad 0.14.0 (DEV=CPU, TinyJit) and PyTorch: made by `scripts/figures.py --train`.\n")

def spirals(n:int, seed:int):
  import numpy as np
  rng = np.random.default_rng(seed)
  t, cls = rng.uniform(0.25, 1, n) * 3 * np.pi, rng.integers(0, 2, n)
  x = np.stack([t / (3 * np.pi) * np.cos(t + np.pi * cls), t / (3 * np.pi) * np.sin(t + np.pi * cls)], 1) + rng.normal(0, 0.02, (n, 2))
  return x.astype(np.float32), cls.astype(np.int32)

def train(steps:int=300) -> list[dict]:
  import numpy as np
  from tinygrad import Tensor, TinyJit, nn, Context
  X, Y = spirals(512, 0)
  rng = np.random.default_rng(1)
  init = [rng.normal(0, s, shape).astype(np.float32) for shape, s in
          [((2, 32), 1.0), ((32,), 0.0), ((32, 32), 0.25), ((32,), 0.0), ((32, 2), 0.25), ((2,), 0.0)]]
  def model(x, p): return ((x @ p[0] + p[1]).tanh() @ p[2] + p[3]).tanh() @ p[4] + p[5]
  params = [Tensor(w).contiguous().realize() for w in init]
  opt, Xt, Yt = nn.optim.Adam(params, lr=0.02), Tensor(X).realize(), Tensor(Y).realize()
  @TinyJit
  def step():
    with Context(TRAINING=1):
      opt.zero_grad()
      logits = model(Xt, params)
      loss = logits.sparse_categorical_crossentropy(Yt).backward()
      acc = (logits.argmax(-1) == Yt).float().mean()
      return loss.realize(*opt.schedule_step()), acc.realize()
  rows = []
  for i in range(steps):
    loss, acc = step()
    rows.append({"step": i + 1, "tinygrad_loss": loss.item(), "tinygrad_accuracy": acc.item()})
  import torch
  tp = [torch.tensor(w, requires_grad=True) for w in init]
  topt, Xs, Ys = torch.optim.Adam(tp, lr=0.02), torch.tensor(X), torch.tensor(Y).long()
  for row in rows:
    topt.zero_grad(); loss = torch.nn.functional.cross_entropy(model(Xs, tp), Ys); loss.backward(); topt.step()
    row["pytorch_loss"] = loss.item()
  return rows

def fig_training(out:Path):
  rows = list(csv.DictReader(l for l in TRAIN_CSV.read_text().splitlines() if not l.startswith("#")))
  step = [int(r["step"]) for r in rows]
  tl, pl, acc = ([float(r[k]) for r in rows] for k in ("tinygrad_loss", "pytorch_loss", "tinygrad_accuracy"))
  fig, ax = plt.subplots(figsize=(8, 4.2))
  ax.plot(step, tl, color=BLUE, lw=2, label="tinygrad 0.14 (TinyJit, DEV=CPU)")
  ax.plot(step, pl, color=ORANGE, lw=1, ls="--", label="PyTorch, same initial weights")
  ax.set_yscale("log"); ax.set_xlabel("Adam step (full batch of 512 points)"); ax.set_ylabel("cross-entropy loss")
  diff = max(abs(a - b) for a, b in zip(tl, pl))
  ax.set_title(f"Two spirals, MLP 2-32-32-2: the losses agree to {diff:.1e} over {len(step)} steps", fontsize=10)
  a2 = ax.twinx(); a2.plot(step, acc, color=GREEN, lw=1, label="tinygrad training accuracy"); a2.set_ylabel("accuracy"); a2.set_ylim(0, 1.05)
  a2.spines["top"].set_visible(False)
  h1, l1 = ax.get_legend_handles_labels(); h2, l2 = a2.get_legend_handles_labels()
  ax.legend(h1 + h2, l1 + l2, loc="center right", fontsize=8, frameon=False)
  save(fig, out, "training.svg")

# ---------------------------------------------------------------------------------------------------------------------

def fig_llm_decode(out:Path):
  d = json.loads((DATA / "llm_decode_cpu.json").read_text())
  bw, peak = d["bandwidth_gb_s"], d["compute_gflops"]
  fig, ax = plt.subplots(figsize=(9, 5.2))
  xs = [2 ** (i / 4) for i in range(-24, 41)]
  ax.plot(xs, [min(peak, bw * x) for x in xs], color="black", lw=1.5,
          label=f"roof: {bw} GB/s (tinygrad a + 1), {peak} GFLOP/s (PyTorch matmul); ridge at {peak / bw:.1f} FLOP/byte")
  for p, color, marker in zip(d["points"], (BLUE, GREEN, ORANGE), ("o", "D", "s")):
    ai, achieved = p["flops"] / p["bytes"], p["flops"] / p["seconds"] / 1e9
    roof = min(peak, bw * ai)
    ax.scatter(ai, achieved, color=color, marker=marker, s=40, zorder=3, label=f"{p['label']}: {ai:.2f} FLOP/byte, {achieved * 1e3:.0f} MFLOP/s measured")
    ax.scatter(ai, roof, color="white", edgecolor=color, marker=marker, s=40, zorder=3)
    ax.annotate("", xy=(ai, roof), xytext=(ai, achieved), arrowprops=dict(arrowstyle="->", color=color, lw=0.8, ls=":"))
  ax.scatter([], [], color="white", edgecolor="black", label="hollow: what the roof allows at that intensity")
  ax.set_xscale("log", base=2); ax.set_yscale("log", base=10)
  ax.set_xlabel("arithmetic intensity (FLOPs per byte of memory traffic, tinygrad's GlobalCounters)"); ax.set_ylabel("GFLOP/s")
  ax.set_title("Module 12's model decoding on the course machine (measured, 2-core AMD EPYC): left of the ridge, and far below\n"
               "the roof, because 30 kernel launches a step cost more than its 0.5 MB of traffic", fontsize=9.5)
  ax.legend(fontsize=7.5, loc="upper left", frameon=False)
  ax.set_ylim(0.005, 2000)
  save(fig, out, "llm_decode.svg")
KERNEL_OPTS_JSON = DATA / "kernel_opts_times.json"
KERNEL_OPTS_LISTS = [                     # (label, opts as (op, axis, arg); None: tinygrad's default opts; "beam": module 13's shipped BEAM opts)
  ("no opts", []), ("UNROLL 4", [("UNROLL", 0, 4)]), ("UPCAST 4", [("UPCAST", 0, 4)]),
  ("UPCAST 4, UPCAST 4", [("UPCAST", 0, 4), ("UPCAST", 1, 4)]),
  ("UPCAST 4, UPCAST 4, UNROLL 4", [("UPCAST", 0, 4), ("UPCAST", 1, 4), ("UNROLL", 0, 4)]),
  ("... and THREAD 2", [("UPCAST", 0, 4), ("UPCAST", 1, 4), ("UNROLL", 0, 4), ("THREAD", 0, 2)]),
  ("tinygrad's default", None), ("BEAM=2 (shipped)", "beam")]   # no hand-written list that rivals BEAM's: finding one is Task 3.3

def measure_kernel_opts(n:int=128, rounds:int=15) -> dict:
  """Module 13's measurement: each opt list's kernel for the n x n float32 matmul, compiled first, then timed in
  interleaved rounds (one run of each list per round, 2 warm-up rounds), the fastest run of each; with its name and
  the FLOPs per byte it loads (counted on its linear program)."""
  import numpy as np
  from tinygrad import Tensor, GlobalCounters, Device, dtypes
  from tinygrad.uop.ops import Ops, UOp, KernelInfo, AddrSpace, GroupOp
  from tinygrad.codegen.opt import Opt, OptOps
  from tinygrad.engine.realize import compile_linear, run_linear
  from tinygrad.helpers import ansistrip
  beam = json.loads((REPO / "solutions" / "13_kernel_opts" / "beam_opts.json").read_text())["matmul"][str(n)]["opts"]
  rng = np.random.default_rng(0)
  a, b = (Tensor(rng.standard_normal((n, n), dtype=np.float32)).realize() for _ in range(2))
  call = (a @ b).schedule_linear().src[0]
  compiled = []
  for _, opts in KERNEL_OPTS_LISTS:
    opts = beam if opts == "beam" else opts
    arg = KernelInfo(opts_to_apply=None if opts is None else tuple(Opt(OptOps[op], ax, am) for op, ax, am in opts))
    compiled.append(compile_linear(UOp(Ops.LINEAR, src=(call.replace(src=(call.src[0].replace(arg=arg), *call.src[1:])),))))
  times = [[] for _ in compiled]
  for r in range(2 + rounds):
    for i, c in enumerate(compiled):
      GlobalCounters.reset(); run_linear(c, wait=True, jit=True)
      if r >= 2: times[i].append(GlobalCounters.time_sum_s)
  rows = []
  for (label, _), c, ts in zip(KERNEL_OPTS_LISTS, compiled, times):
    prg = c.src[0].src[0]
    flops = loaded = 0
    mult, stack = 1, []
    for u in prg.src[1].src:
      if u.op is Ops.RANGE: stack.append(mult); mult *= int(u.vmax) + 1
      elif u.op is Ops.END: mult = stack.pop()
      elif u.op is Ops.PARAM and u.addrspace == AddrSpace.ALU and u.arg.name == "core_id": mult *= int(u.vmax) + 1
      elif u.op is Ops.LOAD and u.src[0].addrspace == AddrSpace.GLOBAL: loaded += mult * u.max_numel() * u.dtype.itemsize
      elif u.op in GroupOp.ALU and dtypes.is_float(u.dtype): flops += mult * u.max_numel() * (2 if u.op is Ops.MULACC else 1)
    rows.append({"label": label, "name": ansistrip(prg.arg.name), "seconds": min(ts), "flops": flops, "flops_per_byte": round(flops / loaded, 4)})
  return {"n": n, "rounds": rounds, "machine": "the course machine: 2 shared cores of an AMD EPYC (AVX-512), Debian clang 14.0.6, "
          f"NUM_CPU_THREADS=2, load average {os.getloadavg()[0]:.1f} while measuring", "rows": rows}

def fig_kernel_opts(out:Path):
  d = json.loads(KERNEL_OPTS_JSON.read_text())
  rows = d["rows"]
  fig, ax = plt.subplots(figsize=(10, 4.8))
  ys = list(range(len(rows)))[::-1]
  colors = [GREY if r["label"] == "no opts" else ORANGE if r["label"].startswith("BEAM") else GREEN if r["label"].startswith("tinygrad") else BLUE for r in rows]
  ax.barh(ys, [r["seconds"] * 1e3 for r in rows], color=colors)
  for y, r in zip(ys, rows):
    ax.text(r["seconds"] * 1e3 * 1.08, y, f"{r['flops'] / r['seconds'] / 1e9:.1f} GFLOPS, {r['flops_per_byte']:.2f} FLOPs/byte   {r['name']}",
            va="center", fontsize=8, family="monospace")
  ax.set_yticks(ys, [r["label"] for r in rows], fontsize=9)
  ax.set_xscale("log")
  ax.set_xlim(min(r["seconds"] for r in rows) * 1e3 / 2, max(r["seconds"] for r in rows) * 1e3 * 12)
  ax.set_xlabel("kernel time (ms, log scale): the fastest of %d interleaved runs" % d["rounds"])
  ax.set_title(f"One {d['n']}x{d['n']} float32 matmul kernel, {len(rows)} opt lists (module 13). Measured on {d['machine'].split(':')[0]}, not here", fontsize=9.5)
  fig.text(0.01, -0.02, d["machine"], fontsize=7.5, color=GREY)
  save(fig, out, "kernel_opts.svg")

def main(argv=None):
  ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  ap.add_argument("--out", type=Path, default=REPO / "course" / "figures")
  ap.add_argument("--train", action="store_true", help="re-run the training and rewrite the CSV first (slow)")
  ap.add_argument("--kernel-opts", action="store_true", help="re-time module 13's opt lists and rewrite their JSON first")
  args = ap.parse_args(argv)
  args.out.mkdir(parents=True, exist_ok=True)
  if args.train:
    rows = train()
    with open(TRAIN_CSV, "w", newline="") as f:
      f.write(TRAIN_HEADER)
      w = csv.DictWriter(f, fieldnames=list(rows[0])); w.writeheader()
      for r in rows: w.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in r.items()})
    print("wrote", TRAIN_CSV)
  if args.kernel_opts:
    KERNEL_OPTS_JSON.write_text(json.dumps(measure_kernel_opts(), indent=1) + "\n")
    print("wrote", KERNEL_OPTS_JSON)
  fig_pipeline(args.out); fig_fusion(args.out); fig_roofline(args.out); fig_training(args.out); fig_llm_decode(args.out); fig_kernel_opts(args.out)

if __name__ == "__main__": sys.exit(main())
