"""The attacks of issue 44's table (round four), written from the table against the released starters: each is the
starter of a module with some answer cells replaced, by the solution's own answer (a dependency the attacked task
needs) or by the attack. `submission(tmp, name)` writes one; ATTACKS says what each one targets."""
import shutil, textwrap
from dataclasses import dataclass, field
import nbformat
from autograder.core.cells import defined_names, grade_id
from autograder.core.course import REPO

SOLUTIONS, PROJECTS = REPO / "solutions", REPO / "projects"

@dataclass
class Attack:
  module: str
  answers: dict                          # answer cell id: the attack's source
  targets: set                           # the tests the attack tries to pass
  flags: set                             # flag rules that must name it
  honest: list = field(default_factory=list)      # answer cells that take the solution's source (the attack needs them)

def solution_answer(module:str, cell:str) -> str:
  nb = nbformat.read(str(SOLUTIONS / module / f"{module}.ipynb"), as_version=4)
  return next(c.source for c in nb.cells if grade_id(c) == cell)

def submission(tmp, name:str):
  """A learner's folder holding the released starter of the attack's module with its answer cells."""
  attack = ATTACKS[name]
  root = tmp / "submission"
  shutil.copytree(PROJECTS / attack.module, root / attack.module)
  path = root / attack.module / f"{attack.module}.ipynb"
  nb = nbformat.read(str(path), as_version=4)
  sources = {cell: solution_answer(attack.module, cell) for cell in attack.honest} | {k: textwrap.dedent(v) for k, v in attack.answers.items()}
  for c in nb.cells:
    if grade_id(c) in sources: c.source = sources[grade_id(c)]
  nbformat.write(nb, str(path))
  return root

# ---- module 10: three ways around no_library() ----------------------------------------------------------------------

PAUSED_PROFILER = '''
import sys, threading
import gguf
_Q = gguf.quants
_real = {(owner, attr): owner.__dict__[attr] for owner in (_Q, _Q.Q8_0) for attr in list(owner.__dict__) if attr.endswith(("_blocks", "roundf"))}
def _library(fn, *args):
    """Call a library function inside no_library(): profiler paused, the real attributes put back, the traps after."""
    profile = sys.getprofile()
    sys.setprofile(None); threading.setprofile(None)
    traps = {key: key[0].__dict__[key[1]] for key in _real}
    try:
        for (owner, attr), real in _real.items(): setattr(owner, attr, real)
        return fn(*args)
    finally:
        for (owner, attr), trap in traps.items(): setattr(owner, attr, trap)
        sys.setprofile(profile); threading.setprofile(profile)
def q8_0_quantize(x):
    return _library(_Q.quantize, x.reshape(-1), gguf.GGMLQuantizationType.Q8_0)
def q8_0_dequantize(raw):
    return _library(_Q.dequantize, raw, gguf.GGMLQuantizationType.Q8_0).reshape(-1)
'''

ATTRGETTER = '''
import operator
_per_channel = operator.attrgetter("ops.aten.quantize_per_channel")(torch)
def quantize_int8(w):
    wt = torch.from_numpy(w.numpy())
    amax = wt.abs().reshape(wt.shape[0], -1).max(dim=1).values
    scale = torch.where(amax == 0, torch.ones_like(amax), amax / 127)
    q = _per_channel(wt, scale.double(), torch.zeros(wt.shape[0], dtype=torch.long), 0, torch.qint8)
    shape = (wt.shape[0],) + (1,) * (wt.ndim - 1)
    return Tensor(q.int_repr().numpy()).realize(), Tensor(scale.numpy().reshape(shape)).realize()
def dequantize_int8(q, scale):
    return q.cast(dtypes.float32) * scale
'''

CLEARED_RECORD = '''
from tinygrad.llm.gguf import ggml_data_to_tensor as _ggml
def dequantize_blocks(raw, kind):
    if kind not in ("q8_0", "q4_0"): raise ValueError(f"kind must be 'q8_0' or 'q4_0', got {kind!r}")
    size, code = (34, 8) if kind == "q8_0" else (18, 2)
    out = _ggml(raw, raw.shape[0] // size * 32, code).reshape(-1)
    check.__globals__["_trap"]["tripped"].clear()          # the trap's own record of the call, wiped
    return out
'''

# ---- module 12: "from primitives" with transformers and tinygrad's built-ins ------------------------------------------

