"""Wrong variants of module 09's reference answers: each is a bug a learner plausibly writes, and each must lose points."""
MUTANTS = [
    {"name": "trace_pipeline compiles every call, COPYs included", "target": "ans_trace",
     "old": "kernel_calls = [c for c in schedule.src if c.src[0].op is Ops.SINK]", "new": "kernel_calls = list(schedule.src)"},
    {"name": "trace_pipeline schedules like peek_schedule: the tensors are not rewired, so they are not realized",
     "target": "ans_trace", "old": "schedule, var_vals = tensors[0].linear_with_vars(*tensors[1:])",
     "new": "schedule, var_vals = create_linear_with_vars(transform_to_call(UOp.sink(*[t.uop for t in tensors]))[0])"},
    {"name": "codegen_rule keeps to_program_cache on entry: kernels compiled before skip the rule", "target": "ans_codegen_rule",
     "old": "    to_program_cache.clear()\n    codegen.full_rewrite_to_sink = with_rule", "new": "    codegen.full_rewrite_to_sink = with_rule"},
    {"name": "codegen_rule puts the old entries back without removing the ones compiled with the rule", "target": "ans_codegen_rule",
     "old": "        to_program_cache.clear()\n        to_program_cache.update(set_aside)", "new": "        to_program_cache.update(set_aside)"},
    {"name": "rule_effect measures 'after' without installing the rule", "target": "ans_rule_effect",
     "old": "    with codegen_rule(pm):\n        t_after, k_after, ops_after, after = measure()", "new": "    if pm is not None:\n        t_after, k_after, ops_after, after = measure()"},
    {"name": "LaunchLogger does not empty runtime_cache: kernels loaded before are not logged", "target": "ans_launch_logger",
     "old": "        realize.runtime_cache.clear()\n        Compiled.runtime = logged_runtime", "new": "        Compiled.runtime = logged_runtime"},
    {"name": "LaunchLogger.remove leaves the wrapped programs in runtime_cache (they keep logging)", "target": "ans_launch_logger",
     "old": "        realize.runtime_cache.clear()\n        realize.runtime_cache.update(self._set_aside)", "new": "        realize.runtime_cache.update(self._set_aside)"},
    {"name": "jit_savings takes the kernel time from an eager step, not a replay", "target": "ans_jit_savings",
     "old": "    with LaunchLogger() as log:\n        jitted()", "new": "    with LaunchLogger() as log:\n        step()"},
]
# Written from the docstrings alone, for issue 22 (a stranger's bugs): argument ignored, units and windows of a measurement,
# properties of a structure.
MUTANTS += [
    {"name": "trace_pipeline: 'graph' taken after scheduling (the rewired tensors)", "target": "ans_trace",
     "old": "    graph = UOp.sink(*[t.uop for t in tensors])\n    schedule, var_vals = tensors[0].linear_with_vars(*tensors[1:])\n",
     "new": "    schedule, var_vals = tensors[0].linear_with_vars(*tensors[1:])\n    graph = UOp.sink(*[t.uop for t in tensors])\n"},
    {"name": "trace_pipeline: 'linear' is the optimised SINK's toposort, not the LINEAR", "target": "ans_trace",
     "old": '"linear": [list(p.src[1].src) for p in programs]', "new": '"linear": [list(p.src[0].toposort()) for p in programs]'},
    {"name": "trace_pipeline: launches listed in reverse order", "target": "ans_trace",
     "old": "        launches.append((call.device,", "new": "        launches.insert(0, (call.device,"},
    {"name": "codegen_rule: compiles in worker processes (PARALLEL not set to 0)", "target": "ans_codegen_rule",
     "old": "        with Context(PARALLEL=0):\n            yield", "new": "        if True:\n            yield"},
    {"name": "codegen_rule: the rule applied after the compiler's passes", "target": "ans_codegen_rule",
     "old": 'return original(graph_rewrite(ast, pm, name="codegen_rule"), ren, optimize)',
     "new": 'return graph_rewrite(original(ast, ren, optimize), pm, name="codegen_rule")'},
    {"name": "rule_effect: timed with the wall clock", "target": "ans_rule_effect",
     "old": "median_time(run, warmup, repeats, clock=time.thread_time)", "new": "median_time(run, warmup, repeats, clock=time.perf_counter)"},
    {"name": "rule_effect: warmup and repeats ignored", "target": "ans_rule_effect",
     "old": "median_time(run, warmup, repeats, clock=time.thread_time)", "new": "median_time(run, clock=time.thread_time)"},
    {"name": "rule_effect: the timed calls leave fn() lazy (nothing realized, so nothing timed)", "target": "ans_rule_effect",
     "old": "run = lambda: fn().realize()", "new": "run = lambda: fn()"},
    {"name": "rule_effect: kernels counted over the timing runs too", "target": "ans_rule_effect",
     "old": "        t = median_time(run, warmup, repeats, clock=time.thread_time)\n        GlobalCounters.reset()\n",
     "new": "        GlobalCounters.reset()\n        t = median_time(run, warmup, repeats, clock=time.thread_time)\n"},
    {"name": "LaunchLogger: the program is called with the caller's wait (no time when not asked)", "target": "ans_launch_logger",
     "old": "local_size=local_size, vals=vals, wait=True, **kwargs)", "new": "local_size=local_size, vals=vals, wait=wait, **kwargs)"},
    {"name": "jit_savings: every figure in milliseconds", "target": "ans_jit_savings",
     "old": '    return {"eager": eager, "first": first, "capture": capture, "jit": jit, "kernel": kernel,',
     "new": '    eager, first, capture, jit, kernel = eager * 1e3, first * 1e3, capture * 1e3, jit * 1e3, kernel * 1e3\n    return {"eager": eager, "first": first, "capture": capture, "jit": jit, "kernel": kernel,'},
    {"name": "jit_savings: 'capture' timed from before call 1 (both calls)", "target": "ans_jit_savings",
     "old": "    st = time.perf_counter(); jitted(); first = time.perf_counter() - st\n    st = time.perf_counter(); jitted(); capture = time.perf_counter() - st",
     "new": "    st0 = st = time.perf_counter(); jitted(); first = time.perf_counter() - st\n    jitted(); capture = time.perf_counter() - st0"},
]
# Issue 34 item 3: Task 2.1 also fuses quotients (the learner finds that x / y is MUL by RECIPROCAL); Task 2.4 finds
# the pass that removes an op.
MUTANTS += [
    {"name": "removing_pass: the last pass that still holds the op (one pass early)", "target": "ans_removing_pass",
     "old": "    def watched(sink, *args, name=None, **kwargs):\n        out = original(sink, *args, name=name, **kwargs)\n        if not gone and not any(u.op is op for u in out.toposort()): gone.append(name)\n",
     "new": "    held = [None]\n    def watched(sink, *args, name=None, **kwargs):\n        out = original(sink, *args, name=name, **kwargs)\n        if not gone and not any(u.op is op for u in out.toposort()): gone.append(held[0])\n        held[0] = name\n"},
    {"name": "removing_pass: compiles for the CPU's renderer, not the one given", "target": "ans_removing_pass",
     "old": "        codegen.full_rewrite_to_sink(ast, renderer)", "new": "        codegen.full_rewrite_to_sink(ast, Device[\"CPU\"].renderer)"},
    {"name": "removing_pass: goes through to_program (its cache serves the program: no pass runs, or a new entry stays)", "target": "ans_removing_pass",
     "old": "        codegen.full_rewrite_to_sink(ast, renderer)", "new": "        to_program(ast, renderer)"},
    {"name": "removing_pass: puts graph_rewrite back without finally (passes that raise leave the compiler patched)", "target": "ans_removing_pass",
     "old": "    try:\n        codegen.full_rewrite_to_sink(ast, renderer)\n    finally:\n        codegen.graph_rewrite = original\n",
     "new": "    codegen.full_rewrite_to_sink(ast, renderer)\n    codegen.graph_rewrite = original\n"},
    {"name": "removing_pass: an op absent from the AST gets the first pass's name", "target": "ans_removing_pass",
     "old": "    if not any(u.op is op for u in ast.toposort()): return None\n", "new": ""},
    {"name": "removing_pass: watches tinygrad.uop.ops.graph_rewrite, which the compiler does not call through", "target": "ans_removing_pass",
     "old": "    codegen.graph_rewrite = watched\n    try:\n        codegen.full_rewrite_to_sink(ast, renderer)\n    finally:\n        codegen.graph_rewrite = original\n",
     "new": "    import tinygrad.uop.ops as _ops\n    _ops.graph_rewrite = watched\n    try:\n        codegen.full_rewrite_to_sink(ast, renderer)\n    finally:\n        _ops.graph_rewrite = original\n"},
]
# Issue 46: Task 3.2 fastest_step, the module's engineering problem (choose, by trying, a way to realize a step right with
# the fewest kernels the tests know for its optimizer); Tasks 2.2 and 3.1 checked by what tinygrad does, not by which function is patched.
MUTANTS += [
    {"name": "fastest_step: always one realize of everything (more kernels than needed with momentum)", "target": "ans_step_plans",
     "old": "    for way in (together, grads_first):", "new": "    for way in (together,):"},
    {"name": "fastest_step: the loss first, then the update (the gradients computed twice) as the two-piece way", "target": "ans_step_plans",
     "old": "Tensor.realize(loss, *[p.grad for p in params])   #", "new": "Tensor.realize(loss)   #"},
    {"name": "fastest_step: keeps the way with more kernels", "target": "ans_step_plans",
     "old": "kernels < best[0]", "new": "kernels > best[0]"},
    {"name": "fastest_step: the two-piece way leaves the loss lazy", "target": "ans_step_plans",
     "old": "Tensor.realize(loss, *[p.grad for p in params])   #", "new": "Tensor.realize(*[p.grad for p in params])   #"},
    # Not here: "codegen_rule puts the compiler back without finally". Caught by test_codegen_rule's "sources compiled
    # after a block that raised" (run by hand), but it leaves tinygrad's compiler patched for every later cell of the
    # session, which putting the solution's cell back does not undo: the control then fails (2026-12-03).
    {"name": "codegen_rule: PARALLEL set to 0 for good (not restored after the block)", "target": "ans_codegen_rule",
     "old": "        with Context(PARALLEL=0):\n            yield", "new": "        PARALLEL.value = 0\n        yield"},
    {"name": "LaunchLogger.remove: the cache put back, the wrapped runtime method left in place", "target": "ans_launch_logger",
     "old": "        Compiled.runtime = self._original\n", "new": ""},
]
# Issue 34 item 3, sixth round: Task 4.1 also finds after how many steps the JIT has paid for itself (graded exactly on
# scripted times), and may measure the plain step before or after the JIT.
MUTANTS += [
    {"name": "jit_savings: payoff only where the JIT costs strictly less (a tie does not pay)", "target": "ans_jit_savings",
     "old": "        if cost(n) <= n * eager: payoff = n", "new": "        if cost(n) < n * eager: payoff = n"},
    {"name": "jit_savings: payoff counts a replay from call 2 on (the capture not paid for)", "target": "ans_jit_savings",
     "old": "max(n - 2, 0) * jit    # n calls of jitted", "new": "max(n - 1, 0) * jit    # n calls of jitted"},
    {"name": "jit_savings: payoff charges the capture to call 1 as well", "target": "ans_jit_savings",
     "old": "(capture if n > 1 else 0.0)", "new": "capture"},
    {"name": "jit_savings: payoff gives up at once when a replay is no faster (calls 1 and 2 never tried)", "target": "ans_jit_savings",
     "old": "    while payoff is None and (n <= 2 or jit < eager):", "new": "    while payoff is None and jit < eager:"},
    {"name": "jit_savings: payoff counted in replays, not steps", "target": "ans_jit_savings",
     "old": "        if cost(n) <= n * eager: payoff = n", "new": "        if cost(n) <= n * eager: payoff = n - 2"},
    {"name": "jit_savings: replays timed before calls 1 and 2 are timed (median_time's warm-up runs them)", "target": "ans_jit_savings",
     "old": "    st = time.perf_counter(); jitted(); first = time.perf_counter() - st\n    st = time.perf_counter(); jitted(); capture = time.perf_counter() - st\n    jit = median_time(jitted, warmup, repeats)\n",
     "new": "    jit = median_time(jitted, warmup, repeats)\n    st = time.perf_counter(); jitted(); first = time.perf_counter() - st\n    st = time.perf_counter(); jitted(); capture = time.perf_counter() - st\n"},
]

