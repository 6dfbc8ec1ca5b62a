"""Wrong variants of module 02's reference answers, each a bug a learner plausibly writes.

Each must lose points when graded (`autograder mutants 02`, tests/test_mutants.py). `target` is the grade_id of an
answer cell; `old` occurs in it and `new` replaces it. Each is caught by the visible checks and, on unseen inputs, by
the hidden tests alone.
"""

MUTANTS = [
    # Task 1.1: GroupOp.Reduce (the ALU ops a REDUCE may combine with) taken for the reduce nodes: every ADD a reduction
    {"name": "cheapest counts GroupOp.Reduce as reduce nodes", "target": "ans_cheapest",
     "old": "if u.op is Ops.REDUCE: reduce += 1", "new": "if u.op in GroupOp.Reduce: reduce += 1"},
    # Task 1.1: the order of the rule read backwards (fewest elementwise first)
    {"name": "cheapest ranks elementwise before reduce", "target": "ans_cheapest",
     "old": "(counts[name][1], counts[name][0])", "new": "(counts[name][0], counts[name][1])"},
    # Task 1.1: movement nodes counted as a cost
    {"name": "cheapest counts movement nodes as a cost", "target": "ans_cheapest",
     "old": "(counts[name][1], counts[name][0])", "new": "(counts[name][1], counts[name][0] + counts[name][2])"},
    # Task 1.1: one total of computing nodes instead of the two-level rule
    {"name": "cheapest ranks by elementwise + reduce", "target": "ans_cheapest",
     "old": "(counts[name][1], counts[name][0])", "new": "(counts[name][1] + counts[name][0],)"},
    # Task 1.1: a tie goes to the last candidate
    {"name": "cheapest breaks ties towards the last", "target": "ans_cheapest",
     "old": "min(counts, key=", "new": "min(reversed(counts), key="},
    # Task 1.1: "one entry per node" read as one per op name
    {"name": "cheapest counts each op name once", "target": "ans_cheapest",
     "old": "for u in f(x).uop.toposort():", "new": "for u in {u.op: u for u in f(x).uop.toposort()}.values():"},
    # Task 1.1: only the nodes f adds to x's graph counted
    {"name": "cheapest leaves x's own nodes out", "target": "ans_cheapest",
     "old": "for u in f(x).uop.toposort():", "new": "for u in [u for u in f(x).uop.toposort() if u not in x.uop.toposort()]:"},
    # Task 1b: an argument ignored
    {"name": "kernel_sources ignores noopt", "target": "ans_kernel_sources",
     "old": "with Context(NOOPT=int(noopt)):", "new": "with Context():"},
    # Task 1b: COPY calls handed to the code generator (to_program raises on them)
    {"name": "kernel_sources does not skip COPY calls", "target": "ans_kernel_sources",
     "old": "if ast.op is not Ops.SINK: continue", "new": "pass"},
    # Task 1.3: the constant of the tensor graph (as the Python code wrote it), not the kernel's
    {"name": "exp2_scale reads the tensor graph", "target": "ans_exp2_scale",
     "old": "    for call in build().schedule_linear().src:",
     "new": "    exp2 = next(u for u in build().uop.toposort() if u.op is Ops.EXP2)\n"
            "    return float(np.float32(next(s for s in exp2.src[0].src if s.op is Ops.CONST).arg))\n"
            "    for call in build().schedule_linear().src:"},
    # Task 1.3: the float64 constant, not the float32 value the kernel computes with
    {"name": "exp2_scale returns the float64 constant", "target": "ans_exp2_scale",
     "old": "return float(np.float32(const.arg))", "new": "return float(const.arg)"},
    # Task 1.3: the last EXP2 node of the kernel instead of the first one
    {"name": "exp2_scale reads the kernel's last EXP2 node", "target": "ans_exp2_scale",
     "old": "next((u for u in call.src[0].toposort() if u.op is Ops.EXP2), None)",
     "new": "next((u for u in reversed(list(call.src[0].toposort())) if u.op is Ops.EXP2), None)"},
    # Task 1.3: only the first kernel read (softmax's and logsumexp's first kernel, the max, has no EXP2)
    {"name": "exp2_scale reads the first kernel only", "target": "ans_exp2_scale",
     "old": "if exp2 is None: continue", "new": "if exp2 is None: return None"},
    # Task 2a: the optimised kernel read instead of the NOOPT one (an argument not passed)
    {"name": "reduce_loops reads the optimised kernel", "target": "ans_reduce_loops",
     "old": "kernel_sources(t, noopt=True)", "new": "kernel_sources(t)"},
    # Task 2b: an off-by-one in the divisor range of the split rule (8 excluded)
    {"name": "predict_reduce_kernels: divisors from 9, not 8", "target": "ans_predict_reduce_kernels",
     "old": "range(top, 7, -1)", "new": "range(top, 8, -1)"},
    # Task 2b: a negative axis counted from the wrong end (-1 taken as the first axis)
    {"name": "predict_reduce_kernels counts negative axes from the front", "target": "ans_predict_reduce_kernels",
     "old": "sorted({a % len(shape) for a in axes})", "new": "sorted({(-a - 1 if a < 0 else a) for a in axes})"},
    # Task 2b: the cap 2**22 // n_out on the divisor dropped (only matters for many outputs)
    {"name": "predict_reduce_kernels ignores the 2**22 // n_out cap", "target": "ans_predict_reduce_kernels",
     "old": "top = min(256, 2**22 // n_out)", "new": "top = 256"},
    # Task 4: the split turned off without bypassing the schedule cache (the cached schedule comes back: split = 0)
    {"name": "kernel_reasons: SPLIT_REDUCEOP=0 without SCACHE=0", "target": "ans_kernel_reasons",
     "old": "count(SPLIT_REDUCEOP=0, SCACHE=0)", "new": "count(SPLIT_REDUCEOP=0)"},
    # Task 4: the kernel that writes the result counted as a broadcast
    {"name": "kernel_reasons counts the result's kernel as a broadcast", "target": "ans_kernel_reasons",
     "old": "max(k0 - 1, 0)", "new": "k0"},
    # Task 4: a view (0 kernels) given a broadcast of -1
    {"name": "kernel_reasons: broadcast -1 for a view", "target": "ans_kernel_reasons",
     "old": "max(k0 - 1, 0)", "new": "k0 - 1"},
    # Task 4: the flags set for good instead of for a block (later realizations never split)
    {"name": "kernel_reasons leaves the split off", "target": "ans_kernel_reasons",
     "old": "    k0 = count(SPLIT_REDUCEOP=0, SCACHE=0)",
     "new": "    from tinygrad.helpers import SPLIT_REDUCEOP, SCACHE\n    SPLIT_REDUCEOP.value, SCACHE.value = 0, 0\n    k0 = count()"},
    # Task 4: the split read as "reductions in the graph beyond the first" instead of measured
    {"name": "kernel_reasons counts REDUCE nodes as splits", "target": "ans_kernel_reasons",
     "old": "\"split\": k - k0", "new": "\"split\": max(sum(u.op is Ops.REDUCE for u in build().uop.toposort()) - 1, 0)"},
    # Task 3.1: the validity condition of a padded view kept (the index is then not linear: no strides)
    {"name": "view_report keeps the padding's validity condition", "target": "ans_view_report",
     "old": "expr = idx.src[1].get_idx()", "new": "expr = idx.src[1]"},
    # Task 3.1: strides reported for a tensor that needs a kernel (b * 1 simplifies to the buffer's own index)
    {"name": "view_report keeps the strides of a tensor that is not free", "target": "ans_view_report",
     "old": "    if not free: strides, offset = None, None\n", "new": ""},
    # Task 3.1: "free" guessed from the graph (a strided index) instead of measured
    {"name": "view_report: free means strided", "target": "ans_view_report",
     "old": "free = kernels_run(lambda: t)[1] == 0", "new": "free = strides is not None; t.realize()"},
    # Task 3.1: freeness measured on a copy of t (t.contiguous() copies every view that is not contiguous already)
    {"name": "view_report measures t.contiguous()", "target": "ans_view_report",
     "old": "free = kernels_run(lambda: t)[1] == 0", "new": "free = kernels_run(lambda: t.contiguous())[1] == 0"},
    # Task 2b: the first kernel of a split never split again (what this module's own reference did at first)
    {"name": "predict_reduce_kernels stops after the first split", "target": "ans_predict_reduce_kernels",
     "old": "        kernels += 1\n", "new": "        kernels += 1\n        break\n"},
]
