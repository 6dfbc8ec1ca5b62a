"""Wrong variants of module 03's reference answers, each a bug a learner plausibly writes (format: course/authoring.md).
Each must lose points when graded."""

MUTANTS = [
    # Task 1b: .backward() accumulates into an existing .grad
    {"name": "grads_by_backward keeps a stale .grad (adds to it)", "target": "ans_grads_api",
     "old": "    for t in tensors: t.grad = None\n", "new": ""},
    # Task 1b: backward() leaves .grad None for a tensor f does not use
    {"name": "grads_by_backward returns None for an unused input", "target": "ans_grads_api",
     "old": "return [t.grad if t.grad is not None else Tensor.zeros_like(t) for t in tensors]",
     "new": "return [t.grad for t in tensors]"},
    # Task 1b: the .grad clearing copied from grads_by_backward into the functional helper
    {"name": "grads_functional clears the tensors' .grad", "target": "ans_grads_api",
     "old": "    return f(*tensors).gradient(*tensors)",
     "new": "    for t in tensors: t.grad = None\n    return f(*tensors).gradient(*tensors)"},
    # Task 1c: the rule has four parts; the device one is forgotten
    {"name": "predict_has_grad ignores the device (device-less constants)", "target": "ans_predict_has_grad",
     "old": "t.is_floating_point() and t.device is not None and", "new": "t.is_floating_point() and"},
    # Task 1c: "floating point" read as float32
    {"name": "predict_has_grad takes float32 for floating point (misses half)", "target": "ans_predict_has_grad",
     "old": "t.is_floating_point()", "new": "t.dtype == dtypes.float32"},
    # Task 2: an argument ignored
    {"name": "train_xor ignores jit=False (always TinyJit)", "target": "ans_train_xor",
     "old": "run = TinyJit(step) if jit else step", "new": "run = TinyJit(step)"},
    {"name": "train_xor ignores seed", "target": "ans_train_xor",
     "old": "    Tensor.manual_seed(seed)\n", "new": "    Tensor.manual_seed(0)\n"},
    # Task 2: the lazy-loss trap, parameters left unrealized: records L0, L2, L3, ... (losses[0] is right)
    {"name": "train_xor reads the loss after opt.step() (lazy-loss trap, parameters not realized first)", "target": "ans_train_xor",
     "old": "    Tensor.realize(X, Y, *get_parameters(opt))      # parameters and Adam's state: step 1 and 2 build the same kernels\n\n"
            "    def step() -> Tensor:\n        opt.zero_grad()\n        loss = model(X).binary_crossentropy_logits(Y).backward()\n"
            "        return loss.realize(*opt.schedule_step())",
     "new": "    def step() -> Tensor:\n        opt.zero_grad()\n        loss = model(X).binary_crossentropy_logits(Y).backward()\n"
            "        opt.step()\n        return loss"},
    # Task 3: axis=-1 compared with the non-negative axis indices
    {"name": "sum_backward does not normalise a negative axis", "target": "ans_backward_rules",
     "old": "    axes = reduced_axes(axis, a.ndim)\n    kept = tuple(1 if i in axes else s for i, s in enumerate(a.shape))\n    return grad_out.reshape(kept).expand(a.shape)",
     "new": "    axes = tuple(range(a.ndim)) if axis is None else (axis,) if isinstance(axis, int) else tuple(axis)\n    kept = tuple(1 if i in axes else s for i, s in enumerate(a.shape))\n    return grad_out.reshape(kept).expand(a.shape)"},
    # Task 4a: a copy, but in x's own dtype: an integer x truncates x + eps
    {"name": "numerical_grad keeps an integer x's dtype", "target": "ans_numerical_grad",
     "old": "x = np.array(x, dtype=np.float64)", "new": "x = np.array(x, copy=True)"},
    # Task 4a: perturbs the caller's array in place and restores it by arithmetic (rounding changes it)
    {"name": "numerical_grad perturbs the caller's array in place", "target": "ans_numerical_grad",
     "old": "    x = np.array(x, dtype=np.float64)              # a copy\n    grad = np.zeros_like(x)\n    for idx in np.ndindex(x.shape):\n        old = x[idx]\n        x[idx] = old + eps; f_plus = float(f(x))\n        x[idx] = old - eps; f_minus = float(f(x))\n        x[idx] = old\n",
     "new": "    x = np.asarray(x, dtype=np.float64)\n    grad = np.zeros_like(x)\n    for idx in np.ndindex(x.shape):\n        x[idx] += eps; f_plus = float(f(x))\n        x[idx] -= 2 * eps; f_minus = float(f(x))\n        x[idx] += eps\n"},
    # Task 4b: the mean taken over pred's elements, not over the broadcast shape
    {"name": "huber_loss mean divides by pred's size (broadcast ignored)", "target": "ans_huber",
     "old": "if reduction == \"mean\": return loss.mean()", "new": "if reduction == \"mean\": return loss.sum() / pred.numel()"},
]
