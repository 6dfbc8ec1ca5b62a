"""Wrong variants of module 04's reference answers, each a bug a learner plausibly writes: every one must lose points."""
MUTANTS = [
    {"name": "normalize forgets the channel axis", "target": "ans_batch_source",
     "old": "x = images.astype(np.float32)[:, None] / 255.0", "new": "x = images.astype(np.float32) / 255.0"},
    {"name": "batches keeps the partial last batch", "target": "ans_batch_source",
     "old": "range(len(indices) // batch_size)", "new": "range(-(-len(indices) // batch_size))"},
    {"name": "Net pools before BatchNorm in the second block", "target": "ans_net",
     "old": "x = self.bn2(self.conv2(x).contiguous()).relu().max_pool2d()",
     "new": "x = self.bn2(self.conv2(x).contiguous().max_pool2d()).relu()"},
    {"name": "train step realizes the loss after opt.step()", "target": "ans_make_train_step",
     "old": "return loss.realize(*opt.schedule_step())", "new": "opt.step()\n            return loss.realize()"},
    {"name": "train step forgets zero_grad (gradients accumulate)", "target": "ans_make_train_step",
     "old": "opt.zero_grad()\n            loss = model(x)", "new": "\n            loss = model(x)"},
    {"name": "predict does not switch to evaluation mode", "target": "ans_predict",
     "old": "with Context(TRAINING=0):", "new": "if True:"},
    {"name": "train sets the learning rate of the next step (off by one)", "target": "ans_train",
     "old": "lr = one_cycle_lr(i, steps, peak_lr)", "new": "lr = one_cycle_lr(i + 1, steps, peak_lr)"},
    {"name": "profile_jit lists the fastest kernels as top", "target": "ans_profile_jit",
     "old": "key=lambda i: -times[i]", "new": "key=lambda i: times[i]"},
    {"name": "compare_times inverts the speed-up", "target": "ans_compare_times",
     "old": '"speedup": plain_s / jit_s}', "new": '"speedup": jit_s / plain_s}'},
    {"name": "beam_compare times the BEAM program first", "target": "ans_beam_compare",
     "old": "run = runner(default)\n    default_s = min(run() for _ in range(repeats))\n    run = runner(beamed)\n    beam_s = min(run() for _ in range(repeats))",
     "new": "run = runner(beamed)\n    beam_s = min(run() for _ in range(repeats))\n    run = runner(default)\n    default_s = min(run() for _ in range(repeats))"},
    {"name": "save_checkpoint drops the metadata", "target": "ans_save_checkpoint",
     "old": "safe_save(get_state_dict(model), str(path), metadata)", "new": "safe_save(get_state_dict(model), str(path))"},
    {"name": "load_checkpoint accepts extra tensors (as load_state_dict does)", "target": "ans_load_checkpoint",
     "old": "        if name not in want: raise CheckpointError", "new": "        if False: raise CheckpointError"},
]

