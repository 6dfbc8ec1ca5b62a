"""Wrong variants of module 08's reference answers: each is a bug a learner plausibly writes, and each must lose points.
Format: tests/mutants in course/authoring.md. `old` occurs in the target answer cell; `new` replaces it."""
MUTANTS = [
  {"name": "summarize: the mean instead of the median", "target": "ans_summarize",
   "old": "median = float(np.median(times))", "new": "median = float(np.mean(times))"},
  {"name": "time_runs: no sync after the warm-up calls (their work lands in the first timed run)", "target": "ans_time_runs",
   "old": "  for _ in range(warmup):\n    fn()\n    if sync is not None: sync()\n", "new": "  for _ in range(warmup):\n    fn()\n"},
  {"name": "benchmark: GlobalCounters reset once, not before every run (times accumulate)", "target": "ans_benchmark",
   "old": "    for i in range(warmup + repeats):\n      GlobalCounters.reset()\n      run_linear",
   "new": "    GlobalCounters.reset()\n    for i in range(warmup + repeats):\n      run_linear"},
  {"name": "benchmark: the beam argument ignored (compiled with BEAM=0)", "target": "ans_benchmark",
   "old": "with Context(BEAM=beam):", "new": "with Context(BEAM=0):"},
  {"name": "matmul_work: the output not counted in the bytes", "target": "ans_work",
   "old": '"bytes": (n * k + k * m + n * m) * dtype.itemsize', "new": '"bytes": (n * k + k * m) * dtype.itemsize'},
  {"name": "elementwise_work: every input counted at the output's size (broadcast ignored)", "target": "ans_work",
   "old": "(sum(math.prod(s) for s in in_shapes) + out)", "new": "(len(in_shapes) * out + out)"},
  {"name": "tinygrad_matmul: k taken from the wrong dimension (square matrices assumed)", "target": "ans_tinygrad_matmul",
   "old": "matmul_work(a.shape[0], a.shape[1], b.shape[1], a.dtype)", "new": "matmul_work(a.shape[0], a.shape[0], b.shape[1], a.dtype)"},
  {"name": "sweep: PyTorch rows repeated for every case of the same (n, dtype)", "target": "ans_sweep",
   "old": "    if (n, dtype) in seen: continue\n", "new": "", "tests": ["test_sweep"]},      # test_sweep_cuda is skipped without a GPU
  {"name": "gpu_renderer: target device NULL (float32 matmuls get TF32 tensor cores)", "target": "ans_gpu_renderer",
   "old": 'PTXRenderer(Target(device="CUDA", renderer="PTX", arch=arch))', "new": 'PTXRenderer(Target(device="NULL", renderer="PTX", arch=arch, interface="MOCK"))'},
  {"name": "read_ptx: predicated instructions (@%p ld.global ...) not counted", "target": "ans_read_ptx",
   "old": 'rf"^\\s*(?:@!?%\\w+\\s+)?{opcode}\\b"', "new": 'rf"^\\s*{opcode}\\b"'},
  {"name": "anatomy: access bytes from estimates.mem (each byte once) instead of lds", "target": "ans_anatomy",
   "old": '"access_bytes": int(est.lds)', "new": '"access_bytes": int(est.mem)'},
]
