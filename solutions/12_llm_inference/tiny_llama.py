"""The models of module 12: small Llama decoders with seeded random weights, written as Hugging Face `transformers`
writes a LlamaForCausalLM with `save_pretrained` (config.json, generation_config.json, model.safetensors), so that
nothing is downloaded, and made without `transformers` or PyTorch: grading runs the learner's answers where neither
is installed (the module's forbidden_libraries); the tests' oracle loads the files with transformers.

    build_llama(folder, seed=0, drawn_norms=False, **config) -> Path   # config.json, generation_config.json, model.safetensors
    seeded_weights(seed=0, **sizes) -> (cfg, weights)  # a larger Llama drawn with numpy: no file

The defaults (BASE) are the module's model: 2 layers, hidden size 64, 4 attention heads sharing 2 key/value heads
(head size 16), an MLP of 192, a vocabulary of 256 token ids, no special tokens (greedy generation never stops early).
These LlamaConfig fields can be overridden (the tests vary heads, key/value heads, head size, layers, ...): those of
BASE, head_dim, rope_theta, rms_norm_eps, tie_word_embeddings, and rope_scaling: a dict of Llama 3.1's rotary scaling
(factor, low_freq_factor, high_freq_factor, original_max_position_embeddings), written into config.json's
rope_parameters with rope_type "llama3" (without it, rope_type "default"). The weights follow transformers' own initialisation of
a Llama (every projection and the embedding drawn from N(0, 0.02), the norms' weights 1), drawn with numpy's
default_rng(seed); with drawn_norms=True every norm's weight is drawn too (uniform in [0.5, 1.5), from a generator of
its own, so the other weights stay those of the seed), so that a loader that swaps two norms is seen.

SIZE is Part 8's model: width 512, 8 layers, 8 query heads sharing 4 key/value heads (head size 64), an MLP of 1536,
25,436,672 parameters (101.3 MB a decode step in float32: every weight but the embedding's other rows). seeded_weights draws it the same way, under load_llama's
names, so that a model of this size costs a second and no disk."""
import json
from pathlib import Path
import numpy as np

BASE = dict(vocab_size=256, hidden_size=64, intermediate_size=192, num_hidden_layers=2, num_attention_heads=4,
            num_key_value_heads=2, max_position_embeddings=256, bos_token_id=None, eos_token_id=None, pad_token_id=None)
KNOWN = set(BASE) | {"head_dim", "rope_theta", "rms_norm_eps", "tie_word_embeddings", "rope_scaling"}
SCALING = ("factor", "low_freq_factor", "high_freq_factor", "original_max_position_embeddings")
INIT_STD = 0.02                                        # LlamaConfig.initializer_range

