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
    # Task 1.2: an argument ignored
    {"name": "kernel_sources ignores noopt", "target": "ans_kernel_sources",
     "old": "with Context(NOOPT=int(noopt)):", "new": "with Context():"},
    # Task 1.2: COPY calls handed to the code generator (to_program raises on them)
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
    # Task 2: an off-by-one in the divisor range of the split rule (8 excluded)
    {"name": "predict_reduction: divisors from 9, not 8", "target": "ans_predict_reduction",
     "old": "range(top, 7, -1)", "new": "range(top, 8, -1)"},
    # Task 2: the smallest divisor in range taken instead of the largest
    {"name": "predict_reduction splits by the smallest divisor", "target": "ans_predict_reduction",
     "old": "for d in range(top, 7, -1) if s % d == 0", "new": "for d in range(8, top + 1) if s % d == 0"},
    # Task 2: a negative axis counted from the wrong end (-1 taken as the first axis)
    {"name": "predict_reduction counts negative axes from the front", "target": "ans_predict_reduction",
     "old": "reduced = {a % len(shape) for a in axes}", "new": "reduced = {(-a - 1 if a < 0 else a) for a in axes}"},
    # Task 2: the cap 2**22 // n_out on the divisor dropped (only matters for many outputs)
    {"name": "predict_reduction ignores the 2**22 // n_out cap", "target": "ans_predict_reduction",
     "old": "top = min(256, 2**22 // n_out)", "new": "top = 256"},
    # Task 2: the threshold read as "more than 32768 elements"
    {"name": "predict_reduction: the threshold exclusive", "target": "ans_predict_reduction",
     "old": "< 32768: break", "new": "<= 32768: break"},
    # Task 2: the first kernel of a split never split again (what this module's own reference did at first)
    {"name": "predict_reduction stops after the first split", "target": "ans_predict_reduction",
     "old": "        outs.append(len(mem) - 1)\n", "new": "        outs.append(len(mem) - 1)\n        break\n"},
    # Task 2: the split's new output axis put first among the outputs instead of last
    {"name": "predict_reduction puts the split's outputs first", "target": "ans_predict_reduction",
     "old": "outs.append(len(mem) - 1)", "new": "outs.insert(0, len(mem) - 1)"},
    # Task 2: the second kernels listed outermost first
    {"name": "predict_reduction lists the second kernels outermost first", "target": "ans_predict_reduction",
     "old": "for n_out, d in reversed(seconds):", "new": "for n_out, d in seconds:"},
    # Task 2: every output axis its own loop (no merging of neighbours)
    {"name": "predict_reduction never merges output loops", "target": "ans_predict_reduction",
     "old": "if k and where[a] == where[prev] + 1: loops[-1] *= live[where[a]][0]", "new": "if False: pass"},
    # Task 2: output axes merged whenever they follow each other among the outputs, neighbours in memory or not
    {"name": "predict_reduction merges output loops that are not neighbours in memory", "target": "ans_predict_reduction",
     "old": "if k and where[a] == where[prev] + 1:", "new": "if k:"},
    # Task 2: reduced axes merged whenever they follow each other, an output axis between them or not
    {"name": "predict_reduction merges reduce loops across an output axis", "target": "ans_predict_reduction",
     "old": "if reduces and i and not live[i - 1][1]:", "new": "if reduces:"},
    # Task 2: axes of size 1 kept: they separate neighbours that share a loop
    {"name": "predict_reduction keeps axes of size 1", "target": "ans_predict_reduction",
     "old": "for s, is_out, a in mem if s > 1]", "new": "for s, is_out, a in mem if s > 0]"},
    # Task 3.2: negative strides read forwards (no flip)
    {"name": "as_strided never flips", "target": "ans_as_strided",
     "old": "return t.flip(flips) if flips else t", "new": "return t"},
    # Task 3.2: the view starts at offset even when a negative stride reads before it
    {"name": "as_strided starts at offset", "target": "ans_as_strided",
     "old": "first = offset + sum((n - 1) * s for n, s in zip(shape, strides) if s < 0)", "new": "first = offset"},
    # Task 3.2: the axes put in place by the permutation itself instead of its inverse
    {"name": "as_strided permutes by the order, not its inverse", "target": "ans_as_strided",
     "old": "t.permute(*[order.index(k) for k in range(len(shape))])", "new": "t.permute(*order)"},
    # Task 3.2: windows cut into rows as long as the slice (every row then starts at the same element)
    {"name": "as_strided's windows do not move", "target": "ans_as_strided",
     "old": "return t.reshape(*lead, n, L + step)[..., :length]", "new": "return t[..., :n * L].reshape(*lead, n, L)[..., :length]"},
    # Task 3.2: one element short
    {"name": "as_strided reads one element too few", "target": "ans_as_strided",
     "old": "for k in axes) + 1", "new": "for k in axes)"},
    # Task 3.2: a copy of the elements instead of a view of base
    {"name": "as_strided copies the elements", "target": "ans_as_strided",
     "old": "t = base.reshape(-1)[first:first + length]", "new": "t = Tensor(base.numpy().reshape(-1)[first:first + length])"},
    # Task 3.2: a contiguous copy of the view
    {"name": "as_strided returns a contiguous copy", "target": "ans_as_strided",
     "old": "return t.flip(flips) if flips else t", "new": "return (t.flip(flips) if flips else t).contiguous()"},
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
    # Task 4: the schedule cache emptied instead of bypassed (the schedule made with the split off is kept for later)
    {"name": "kernel_reasons clears the schedule cache instead of bypassing it", "target": "ans_kernel_reasons",
     "old": "    k0 = count(SPLIT_REDUCEOP=0, SCACHE=0)",
     "new": "    import tinygrad.schedule\n    tinygrad.schedule.schedule_cache.clear()\n    k0 = count(SPLIT_REDUCEOP=0)"},
    # Task 5: the stride pair read as (columns, rows)
    {"name": "my_conv2d swaps the stride pair", "target": "ans_my_conv2d",
     "old": "if isinstance(stride, int) else stride", "new": "if isinstance(stride, int) else stride[::-1]"},
    # Task 5: the padding of the columns applied to the rows too
    {"name": "my_conv2d pads the columns as the rows", "target": "ans_my_conv2d",
     "old": "ph, pw = (padding, padding) if isinstance(padding, int) else padding", "new": "ph, pw = (padding, padding) if isinstance(padding, int) else (padding[0], padding[0])"},
    # Task 5: one output row or column too few
    {"name": "my_conv2d's output one short", "target": "ans_my_conv2d",
     "old": "OH, OW = (Hp - dh * (KH - 1) - 1) // sh + 1,", "new": "OH, OW = (Hp - dh * (KH - 1) - 1) // sh,"},
    # Task 5: two sums (the channels, then the window): the same numbers, two REDUCE nodes
    {"name": "my_conv2d sums in two steps", "target": "ans_my_conv2d",
     "old": ".sum(axis=(3, 6, 7))", "new": ".sum(axis=(6, 7)).sum(axis=3)"},
    # Task 5: tinygrad's own convolution
    {"name": "my_conv2d calls Tensor.conv2d", "target": "ans_my_conv2d",
     "old": "    sh, sw = (stride, stride)", "new": "    return x.conv2d(w, stride=stride, padding=padding, dilation=dilation, groups=groups)\n    sh, sw = (stride, stride)"},
    # Task 5: dilation and groups (PyTorch's meaning)
    {"name": "my_conv2d ignores dilation", "target": "ans_my_conv2d",
     "old": "    dh, dw = (dilation, dilation) if isinstance(dilation, int) else dilation", "new": "    dh, dw = 1, 1"},
    {"name": "my_conv2d dilates the output size but not the windows", "target": "ans_my_conv2d",
     "old": "sh * Wp, sw, dh * Wp, dw))", "new": "sh * Wp, sw, Wp, 1))"},
    {"name": "my_conv2d swaps the dilation pair", "target": "ans_my_conv2d",
     "old": "if isinstance(dilation, int) else dilation", "new": "if isinstance(dilation, int) else dilation[::-1]"},
    {"name": "my_conv2d: every group reads the first channels (the group axis' stride 0)", "target": "ans_my_conv2d",
     "old": "(C * Hp * Wp, Cg * Hp * Wp, 0,", "new": "(C * Hp * Wp, 0, 0,"},
    {"name": "my_conv2d's output size ignores dilation", "target": "ans_my_conv2d",
     "old": "OH, OW = (Hp - dh * (KH - 1) - 1) // sh + 1, (Wp - dw * (KW - 1) - 1) // sw + 1", "new": "OH, OW = (Hp - KH) // sh + 1, (Wp - KW) // sw + 1"},
    {"name": "my_conv2d groups the filters the other way round (filter f in group f % G)", "target": "ans_my_conv2d",
     "old": "w.reshape(1, G, F // G, Cg, 1, 1, KH, KW)", "new": "w.reshape(1, F // G, G, Cg, 1, 1, KH, KW).permute(0, 2, 1, 3, 4, 5, 6, 7)"},
]