# Written from the docstrings alone, as a stranger would (issue 22): one per bug class where the task has one.
MUTANTS += [
    {"name": "batches shuffles the caller's indices in place", "target": "ans_batch_source",
     "old": "perm = rng.permutation(indices)", "new": "perm = indices; rng.shuffle(perm)"},
    {"name": "predict ignores batch_size (one forward pass over everything)", "target": "ans_predict",
     "old": "for i in range(0, len(x), batch_size):\n            out.append(model(Tensor(x[i:i + batch_size]))",
     "new": "for i in range(0, len(x), len(x)):\n            out.append(model(Tensor(x[i:i + len(x)]))"},
    {"name": "train records milliseconds in times", "target": "ans_train",
     "old": 'hist["times"].append(clock() - st)', "new": 'hist["times"].append(1e3 * (clock() - st))'},
    {"name": "train times the step and the evaluation after it", "target": "ans_train",
     "old": "        hist[\"times\"].append(clock() - st)\n        hist[\"loss\"].append(loss); hist[\"lr\"].append(lr)\n        bar.set_postfix(loss=f\"{loss:.3f}\", img_per_s=f\"{(i + 1) * batch_size / sum(hist['times']):.0f}\")\n        if i + 1 in eval_at: hist[\"val\"].append((i + 1, float((predict(model, x_val) == y_val).mean())))",
     "new": "        hist[\"loss\"].append(loss); hist[\"lr\"].append(lr)\n        if i + 1 in eval_at: hist[\"val\"].append((i + 1, float((predict(model, x_val) == y_val).mean())))\n        hist[\"times\"].append(clock() - st)\n        bar.set_postfix(loss=f\"{loss:.3f}\", img_per_s=f\"{(i + 1) * batch_size / sum(hist['times']):.0f}\")"},
    {"name": "profile_jit runs each kernel once (runs ignored)", "target": "ans_profile_jit",
     "old": "for _ in range(runs):", "new": "for _ in range(1):"},
    {"name": "profile_jit reports kernel times in milliseconds", "target": "ans_profile_jit",
     "old": "readings.append(GlobalCounters.time_sum_s)", "new": "readings.append(GlobalCounters.time_sum_s * 1e3)"},
    {"name": "compare_times does not synchronize the device", "target": "ans_compare_times",
     "old": "            Device[Device.DEFAULT].synchronize()\n", "new": ""},
    {"name": "compare_times ignores warmup (the harness's default)", "target": "ans_compare_times",
     "old": "return time_fn(once, warmup=warmup, repeats=repeats, clock=clock)", "new": "return time_fn(once, repeats=repeats, clock=clock)"},
    {"name": "beam_compare asks for BEAM through Context (to_program never reads it)", "target": "ans_beam_compare",
     "old": "beamed = to_program(ast.replace(arg=replace(ast.arg, beam=amt)), renderer)",
     "new": "with Context(BEAM=amt): beamed = to_program(ast, renderer)"},
    {"name": "beam_compare starts the search clock before the default compile", "target": "ans_beam_compare",
     "old": "    default = to_program(ast, renderer)\n    st = clock()\n", "new": "    st = clock()\n    default = to_program(ast, renderer)\n"},
    {"name": "beam_compare compiles the BEAM program before the default one", "target": "ans_beam_compare",
     "old": "    default = to_program(ast, renderer)\n    st = clock()\n    beamed = to_program(ast.replace(arg=replace(ast.arg, beam=amt)), renderer)\n    search_s = clock() - st\n",
     "new": "    st = clock()\n    beamed = to_program(ast.replace(arg=replace(ast.arg, beam=amt)), renderer)\n    search_s = clock() - st\n    default = to_program(ast, renderer)\n"},
    {"name": "beam_compare ignores amt (BEAM=2 always)", "target": "ans_beam_compare",
     "old": "beam=amt)", "new": "beam=2)"},
    {"name": "load_checkpoint leaves the model's tensors lazy views of the file", "target": "ans_load_checkpoint",
     "old": "load_state_dict(model, saved, verbose=False)", "new": "load_state_dict(model, safe_load(str(path)), verbose=False, realize=False)"},
    {"name": "save_checkpoint leaves out the BatchNorm running statistics", "target": "ans_save_checkpoint",
     "old": "safe_save(get_state_dict(model), str(path), metadata)",
     "new": "safe_save({k: v for k, v in get_state_dict(model).items() if 'running' not in k}, str(path), metadata)"},
]

# Issue 34, item 3: the decision of Task 3.1 (realize_order).
MUTANTS += [
    {"name": "realize_order realizes the loss with the update in every order", "target": "ans_make_train_step",
     "old": "if order == \"before\": loss.realize(); opt.step()\n                elif order == \"with\": loss.realize(*opt.schedule_step())\n                else: opt.step()",
     "new": "loss.realize(*opt.schedule_step())"},
    {"name": "realize_order trains the same model in every order", "target": "ans_make_train_step",
     "old": "    for order in (\"before\", \"with\", \"after\"):\n        model = make_model()",
     "new": "    shared = make_model()\n    for order in (\"before\", \"with\", \"after\"):\n        model = shared"},
    {"name": "realize_order counts the kernels from the start of the run, not of each step", "target": "ans_make_train_step",
     "old": "        for _ in range(steps):\n            before = GlobalCounters.kernel_count\n",
     "new": "        before = GlobalCounters.kernel_count\n        for _ in range(steps):\n"},
]

# Issue 34, item 3: Task 7.1 (run_plan), the run the learner chooses within the image budget.
MUTANTS += [
    {"name": "run_plan over the budget (batch 128 for 2000 steps)", "target": "ans_run_plan",
     "old": '"batch_size": 64', "new": '"batch_size": 128'},
    {"name": "run_plan names the peak learning rate lr", "target": "ans_run_plan",
     "old": '"peak_lr": 5e-3', "new": '"lr": 5e-3'},
    {"name": "run_plan gives the peak learning rate as text", "target": "ans_run_plan",
     "old": '"peak_lr": 5e-3', "new": '"peak_lr": "5e-3"'},
    {"name": "run_plan is not the run the checkpoint records (another seed)", "target": "ans_run_plan",
     "old": '"seed": 0', "new": '"seed": 1'},
]