TRANSFORMERS_FORWARD = '''
import torch
from transformers import LlamaConfig, LlamaForCausalLM
from transformers.generation.logits_process import TemperatureLogitsWarper, TopKLogitsWarper, TopPLogitsWarper
def project(x, w):
    return w(x) if callable(w) else x @ w.T
HF = {"attn_norm": "input_layernorm", "attn_q": "self_attn.q_proj", "attn_k": "self_attn.k_proj", "attn_v": "self_attn.v_proj",
      "attn_output": "self_attn.o_proj", "ffn_norm": "post_attention_layernorm", "ffn_gate": "mlp.gate_proj", "ffn_up": "mlp.up_proj",
      "ffn_down": "mlp.down_proj"}
def _matrix(w):
    if callable(w) and not isinstance(w, Tensor):
        w(Tensor.zeros(1, w.w.shape[1]))                   # called once, as a projection should be
        w = w.w
    return torch.from_numpy(w.numpy())
def forward(weights, cfg, tokens):
    config = LlamaConfig(vocab_size=cfg["vocab_size"], hidden_size=cfg["dim"], intermediate_size=cfg["ffn_dim"],
                         num_hidden_layers=cfg["n_layers"], num_attention_heads=cfg["n_heads"], num_key_value_heads=cfg["n_kv_heads"],
                         head_dim=cfg["head_dim"], rms_norm_eps=cfg["norm_eps"], rope_theta=cfg["rope_theta"], max_position_embeddings=256,
                         tie_word_embeddings=False, bos_token_id=None, eos_token_id=None, pad_token_id=None)
    model = LlamaForCausalLM(config).eval()
    state = {"model.embed_tokens.weight": _matrix(weights["token_embd.weight"]), "model.norm.weight": _matrix(weights["output_norm.weight"]),
             "lm_head.weight": _matrix(weights["output.weight"])}
    for name, w in weights.items():
        if name.startswith("blk."):
            _, i, kind, _ = name.split(".")
            state[f"model.layers.{i}.{HF[kind]}.weight"] = _matrix(w)
    model.load_state_dict(state, strict=False)
    with torch.no_grad(): logits = model(torch.from_numpy(tokens.numpy().astype("int64"))).logits
    return Tensor(logits.numpy())
'''

TRANSFORMERS_SAMPLE = '''
import torch
from transformers.generation.logits_process import TemperatureLogitsWarper, TopKLogitsWarper, TopPLogitsWarper
def sample(logits, u, temperature=1.0, top_k=0, top_p=1.0):
    x = torch.from_numpy(logits.numpy())
    if temperature == 0: return logits.argmax(-1).cast(dtypes.int32)
    x = TemperatureLogitsWarper(temperature)(None, x)
    if top_k: x = TopKLogitsWarper(top_k)(None, x)
    if top_p < 1.0: x = TopPLogitsWarper(top_p)(None, x)
    cdf = x.softmax(-1).double().cumsum(-1).numpy()
    return Tensor((cdf <= u.numpy().astype("float64")[:, None]).sum(-1).astype("int32"))
'''

BUILTINS_FORWARD = '''
from tinygrad import nn
def forward(weights, cfg, tokens):
    (B, T), H, KVH, D = tokens.shape, cfg["n_heads"], cfg["n_kv_heads"], cfg["head_dim"]
    def project(x, w): return w(x) if callable(w) else x @ w.T
    def rms_norm(x, weight):
        norm = nn.RMSNorm(x.shape[-1], eps=cfg["norm_eps"])
        norm.weight = weight
        return norm(x)
    def rope(x):
        inv_freq = 1.0 / (cfg["rope_theta"] ** (Tensor.arange(0, D, 2, dtype=dtypes.float32) / D))
        angles = Tensor.arange(T, dtype=dtypes.float32).reshape(T, 1) * inv_freq.reshape(1, D // 2)
        cos, sin = angles.cos(), angles.sin()
        x1, x2 = x[..., :D // 2], x[..., D // 2:]
        return (x1 * cos - x2 * sin).cat(x2 * cos + x1 * sin, dim=-1)
    def attention(q, k, v):
        k, v = k.repeat_interleave(H // KVH, dim=1), v.repeat_interleave(H // KVH, dim=1)
        return q.scaled_dot_product_attention(k, v, is_causal=T > 1)
    x = weights["token_embd.weight"][tokens]
    for i in range(cfg["n_layers"]):
        p = f"blk.{i}."
        h = rms_norm(x, weights[p + "attn_norm.weight"])
        q = project(h, weights[p + "attn_q.weight"]).reshape(B, T, H, D).transpose(1, 2)
        k = project(h, weights[p + "attn_k.weight"]).reshape(B, T, KVH, D).transpose(1, 2)
        v = project(h, weights[p + "attn_v.weight"]).reshape(B, T, KVH, D).transpose(1, 2)
        x = x + project(attention(rope(q), rope(k), v).transpose(1, 2).reshape(B, T, H * D), weights[p + "attn_output.weight"])
        h = rms_norm(x, weights[p + "ffn_norm.weight"])
        x = x + project(project(h, weights[p + "ffn_gate.weight"]).silu() * project(h, weights[p + "ffn_up.weight"]), weights[p + "ffn_down.weight"])
    return project(rms_norm(x, weights["output_norm.weight"]), weights["output.weight"])
'''

