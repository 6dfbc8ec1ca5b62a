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
    # Task 1.3: the device condition forgotten (device-less constants)
    {"name": "grad_kind ignores the device (device-less constants)", "target": "ans_grad_kind",
     "old": "t.is_floating_point() and t.device is not None", "new": "t.is_floating_point()"},
    # Task 1.3: "floating point" read as float32
    {"name": "grad_kind takes float32 for floating point (misses half)", "target": "ans_grad_kind",
     "old": "t.is_floating_point() and", "new": "t.dtype == dtypes.float32 and"},
    # Task 1.3: every tensor in the graph taken to receive a gradient (the four-condition filter alone)
    {"name": "grad_kind says values for every tensor in the graph", "target": "ans_grad_kind",
     "old": "    seen, todo = set(), [loss.uop]\n", "new": "    return \"values\"\n    seen, todo = set(), [loss.uop]\n"},
    # Task 1.3: a gradient taken to flow through DETACH
    {"name": "grad_kind lets the gradient through detach", "target": "ans_grad_kind",
     "old": "(Ops.DETACH, Ops.CMPLT, Ops.CMPNE, Ops.CMPEQ, Ops.BITCAST)", "new": "(Ops.CMPLT, Ops.CMPNE, Ops.CMPEQ, Ops.BITCAST)"},
    # Task 1.3: a gradient taken to flow through comparisons
    {"name": "grad_kind lets the gradient through comparisons", "target": "ans_grad_kind",
     "old": "(Ops.DETACH, Ops.CMPLT, Ops.CMPNE, Ops.CMPEQ, Ops.BITCAST)", "new": "(Ops.DETACH, Ops.BITCAST)"},
    # Task 1.3: only CMPLT (the op of <) stops it; != and == do not
    {"name": "grad_kind stops only at CMPLT", "target": "ans_grad_kind",
     "old": "(Ops.DETACH, Ops.CMPLT, Ops.CMPNE, Ops.CMPEQ, Ops.BITCAST)", "new": "(Ops.DETACH, Ops.CMPLT, Ops.BITCAST)"},
    # Task 1.3: where's condition taken to receive a gradient (only the comparison below it stops)
    {"name": "grad_kind follows where's condition", "target": "ans_grad_kind",
     "old": "todo.extend(u.src[1:] if u.op is Ops.WHERE else u.src)", "new": "todo.extend(u.src)"},
    # Task 1.3: "zeros" decided by the numbers: a tensor used only as where's condition, but also a tensor times 0
    {"name": "grad_kind calls a gradient that is numerically zero zeros (t * 0)", "target": "ans_grad_kind",
     "old": "        if u is t.uop: return \"values\"\n",
     "new": "        if u is t.uop: return \"values\"\n        if u.op is Ops.MUL and any(s.base.op is Ops.CONST and float(s.base.arg) == 0 for s in u.src): continue\n"},
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
    # Task 3.1: maximum at a tie gives the whole gradient to a (a >= b)
    {"name": "maximum_backward gives a tie to a", "target": "ans_backward_rules",
     "old": "share_a = (a > b).where(1.0, (a == b).where(0.5, 0.0))", "new": "share_a = (a >= b).where(1.0, 0.0)"},
    # Task 3.1: maximum at a tie gives nothing to either side
    {"name": "maximum_backward gives a tie to nobody", "target": "ans_backward_rules",
     "old": "    return unbroadcast(grad_out * share_a, a.shape), unbroadcast(grad_out * (1.0 - share_a), b.shape)",
     "new": "    return unbroadcast(grad_out * (a > b).float(), a.shape), unbroadcast(grad_out * (a < b).float(), b.shape)"},
    # Task 3.1: the broadcast forgotten for b (the gradient keeps the output's shape)
    {"name": "maximum_backward does not unbroadcast", "target": "ans_backward_rules",
     "old": "    return unbroadcast(grad_out * share_a, a.shape), unbroadcast(grad_out * (1.0 - share_a), b.shape)",
     "new": "    return (grad_out * share_a).sum(axis=tuple(range(grad_out.ndim - a.ndim))) if grad_out.ndim > a.ndim else grad_out * share_a, unbroadcast(grad_out * (1.0 - share_a), b.shape)"},
    # Task 3.1: PyTorch's convention at the kink of leaky_relu (neg_slope at x == 0)
    {"name": "leaky_relu_backward with PyTorch's value at 0", "target": "ans_backward_rules",
     "old": "return grad_out * (x < 0).where(neg_slope, 1.0)", "new": "return grad_out * (x > 0).where(1.0, neg_slope)"},
    # Task 3.1: the slope argument ignored (the default 0.01)
    {"name": "leaky_relu_backward ignores neg_slope", "target": "ans_backward_rules",
     "old": "return grad_out * (x < 0).where(neg_slope, 1.0)", "new": "return grad_out * (x < 0).where(0.01, 1.0)"},
    # Task 3.1: max gives every tied maximum the whole gradient
    {"name": "max_backward gives each tied maximum the whole gradient", "target": "ans_backward_rules",
     "old": "    return mask / mask.sum(axis=axes, keepdim=True) * grad_out.reshape(kept)",
     "new": "    return mask * grad_out.reshape(kept)"},
    # Task 3.1: max picks one tied maximum, the first (torch.max(dim)'s convention)
    {"name": "max_backward gives a tie to the first maximum only", "target": "ans_backward_rules",
     "old": "    mask = (a == a.max(axis=axes, keepdim=True)).float()\n",
     "new": "    mask = (a == a.max(axis=axes, keepdim=True)).float()\n    mask = mask * (mask.cumsum(axes[-1]) == 1).float() if len(axes) == 1 else mask\n"},
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
    # issue 34 item 3, fifth round. Task 1.1: sigmoid_grad accurate in float32; sigmoid_grad_forms measures formulas
    {"name": "sigmoid_grad: the table's s * (1 - s) in float32 (0 from x = 16.6 on)", "target": "ans_hand_grads",
     "old": "    e = np.exp(-np.abs(x))                 # in (0, 1]: never overflows; sigmoid' is even, so use the decaying side\n    return (e / (1 + e) ** 2).astype(np.float32)",
     "new": "    s = 1 / (1 + np.exp(-x))\n    return (s * (1 - s)).astype(np.float32)", "tests": ["test_hand_grads"]},
    {"name": "sigmoid_grad: exp(-x) / (1 + exp(-x))**2 (overflows below x = -44)", "target": "ans_hand_grads",
     "old": "e = np.exp(-np.abs(x))                 #", "new": "e = np.exp(-x)                 #", "tests": ["test_hand_grads"]},
    {"name": "sigmoid_grad_forms: the exact reference as s * (1 - s) in float64 (0 from x = 37: errors divide by 0)", "target": "ans_hand_grads",
     "old": "    exact = a / (1 + a) ** 2                         #", "new": "    exact = (lambda s: s * (1 - s))(1 / (1 + np.exp(-x.astype(np.float64))))  #",
     "tests": ["test_hand_grads"]},
    {"name": "sigmoid_grad_forms: matching with an absolute tolerance (every tiny gradient matches)", "target": "ans_hand_grads",
     "old": "if np.all(np.abs(v - g) <= 1e-4 * np.abs(g)): autograd.append(name)", "new": "if np.allclose(v, g, rtol=1e-4): autograd.append(name)",
     "tests": ["test_hand_grads"]},
    {"name": "sigmoid_grad_forms: autograd taken to compute the most accurate formula", "target": "ans_hand_grads",
     "old": "    return {\"autograd\": sorted(autograd),", "new": "    autograd = [min(errors, key=errors.get)]\n    return {\"autograd\": sorted(autograd),",
     "tests": ["test_hand_grads"]},
    {"name": "sigmoid_grad_forms: a non-finite value scored by its finite elements (nanmax)", "target": "ans_hand_grads",
     "old": "errors[name] = float(np.max(np.abs(v - exact) / exact)) if np.all(np.isfinite(v)) else math.inf",
     "new": "errors[name] = float(np.nanmax(np.abs(v - exact) / exact))", "tests": ["test_hand_grads"]},
    {"name": "sigmoid_grad_forms: the mean relative error instead of the largest", "target": "ans_hand_grads",
     "old": "float(np.max(np.abs(v - exact) / exact))", "new": "float(np.mean(np.abs(v - exact) / exact))", "tests": ["test_hand_grads"]},
    {"name": "sigmoid_grad_forms: the absolute error instead of the relative one", "target": "ans_hand_grads",
     "old": "float(np.max(np.abs(v - exact) / exact))", "new": "float(np.max(np.abs(v - exact)))", "tests": ["test_hand_grads"]},
    {"name": "sigmoid_grad_forms: the worst formula taken for the best", "target": "ans_hand_grads",
     "old": "\"best\": min(errors, key=errors.get)}", "new": "\"best\": max(errors, key=errors.get)}", "tests": ["test_hand_grads"]},
    # Task 4.3: choose_eps measures the step of a finite-difference check
    {"name": "choose_eps: the loss computed in float64 (no rounding: the smallest step always wins)", "target": "ans_choose_eps",
     "old": "huber_loss(Tensor(v.astype(np.float32)), t,", "new": "huber_loss(Tensor(v), t.cast(dtypes.float64),", "tests": ["test_huber_grad"]},
    {"name": "choose_eps: the mean error over the elements instead of the largest", "target": "ans_choose_eps",
     "old": "errors[eps] = float(np.max(np.abs(num - g)))", "new": "errors[eps] = float(np.mean(np.abs(num - g)))", "tests": ["test_huber_grad"]},
    {"name": "choose_eps: the relative error instead of the absolute one", "target": "ans_choose_eps",
     "old": "errors[eps] = float(np.max(np.abs(num - g)))", "new": "errors[eps] = float(np.max(np.abs(num - g) / np.abs(g)))", "tests": ["test_huber_grad"]},
    {"name": "choose_eps: the largest step always (central differences are exact on each piece)", "target": "ans_choose_eps",
     "old": "\"best\": min(errors, key=errors.get)}", "new": "\"best\": max(candidates)}", "tests": ["test_huber_grad"]},
    {"name": "choose_eps: the smallest step always (the error is of order eps**2)", "target": "ans_choose_eps",
     "old": "\"best\": min(errors, key=errors.get)}", "new": "\"best\": min(candidates)}", "tests": ["test_huber_grad"]},
    {"name": "choose_eps: compared with the mean loss's gradient (reduction mismatch)", "target": "ans_choose_eps",
     "old": "(g,) = huber_loss(p, t, delta=delta, reduction=\"sum\").gradient(p)", "new": "(g,) = huber_loss(p, t, delta=delta, reduction=\"mean\").gradient(p)",
     "tests": ["test_huber_grad"]},
    {"name": "choose_eps: delta ignored in the finite differences (default 1.0)", "target": "ans_choose_eps",
     "old": "t, delta=delta, reduction=\"sum\").item()", "new": "t, reduction=\"sum\").item()", "tests": ["test_huber_grad"]},
]