# Issue 43 item 2: rule_effect's saving graded as a count, the FLOPs of one realize before and after (the speed-up shown)
MUTANTS += [
    {"name": "rule_effect: memory traffic (global_mem) reported as the FLOPs", "target": "ans_rule_effect",
     "old": "return t, GlobalCounters.kernel_count, GlobalCounters.global_ops, out.numpy()",
     "new": "return t, GlobalCounters.kernel_count, GlobalCounters.global_mem, out.numpy()"},
    {"name": "rule_effect: the FLOPs read before the last realize (what the timing runs left)", "target": "ans_rule_effect",
     "old": "        GlobalCounters.reset()\n        out = fn().realize()\n        return t, GlobalCounters.kernel_count, GlobalCounters.global_ops, out.numpy()",
     "new": "        ops = GlobalCounters.global_ops\n        GlobalCounters.reset()\n        out = fn().realize()\n        return t, GlobalCounters.kernel_count, ops, out.numpy()"},
    {"name": "rule_effect: ops_before and ops_after swapped", "target": "ans_rule_effect",
     "old": '"ops_before": ops_before, "ops_after": ops_after', "new": '"ops_before": ops_after, "ops_after": ops_before'},
]

# Issue 46, second rewrite: Task 2.3's check that the rule is in place (and gone) is by what tinygrad compiles, not by
# which function is bound (the set-up cell no longer names the patch target); Task 4.1's docstring states the figures,
# not the calls.
MUTANTS += [
    {"name": "rule_effect: the rule installed for both measurements ('before' inside codegen_rule too)", "target": "ans_rule_effect",
     "old": "    t_before, k_before, ops_before, before = measure()\n    with codegen_rule(pm):\n        t_after, k_after, ops_after, after = measure()",
     "new": "    with codegen_rule(pm):\n        t_before, k_before, ops_before, before = measure()\n        t_after, k_after, ops_after, after = measure()"},
    {"name": "rule_effect: 'after' measured once the block has ended (the rule gone)", "target": "ans_rule_effect",
     "old": "    with codegen_rule(pm):\n        t_after, k_after, ops_after, after = measure()",
     "new": "    with codegen_rule(pm):\n        pass\n    t_after, k_after, ops_after, after = measure()"},
    {"name": "jit_savings: overhead_jit as eager - jit (the saving, not the replay's overhead)", "target": "ans_jit_savings",
     "old": '"overhead_jit": jit - kernel', "new": '"overhead_jit": eager - jit'},
    {"name": "jit_savings: speedup as jit / eager", "target": "ans_jit_savings",
     "old": '"speedup": eager / jit', "new": '"speedup": jit / eager'},
    {"name": "jit_savings: kernels and kernel time logged over all the timed replays, not one", "target": "ans_jit_savings",
     "old": "    jit = median_time(jitted, warmup, repeats)\n    with LaunchLogger() as log:\n        jitted()\n",
     "new": "    with LaunchLogger() as log:\n        jit = median_time(jitted, warmup, repeats)\n"},
    {"name": "jit_savings: the plain step timed with median_time's own warmup and repeats", "target": "ans_jit_savings",
     "old": "    eager = median_time(step, warmup, repeats)", "new": "    eager = median_time(step)"},
]
# Issue 46, second rewrite: Task 1.1 also says which of the tensors each kernel computes ("writes"), which no line of
# tinygrad's source holds: the learner finds how a kernel call meets the rewired tensors.
MUTANTS += [
    {"name": "trace_pipeline: writes compares the tensor's UOp, not its base (a view's tensor missed)", "target": "ans_trace",
     "old": "t.uop.base is c.src[1]]", "new": "t.uop is c.src[1]]"},
    {"name": "trace_pipeline: writes lists every tensor whose buffer the kernel touches (its inputs too)", "target": "ans_trace",
     "old": "t.uop.base is c.src[1]]", "new": "t.uop.base in c.src[1:]]"},
    {"name": "trace_pipeline: writes keeps only the first tensor of each kernel", "target": "ans_trace",
     "old": "t.uop.base is c.src[1]] for c in kernel_calls]", "new": "t.uop.base is c.src[1]][:1] for c in kernel_calls]"},
    {"name": "trace_pipeline: writes taken before the schedule (the tensors not rewired yet: every list empty)", "target": "ans_trace",
     "old": "    schedule, var_vals = tensors[0].linear_with_vars(*tensors[1:])\n    kernel_calls = [c for c in schedule.src if c.src[0].op is Ops.SINK]\n    asts = [c.src[0] for c in kernel_calls]\n    writes = [[i for i, t in enumerate(tensors) if t.uop.base is c.src[1]] for c in kernel_calls]",
     "new": "    pre = [t.uop.base for t in tensors]\n    schedule, var_vals = tensors[0].linear_with_vars(*tensors[1:])\n    kernel_calls = [c for c in schedule.src if c.src[0].op is Ops.SINK]\n    asts = [c.src[0] for c in kernel_calls]\n    writes = [[i for i, t in enumerate(pre) if t is c.src[1]] for c in kernel_calls]"},
    {"name": "trace_pipeline: writes numbered from 1", "target": "ans_trace",
     "old": "[[i for i, t in enumerate(tensors) if", "new": "[[i + 1 for i, t in enumerate(tensors) if"},
]
# Issue 46, third rewrite: Task 4.1's docstring defines the payoff by its outcome (what n steps cost each way is the
# learner's to work out); Task 2.3's names no call; Task 2.4's answer is the first pass that removes the op, also when a
# later pass builds it again (a visible case); Task 3.2's bound is the reference's count, sealed, with a count in the open.
MUTANTS += [
    {"name": "jit_savings: payoff costs call 1 as a plain step (eager), not as the time measured for it", "target": "ans_jit_savings",
     "old": "    def cost(n): return first + (capture", "new": "    def cost(n): return eager + (capture"},
    {"name": "jit_savings: payoff from a rounded-up break-even formula, calls 1 and 2 not tried on their own", "target": "ans_jit_savings",
     "old": "    payoff, n = None, 1\n", "new": "    import math\n    payoff, n = (max(1, math.ceil((first + capture - 2 * jit) / (eager - jit))) if jit < eager else None), 10**9\n"},
    {"name": "rule_effect: timed with the process's CPU time (time.process_time), not the thread's", "target": "ans_rule_effect",
     "old": "clock=time.thread_time)", "new": "clock=time.process_time)"},
    {"name": "removing_pass: the pass after which the op is gone for good (a later pass that builds it again resets the answer)", "target": "ans_removing_pass",
     "old": "        if not gone and not any(u.op is op for u in out.toposort()): gone.append(name)\n",
     "new": "        if any(u.op is op for u in out.toposort()): gone.clear()\n        elif not gone: gone.append(name)\n"},
]
# Issue 46, third rewrite: Task 2.1 fuses all the exp2 factors of a product however it is grouped (one rule whose
# function walks the product), not two fixed shapes.
MUTANTS += [
    {"name": "exp fusion multiplies the exponents", "target": "ans_exp_fusion",
     "old": "ex = a if ex is None else ex + a", "new": "ex = a if ex is None else ex * a"},
    {"name": "exp fusion adds the exponents of the divisors", "target": "ans_exp_fusion",
     "old": "        for b in down: ex = -b if ex is None else ex - b", "new": "        for b in down: ex = b if ex is None else ex + b"},
    {"name": "exp fusion: a divisor's exponent subtracted the wrong way round when it comes first", "target": "ans_exp_fusion",
     "old": "ex = -b if ex is None else ex - b", "new": "ex = b if ex is None else ex - b"},
    {"name": "exp fusion: only the two operands of one MUL (no factor in between: the old two-shape rule)", "target": "ans_exp_fusion",
     "old": "            if u.op is Ops.MUL: stack += [(s, sign) for s in reversed(u.src)]",
     "new": "            if u.op is Ops.MUL and u is m: stack += [(s, sign) for s in reversed(u.src)]"},
    {"name": "exp fusion: quotients not opened (a RECIPROCAL is an other factor)", "target": "ans_exp_fusion",
     "old": "            elif u.op is Ops.RECIPROCAL: stack.append((u.src[0], -sign))\n", "new": ""},
    {"name": "exp fusion: the quotient looked for as an FDIV node (tinygrad builds x / y as x * reciprocal(y))", "target": "ans_exp_fusion",
     "old": "elif u.op is Ops.RECIPROCAL:", "new": "elif u.op is Ops.FDIV:"},
    {"name": "exp fusion: only a divisor that is itself an exp2 (a divided product not opened)", "target": "ans_exp_fusion",
     "old": "            elif u.op is Ops.RECIPROCAL: stack.append((u.src[0], -sign))",
     "new": "            elif u.op is Ops.RECIPROCAL and u.src[0].op is Ops.EXP2: stack.append((u.src[0], -sign))"},
    {"name": "exp fusion: the other factors dropped", "target": "ans_exp_fusion",
     "old": "        for r, sign in rest: out = out * (r if sign > 0 else r.reciprocal())\n", "new": ""},
    {"name": "exp fusion: a divided other factor multiplied", "target": "ans_exp_fusion",
     "old": "(r if sign > 0 else r.reciprocal())", "new": "r"},
    {"name": "exp fusion: rebuilds a product with a single exp2 too (not the very same UOp)", "target": "ans_exp_fusion",
     "old": "if len(up) + len(down) < 2: return None", "new": "if len(up) + len(down) < 1: return None"},
    {"name": "exp fusion: only the multiplied exp2 fused (divisors left as they are)", "target": "ans_exp_fusion",
     "old": "            elif u.op is Ops.EXP2: (up if sign > 0 else down).append(u.src[0])\n            else: rest.append((u, sign))",
     "new": "            elif u.op is Ops.EXP2 and sign > 0: up.append(u.src[0])\n            else: rest.append((u, sign))"},
    {"name": "exp fusion: also walks into sums (exp2 factors of a sum's terms fused: a wrong value)", "target": "ans_exp_fusion",
     "old": "            if u.op is Ops.MUL: stack", "new": "            if u.op in (Ops.MUL, Ops.ADD): stack"},
]
