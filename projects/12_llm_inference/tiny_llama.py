"""The models of module 12: small Llama decoders with seeded random weights, made and saved by Hugging Face
transformers (`LlamaForCausalLM(LlamaConfig(...))`, `save_pretrained`), so that nothing is downloaded.

    build_llama(folder, seed=0, **config) -> Path      # config.json, generation_config.json, model.safetensors
    seeded_weights(seed=0, **sizes) -> (cfg, weights)  # a larger Llama drawn with numpy: no transformers, no file

The defaults (BASE) are the module's model: 2 layers, hidden size 64, 4 attention heads sharing 2 key/value heads
(head size 16), an MLP of 192, a vocabulary of 256 token ids, no special tokens (greedy generation never stops early).
Any LlamaConfig field can be overridden (the tests vary heads, key/value heads, head size, layers, ...).

SIZE is Part 8's model: width 512, 8 layers, 8 query heads sharing 4 key/value heads (head size 64), an MLP of 1536,
25,436,672 parameters (101.5 MB a decode step in float32). seeded_weights draws it as transformers initialises a
LlamaForCausalLM (every matrix normal with a standard deviation of 0.02, the norms ones), from numpy's generator, so
that a model of this size costs a second and no disk."""
import os
from pathlib import Path
os.environ.setdefault("HF_HUB_OFFLINE", "1")          # transformers never goes to the network here
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

BASE = dict(vocab_size=256, hidden_size=64, intermediate_size=192, num_hidden_layers=2, num_attention_heads=4,
            num_key_value_heads=2, max_position_embeddings=256, bos_token_id=None, eos_token_id=None, pad_token_id=None)

def build_llama(folder, seed:int=0, **config) -> Path:
    """Write a LlamaForCausalLM with BASE's config updated by `config`, its weights drawn by transformers' own
    initialisation after torch.manual_seed(seed), into `folder` with save_pretrained (float32 safetensors)."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM
    from transformers.utils import logging
    logging.set_verbosity_error()
    logging.disable_progress_bar()
    torch.manual_seed(seed)
    model = LlamaForCausalLM(LlamaConfig(**{**BASE, **config})).eval()
    model.save_pretrained(folder)
    return Path(folder)

SIZE = dict(dim=512, n_layers=8, n_heads=8, n_kv_heads=4, head_dim=64, ffn_dim=1536, vocab_size=256, norm_eps=1e-6, rope_theta=10000.0)

def seeded_weights(seed:int=0, **sizes) -> tuple:
    """(cfg, weights) of a Llama of SIZE updated by `sizes`: cfg as load_llama returns it, weights a dict of float32 numpy
    arrays under load_llama's names (an output weight of its own), drawn from numpy.random.default_rng(seed)."""
    import numpy as np
    cfg = {**SIZE, **sizes}
    rng = np.random.default_rng(seed)
    def matrix(rows, cols): return (rng.standard_normal((rows, cols), dtype=np.float32) * np.float32(0.02))
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