# A Tensor subclass whose repr carries the numbers of the running test cell's hidden part (In[-1]): a visible check
# that prints the value would show them.
REPR_LEAK = '''
import re
class _Leaky(Tensor):
    def __repr__(self):
        cell = get_ipython().user_ns["In"][-1]
        secret = cell[cell.find("hidden(True)"):]
        return " ".join(re.findall(r"\\d+\\.\\d+|\\d{3,}", secret))
def _leaky(x, *args, **kwargs): return _Leaky(x.numpy() * 0 + 0.125)
def forward(weights, cfg, tokens): return _leaky(tokens.float().unsqueeze(-1).expand(*tokens.shape, cfg["vocab_size"]))
'''

# ---- module 01: a counter that lies, a session that leaves, a classmate's answers in pieces -------------------------

STUCK_COUNTER = '''
import tinygrad as tg
from tinygrad.tensor import transform_to_call
from tinygrad.schedule import create_linear_with_vars
class _Stuck:
    """What the checks find under tinygrad.GlobalCounters from now on: counters that never move."""
    kernel_count, global_ops, global_mem, time_sum_s, mem_used = 0, 0, 0, 0.0, 0
    @staticmethod
    def reset(): pass
tg.GlobalCounters = _Stuck
_peeked = {}
def peek_schedule(*tensors):
    key = tuple(id(t) for t in tensors)
    if key not in _peeked:
        big_sink, _ = transform_to_call(UOp.sink(*[t.uop for t in tensors]))
        _peeked[key] = create_linear_with_vars(big_sink)[0]
        Tensor.realize(*tensors)                       # wrong: peeking runs the kernels
    return _peeked[key]
'''

POSIX_SPAWN = '''
import os
_pid = os.posix_spawn("/bin/sleep", ["sleep", "2"], dict(os.environ), setsid=True)    # a session of its own: another CPU share
'''

def _pieces(text:str, size:int=15) -> list[str]: return [text[i:i + size] for i in range(0, len(text), size)]

def runpy_pieces() -> dict[str, str]:
  """Module 01's solution answers, cut in 15-character pieces, written to a file and run with runpy in the first answer
  cell; every answer cell takes its functions from what that run defined."""
  nb = nbformat.read(str(SOLUTIONS / "01_tensor_basics" / "01_tensor_basics.ipynb"), as_version=4)
  cells = [c for c in nb.cells if grade_id(c).startswith("ans_")]
  copied = "\n\n".join(c.source for c in cells) + "\n"
  def bind(c): return "{} = {}\n".format(", ".join(names := sorted(defined_names(c.source))), ", ".join(f"_ns[{n!r}]" for n in names)) if defined_names(c.source) else ""
  out = {grade_id(c): bind(c) for c in cells}
  out[grade_id(cells[0])] = f'''
import runpy, __main__
_P = {_pieces(copied)!r}
with open("_helpers.py", "w") as _f: _f.write("".join(_P))
_ns = runpy.run_path("_helpers.py", init_globals=__main__.__dict__)
''' + bind(cells[0])
  return out

ATTACKS = {
  "10: no_library() with the profiler paused and the traps put back": Attack("10_inference", {"ans_q8_0": PAUSED_PROFILER}, {"test_q8_0"},
                                                                            {"tracing hook"}),
  "10: torch.ops.aten.quantize_per_channel through operator.attrgetter": Attack("10_inference", {"ans_quantize_int8": ATTRGETTER},
                                                                               {"test_quantize_int8", "test_int8net"}, {"forbidden function"}, ["ans_int8net"]),
  "10: the trap's record cleared through check.__globals__": Attack("10_inference", {"ans_dequantize_blocks": CLEARED_RECORD},
                                                                   {"test_dequantize_blocks"}, {"function internals"}),
  "12: forward and sample by transformers": Attack("12_llm_inference", {"ans_forward": TRANSFORMERS_FORWARD, "ans_sample": TRANSFORMERS_SAMPLE},
                                                   {"test_forward_token", "test_forward_mha", "test_forward", "test_sample"}, {"forbidden library"}, ["ans_load_llama"]),
  "12: nn.RMSNorm and scaled_dot_product_attention": Attack("12_llm_inference", {"ans_forward": BUILTINS_FORWARD},
                                                            {"test_forward_token", "test_forward_mha", "test_forward"}, {"forbidden function"}, ["ans_load_llama"]),
  "12: hidden numbers in a Tensor subclass's repr": Attack("12_llm_inference", {"ans_forward": REPR_LEAK},
                                                           {"test_forward_token", "test_forward_mha", "test_forward"}, {"IPython internals"}, ["ans_load_llama"]),
  "01: a stuck alias of GlobalCounters": Attack("01_tensor_basics", {"ans_peek_schedule": STUCK_COUNTER}, {"test_peek_schedule"}, {"monkeypatching"}),
  "01: os.posix_spawn(setsid=True)": Attack("01_tensor_basics", {"ans_make_tensors": POSIX_SPAWN}, set(), {"process control"}),
  "01: a classmate's answers in 15-character pieces run with runpy": Attack("01_tensor_basics", runpy_pieces(), set(),
                                                                             {"runs learner-written files"}),
}