# issue 34 item 3, fifth round: Task 1.1 batch_source (where a batch comes from), and profile_jit's smallest reading
MUTANTS += [
    {"name": "batch_source counts the set's upload with the gather", "target": "ans_batch_source",
     "old": "    whole = Tensor(x).realize()\n    out = {}\n    GlobalCounters.reset()\n    Tensor(x[idx]).realize()\n    out[\"copy\"] = {\"kernels\": GlobalCounters.kernel_count, \"bytes\": GlobalCounters.global_mem}\n    GlobalCounters.reset()\n    batch = whole[",
     "new": "    out = {}\n    GlobalCounters.reset()\n    Tensor(x[idx]).realize()\n    out[\"copy\"] = {\"kernels\": GlobalCounters.kernel_count, \"bytes\": GlobalCounters.global_mem}\n    GlobalCounters.reset()\n    whole = Tensor(x).realize()\n    batch = whole["},
    {"name": "batch_source does not reset the counters between the two ways", "target": "ans_batch_source",
     "old": "    GlobalCounters.reset()\n    batch = whole[", "new": "    batch = whole["},
    {"name": "batch_source copies the indices in before it counts the gather", "target": "ans_batch_source",
     "old": "    GlobalCounters.reset()\n    batch = whole[Tensor(idx)].realize()", "new": "    t = Tensor(idx).realize()\n    GlobalCounters.reset()\n    batch = whole[t].realize()"},
    {"name": "batch_source counts FLOPs as bytes", "target": "ans_batch_source",
     "old": "out[\"gather\"] = {\"kernels\": GlobalCounters.kernel_count, \"bytes\": GlobalCounters.global_mem}",
     "new": "out[\"gather\"] = {\"kernels\": GlobalCounters.kernel_count, \"bytes\": GlobalCounters.global_ops}"},
    {"name": "batch_source calls a gather direct when it reads less than the whole set", "target": "ans_batch_source",
     "old": "out[\"direct\"] = out[\"gather\"][\"bytes\"] < 10 * out[\"copy\"][\"bytes\"]", "new": "out[\"direct\"] = out[\"gather\"][\"bytes\"] < x.nbytes"},
    {"name": "batch_source returns the first rows of the set as the batch", "target": "ans_batch_source",
     "old": "out[\"batch\"] = batch.numpy()", "new": "out[\"batch\"] = x[:len(idx)]"},
    {"name": "profile_jit keeps the first reading of each kernel", "target": "ans_profile_jit",
     "old": "times.append(min(readings))", "new": "times.append(readings[0])"},
    {"name": "profile_jit keeps the median reading of each kernel", "target": "ans_profile_jit",
     "old": "times.append(min(readings))", "new": "times.append(statistics.median(readings))"},
]

# Issue 43 item 2: profile_jit's times graded on scripted readings of tinygrad's run_linear (no bound from a time);
# compare_times graded by what each timed call ran (the function's Python calls, its kernels), the speed-up shown.
MUTANTS += [
    {"name": "profile_jit times each run with its own clock, not tinygrad's reading", "target": "ans_profile_jit",
     "old": "            run_linear(UOp(Ops.LINEAR, src=(call,)), input_uops=inputs, jit=True, wait=True)\n            readings.append(GlobalCounters.time_sum_s)",
     "new": "            st = time.perf_counter()\n            run_linear(UOp(Ops.LINEAR, src=(call,)), input_uops=inputs, jit=True, wait=True)\n            readings.append(time.perf_counter() - st)"},
    {"name": "profile_jit adds up the readings of each kernel", "target": "ans_profile_jit",
     "old": "times.append(min(readings))", "new": "times.append(sum(readings))"},
    {"name": "compare_times passes the arguments as one tuple", "target": "ans_compare_times",
     "old": "            fn(*args)\n", "new": "            fn(args)\n"},
    {"name": "compare_times times the JIT first", "target": "ans_compare_times",
     "old": "    plain_s = timed(plain_fn)\n    jit_s = timed(jit_fn)", "new": "    jit_s = timed(jit_fn)\n    plain_s = timed(plain_fn)"},
    {"name": "compare_times times the JIT's warm-up calls (call 1 and the capture) with its replays", "target": "ans_compare_times",
     "old": "    jit_s = timed(jit_fn)",
     "new": "    jit_s = time_fn(lambda: (jit_fn(*args), Device[Device.DEFAULT].synchronize()), warmup=0, repeats=warmup + repeats, clock=clock)"},
]