def config_of(**config) -> dict:
  """config.json as save_pretrained writes it for LlamaConfig(**{**BASE, **config})."""
  unknown = set(config) - KNOWN
  if unknown: raise TypeError(f"build_llama does not know {sorted(unknown)}")
  c = {**BASE, **config}
  rope = {"rope_theta": float(c.get("rope_theta", 10000.0)), "rope_type": "default"}
  if c.get("rope_scaling"):
    s = c["rope_scaling"]
    if sorted(s) != sorted(SCALING): raise TypeError(f"rope_scaling takes exactly {SCALING}")
    rope = {**rope, "rope_type": "llama3", "factor": float(s["factor"]), "low_freq_factor": float(s["low_freq_factor"]),
            "high_freq_factor": float(s["high_freq_factor"]), "original_max_position_embeddings": int(s["original_max_position_embeddings"])}
  return {"architectures": ["LlamaForCausalLM"], "attention_bias": False, "attention_dropout": 0.0, "bos_token_id": c["bos_token_id"],
          "dtype": "float32", "eos_token_id": c["eos_token_id"], "head_dim": c.get("head_dim", c["hidden_size"] // c["num_attention_heads"]),
          "hidden_act": "silu", "hidden_size": c["hidden_size"], "initializer_range": INIT_STD, "intermediate_size": c["intermediate_size"],
          "max_position_embeddings": c["max_position_embeddings"], "mlp_bias": False, "model_type": "llama",
          "num_attention_heads": c["num_attention_heads"], "num_hidden_layers": c["num_hidden_layers"], "num_key_value_heads": c["num_key_value_heads"],
          "pad_token_id": c["pad_token_id"], "pretraining_tp": 1, "rms_norm_eps": float(c.get("rms_norm_eps", 1e-6)),
          "rope_parameters": rope,
          "tie_word_embeddings": bool(c.get("tie_word_embeddings", False)), "use_cache": True, "vocab_size": c["vocab_size"]}

def weights_of(cfg:dict, seed:int, drawn_norms:bool=False) -> dict:
  """The model's tensors under transformers' names, float32, in the order LlamaForCausalLM creates them; the norms'
  weights 1, or with drawn_norms each drawn uniform in [0.5, 1.5) from default_rng([seed, 1])."""
  rng, norm_rng = np.random.default_rng(seed), np.random.default_rng([seed, 1])
  def norm(dim): return norm_rng.uniform(0.5, 1.5, dim).astype(np.float32) if drawn_norms else np.ones(dim, np.float32)
  dim, hd, ffn = cfg["hidden_size"], cfg["head_dim"], cfg["intermediate_size"]
  normal = lambda *shape: (rng.standard_normal(shape) * INIT_STD).astype(np.float32)
  out = {"model.embed_tokens.weight": normal(cfg["vocab_size"], dim)}
  for i in range(cfg["num_hidden_layers"]):
    p = f"model.layers.{i}."
    out |= {p + "self_attn.q_proj.weight": normal(cfg["num_attention_heads"] * hd, dim), p + "self_attn.k_proj.weight": normal(cfg["num_key_value_heads"] * hd, dim),
            p + "self_attn.v_proj.weight": normal(cfg["num_key_value_heads"] * hd, dim), p + "self_attn.o_proj.weight": normal(dim, cfg["num_attention_heads"] * hd),
            p + "mlp.gate_proj.weight": normal(ffn, dim), p + "mlp.up_proj.weight": normal(ffn, dim), p + "mlp.down_proj.weight": normal(dim, ffn),
            p + "input_layernorm.weight": norm(dim), p + "post_attention_layernorm.weight": norm(dim)}
  out["model.norm.weight"] = norm(dim)
  if not cfg["tie_word_embeddings"]: out["lm_head.weight"] = normal(cfg["vocab_size"], dim)
  return out

def save_safetensors(tensors:dict, path:Path):
  """The safetensors format: an 8-byte little-endian header size, a JSON header (name: dtype, shape, byte range;
  sorted by name, as the safetensors package writes it), then the bytes."""
  header, offset = {"__metadata__": {"format": "pt"}}, 0
  for name in sorted(tensors):
    a = np.ascontiguousarray(tensors[name], dtype="<f4")
    header[name] = {"dtype": "F32", "shape": list(a.shape), "data_offsets": [offset, offset + a.nbytes]}
    offset += a.nbytes
  text = json.dumps(header, separators=(",", ":")).encode()
  text += b" " * (-len(text) % 8)
  with open(path, "wb") as f:
    f.write(len(text).to_bytes(8, "little") + text)
    for name in sorted(tensors): f.write(np.ascontiguousarray(tensors[name], dtype="<f4").tobytes())

def build_llama(folder, seed:int=0, drawn_norms:bool=False, **config) -> Path:
  """Write a Llama with BASE's config updated by `config`, its weights drawn from default_rng(seed) (drawn_norms: the
  norms' weights too, see weights_of), into `folder` as save_pretrained would (float32 safetensors)."""
  folder = Path(folder)
  folder.mkdir(parents=True, exist_ok=True)
  cfg = config_of(**config)
  (folder / "config.json").write_text(json.dumps(cfg, indent=2, sort_keys=True) + "\n")
  (folder / "generation_config.json").write_text(json.dumps({"_from_model_config": True, "output_attentions": False,
                                                             "output_hidden_states": False, "use_cache": True}, indent=2) + "\n")
  save_safetensors(weights_of(cfg, seed, drawn_norms), folder / "model.safetensors")
  return folder

SIZE = dict(dim=512, n_layers=8, n_heads=8, n_kv_heads=4, head_dim=64, ffn_dim=1536, vocab_size=256, norm_eps=1e-6, rope_theta=10000.0,
            rope_scaling=None)

def seeded_weights(seed:int=0, **sizes) -> tuple:
  """(cfg, weights) of a Llama of SIZE updated by `sizes`: cfg as load_llama returns it, weights a dict of float32 numpy
  arrays under load_llama's names (an output weight of its own), drawn from numpy.random.default_rng(seed)."""
  cfg = {**SIZE, **sizes}
  rng = np.random.default_rng(seed)
  def matrix(rows, cols): return (rng.standard_normal((rows, cols), dtype=np.float32) * np.float32(INIT_STD))
  dim, heads, kv, hd, ffn = cfg["dim"], cfg["n_heads"], cfg["n_kv_heads"], cfg["head_dim"], cfg["ffn_dim"]
  weights = {"token_embd.weight": matrix(cfg["vocab_size"], dim), "output_norm.weight": np.ones(dim, np.float32),
             "output.weight": matrix(cfg["vocab_size"], dim)}
  for i in range(cfg["n_layers"]):
    weights.update({f"blk.{i}.attn_norm.weight": np.ones(dim, np.float32), f"blk.{i}.attn_q.weight": matrix(heads * hd, dim),
                    f"blk.{i}.attn_k.weight": matrix(kv * hd, dim), f"blk.{i}.attn_v.weight": matrix(kv * hd, dim),
                    f"blk.{i}.attn_output.weight": matrix(dim, heads * hd), f"blk.{i}.ffn_norm.weight": np.ones(dim, np.float32),
                    f"blk.{i}.ffn_gate.weight": matrix(ffn, dim), f"blk.{i}.ffn_up.weight": matrix(ffn, dim),
                    f"blk.{i}.ffn_down.weight": matrix(dim, ffn)})
  return cfg, weights
