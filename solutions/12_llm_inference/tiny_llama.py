"""The models of module 12: small Llama decoders with seeded random weights, made and saved by Hugging Face
transformers (`LlamaForCausalLM(LlamaConfig(...))`, `save_pretrained`), so that nothing is downloaded.

    build_llama(folder, seed=0, **config) -> Path      # config.json, generation_config.json, model.safetensors

The defaults (BASE) are the module's model: 2 layers, hidden size 64, 4 attention heads sharing 2 key/value heads
(head size 16), an MLP of 192, a vocabulary of 256 token ids, no special tokens (greedy generation never stops early).
Any LlamaConfig field can be overridden (the tests vary heads, key/value heads, head size, layers, ...)."""
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