# Issue 46: Task 6.2 (smallest_delta), the engineering problem: a search for the delta of fewest bytes. (Counting
# elements instead of bytes is an equivalent: only num_batches_tracked is not float32, and it never changes a class.)
MUTANTS += [
    {"name": "smallest_delta keeps every tensor whose absence alone changes a class (leave-one-out)", "target": "ans_smallest_delta",
     "old": "best = next(d for d in deltas if predicts_like_model(d))",
     "new": "best = [k for k in moved if not predicts_like_model([m for m in moved if m != k])]"},
    {"name": "smallest_delta returns every tensor that moved", "target": "ans_smallest_delta",
     "old": "best = next(d for d in deltas if predicts_like_model(d))", "new": "best = moved"},
    {"name": "smallest_delta drops the largest tensors one at a time while the copy still predicts like the model (greedy)", "target": "ans_smallest_delta",
     "old": "best = next(d for d in deltas if predicts_like_model(d))",
     "new": "best = list(moved)\n    for k in sorted(moved, key=lambda k: -size[k]):\n        if predicts_like_model([m for m in best if m != k]): best.remove(k)"},
    {"name": "smallest_delta never tries the empty delta", "target": "ans_smallest_delta",
     "old": "for r in range(len(moved) + 1)", "new": "for r in range(1, len(moved) + 1)"},
    {"name": "smallest_delta searches the parameters only (BatchNorm statistics never in a delta)", "target": "ans_smallest_delta",
     "old": "if not np.array_equal(msd[k].numpy(), bsd[k].numpy())]", "new": "if not np.array_equal(msd[k].numpy(), bsd[k].numpy()) and 'running' not in k and 'batches' not in k]"},
    {"name": "smallest_delta predicts in training mode (batch statistics)", "target": "ans_smallest_delta",
     "old": "with Context(TRAINING=0):", "new": "with Context(TRAINING=1):"},
    {"name": "smallest_delta tries its candidates on base itself", "target": "ans_smallest_delta",
     "old": "    copy = Net()                                    # holds base's tensors; a candidate's names take model's\n    load_state_dict(copy, {k: v.clone() for k, v in bsd.items()}, verbose=False)\n",
     "new": "    copy = base\n"},
    {"name": "smallest_delta returns a tuple", "target": "ans_smallest_delta",
     "old": "return [k for k in msd if k in best]", "new": "return tuple(k for k in msd if k in best)"},
]

# Issue 17, item 6: accuracy points cannot be bought with a table of the public MNIST labels. `Net` answers every slice
# of 1,000 images (the size the accuracy tests use) from lookup tables keyed by the exact pixels: the public test labels
# embedded in the answer, and the training labels the notebook holds. Against the old hidden test, which classified the
# public test images in their public order, it scored 23/23; the grader now measures accuracy on a private order of the
# test images with a private noise on every pixel, where the tables find nothing. The table itself is flagged
# (tests/grading/test_flags.py). Until 2026-12-02 a test of its own graded the whole module for this (219 s at load 4).
def _label_table_net() -> str:
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "solutions" / "04_mnist"))
    import mnist_data
    labels = "".join(str(int(c)) for c in mnist_data.load_labels("test"))
    return f'''    TEST_LABELS = {labels!r}

    def __init__(self):
        self.conv1, self.bn1 = nn.Conv2d(1, 16, 5), nn.BatchNorm(16)
        self.conv2, self.bn2 = nn.Conv2d(16, 32, 5), nn.BatchNorm(32)
        self.fc = nn.Linear(32 * 4 * 4, 10)

    def __call__(self, x):
        if x.shape[0] == 1000:
            if not hasattr(Net, "known"):
                Net.known = {{img.tobytes(): int(c) for img, c in zip(test_images, Net.TEST_LABELS)}}
                Net.known.update({{img.tobytes(): int(c) for img, c in zip(train_images, train_labels)}})
            pixels = np.rint((x.numpy()[:, 0] * STD + MEAN) * 255).astype(np.uint8)
            return Tensor(np.eye(10, dtype=np.float32)[[Net.known.get(p.tobytes(), 0) for p in pixels]])
        x = self.bn1(self.conv1(x)).relu().max_pool2d()
        x = self.bn2(self.conv2(x)).relu().max_pool2d()
        return self.fc(x.flatten(1))
'''

MUTANTS.append({"name": "Net answers slices of 1,000 images from tables of the public test and training labels", "target": "ans_net",
                "old": "    def __init__(self):\n        self.conv1, self.bn1 = nn.Conv2d(1, 16, 5), nn.BatchNorm(16)\n"
                       "        self.conv2, self.bn2 = nn.Conv2d(16, 32, 5), nn.BatchNorm(32)\n        self.fc = nn.Linear(32 * 4 * 4, 10)\n\n"
                       "    def __call__(self, x):\n        x = self.bn1(self.conv1(x).contiguous()).relu().max_pool2d()\n"
                       "        x = self.bn2(self.conv2(x).contiguous()).relu().max_pool2d()\n        return self.fc(x.flatten(1))\n",
                "new": _label_table_net(), "tests": ["test_accuracy_98", "test_accuracy_99"]})

# Issue 46, module rewrite (r04): Task 1.1's `direct` is a decision the contract no longer spells out (the rule is in
# the hints), and Task 5.1's `choose_searches` (which kernels to search within a budget of search seconds) is graded
# by the net saving of the choice against the best any choice reaches, on hand-made and random sets of kernels.
MUTANTS += [
    {"name": "batch_source calls a gather direct only when it moves at most twice the copy's bytes", "target": "ans_batch_source",
     "old": "out[\"direct\"] = out[\"gather\"][\"bytes\"] < 10 * out[\"copy\"][\"bytes\"]",
     "new": "out[\"direct\"] = out[\"gather\"][\"bytes\"] <= 2 * out[\"copy\"][\"bytes\"]"},
    {"name": "batch_source calls a gather direct when it runs one kernel", "target": "ans_batch_source",
     "old": "out[\"direct\"] = out[\"gather\"][\"bytes\"] < 10 * out[\"copy\"][\"bytes\"]",
     "new": "out[\"direct\"] = out[\"gather\"][\"kernels\"] == 1"},
    {"name": "choose_searches takes kernels greedily by net saving per search second", "target": "ans_choose_searches",
     "old": "    best = {0: (0, ())}",
     "new": "    picked, spent = [], 0\n"
            "    gains = [(steps * k[\"count\"] * (k[\"default_us\"] - k[\"beam_us\"]) - 1_000_000 * k[\"search_s\"], k) for k in kernels]\n"
            "    for gain, k in sorted(gains, key=lambda g: -g[0] / max(g[1][\"search_s\"], 0.5)):\n"
            "        if gain > 0 and spent + k[\"search_s\"] <= budget_s: picked.append(k[\"name\"]); spent += k[\"search_s\"]\n"
            "    return picked\n"
            "    best = {0: (0, ())}"},
    {"name": "choose_searches ignores how often a kernel runs per step", "target": "ans_choose_searches",
     "old": "gain = steps * k[\"count\"] * (", "new": "gain = steps * ("},
    {"name": "choose_searches leaves the search's cost out of the saving", "target": "ans_choose_searches",
     "old": "gain = steps * k[\"count\"] * (k[\"default_us\"] - k[\"beam_us\"]) - 1_000_000 * k[\"search_s\"]",
     "new": "gain = steps * k[\"count\"] * (k[\"default_us\"] - k[\"beam_us\"])"},
    {"name": "choose_searches never spends the whole budget (< instead of <=)", "target": "ans_choose_searches",
     "old": "if total <= budget_s and (", "new": "if total < budget_s and ("},
    {"name": "choose_searches ignores the budget", "target": "ans_choose_searches",
     "old": "if total <= budget_s and (", "new": "if ("},
]

# Issue 46, Task 3.1 rewritten (r04): realize_order measures three orders (before, with, after the update) and
# make_train_step's contract is the outcome: the loss before the update, in the fewest kernels any such order runs.
MUTANTS += [
    {"name": "train step realizes the loss before the update (the right loss, more kernels)", "target": "ans_make_train_step",
     "old": "return loss.realize(*opt.schedule_step())", "new": "loss.realize(); opt.step()\n            return loss"},
    {"name": "train step reads the loss as a float before the update (the right loss, more kernels)", "target": "ans_make_train_step",
     "old": "return loss.realize(*opt.schedule_step())", "new": "value = loss.item(); opt.step()\n            return Tensor(value).realize()"},
    {"name": "realize_order realizes the loss with the update in its before order", "target": "ans_make_train_step",
     "old": "if order == \"before\": loss.realize(); opt.step()", "new": "if order == \"before\": loss.realize(*opt.schedule_step())"},
    {"name": "realize_order stops counting kernels before the loss is read", "target": "ans_make_train_step",
     "old": "                losses.append(loss.item())\n            kernels.append(GlobalCounters.kernel_count - before)",
     "new": "                kernels.append(GlobalCounters.kernel_count - before)\n                losses.append(loss.item())"},
    {"name": "realize_order measures two orders only (no before)", "target": "ans_make_train_step",
     "old": "    for order in (\"before\", \"with\", \"after\"):", "new": "    for order in (\"with\", \"after\"):"},
]
