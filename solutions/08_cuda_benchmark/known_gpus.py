"""Peak figures of a few NVIDIA GPUs, and the reference measurements this module compares against.

KNOWN_GPUS holds vendor figures transcribed from the documents named in `source` (not measured by this course). All
tensor-core figures are **dense**: NVIDIA quotes them "with sparsity" (2:4 structured sparsity, which a plain matmul
does not use), and a dense figure is half of that. For GeForce cards the float16/bfloat16 column is the rate with
float32 accumulation, which is what tinygrad's and cuBLAS's half-precision matmuls use (`mma ... .f32.f16.f16.f32`).
Columns: TFLOPS for float32 on the ordinary cores ("fp32"), TF32 tensor cores ("tf32"), float16 and bfloat16 tensor
cores ("fp16", "bf16"), and memory bandwidth in TB/s ("tbps").

REFERENCE holds the figures measured on a real NVIDIA H200 with tinygrad 0.14.0 (workbook notes, section 13b): the
course page's reference table, and the yardstick of the module's CUDA checks.
"""
from __future__ import annotations

# Order matters: lookup_gpu returns the first entry whose `match` strings all occur in the device name.
KNOWN_GPUS = [
  {"name": "H200 NVL", "match": ["H200", "NVL"], "fp32": 60.0, "tf32": 417.5, "fp16": 835.5, "bf16": 835.5, "tbps": 4.8,
   "source": "NVIDIA H200 Tensor Core GPU product page and datasheet, https://www.nvidia.com/en-us/data-center/h200/ "
             "(H200 NVL: TF32 835, FP16/BF16 1,671 TFLOPS with sparsity; FP32 60 TFLOPS; 4.8 TB/s)"},
  {"name": "H200 SXM", "match": ["H200"], "fp32": 67.0, "tf32": 494.5, "fp16": 989.5, "bf16": 989.5, "tbps": 4.8,
   "source": "NVIDIA H200 Tensor Core GPU product page and datasheet, https://www.nvidia.com/en-us/data-center/h200/ "
             "(TF32 989, FP16/BF16 1,979 TFLOPS with sparsity; FP32 67 TFLOPS; 4.8 TB/s HBM3e)"},
  {"name": "H100 PCIe", "match": ["H100", "PCIe"], "fp32": 51.0, "tf32": 378.0, "fp16": 756.5, "bf16": 756.5, "tbps": 2.0,
   "source": "NVIDIA H100 Tensor Core GPU datasheet, https://www.nvidia.com/en-us/data-center/h100/ "
             "(PCIe: TF32 756, FP16/BF16 1,513 TFLOPS with sparsity; FP32 51 TFLOPS; 2 TB/s)"},
  {"name": "H100 NVL", "match": ["H100", "NVL"], "fp32": 60.0, "tf32": 417.5, "fp16": 835.5, "bf16": 835.5, "tbps": 3.9,
   "source": "NVIDIA H100 Tensor Core GPU datasheet, https://www.nvidia.com/en-us/data-center/h100/ "
             "(NVL: TF32 835, FP16/BF16 1,671 TFLOPS with sparsity; FP32 60 TFLOPS; 3.9 TB/s)"},
  {"name": "H100 SXM", "match": ["H100"], "fp32": 67.0, "tf32": 494.5, "fp16": 989.5, "bf16": 989.5, "tbps": 3.35,
   "source": "NVIDIA H100 Tensor Core GPU datasheet, https://www.nvidia.com/en-us/data-center/h100/ "
             "(SXM: TF32 989, FP16/BF16 1,979 TFLOPS with sparsity; FP32 67 TFLOPS; 3.35 TB/s)"},
  {"name": "A100 80GB PCIe", "match": ["A100", "80GB", "PCIe"], "fp32": 19.5, "tf32": 156.0, "fp16": 312.0, "bf16": 312.0, "tbps": 1.935,
   "source": "NVIDIA A100 Tensor Core GPU datasheet, https://www.nvidia.com/en-us/data-center/a100/ "
             "(TF32 156, FP16/BF16 312 TFLOPS dense; FP32 19.5 TFLOPS; 80GB PCIe 1,935 GB/s)"},
  {"name": "A100 80GB SXM", "match": ["A100", "80GB"], "fp32": 19.5, "tf32": 156.0, "fp16": 312.0, "bf16": 312.0, "tbps": 2.039,
   "source": "NVIDIA A100 Tensor Core GPU datasheet, https://www.nvidia.com/en-us/data-center/a100/ "
             "(TF32 156, FP16/BF16 312 TFLOPS dense; FP32 19.5 TFLOPS; 80GB SXM 2,039 GB/s)"},
  {"name": "A100 40GB", "match": ["A100"], "fp32": 19.5, "tf32": 156.0, "fp16": 312.0, "bf16": 312.0, "tbps": 1.555,
   "source": "NVIDIA A100 Tensor Core GPU datasheet, https://www.nvidia.com/en-us/data-center/a100/ "
             "(TF32 156, FP16/BF16 312 TFLOPS dense; FP32 19.5 TFLOPS; 40GB 1,555 GB/s)"},
  {"name": "GeForce RTX 4090", "match": ["RTX 4090"], "fp32": 82.6, "tf32": 82.6, "fp16": 165.2, "bf16": 165.2, "tbps": 1.008,
   "source": "NVIDIA Ada Lovelace GPU architecture whitepaper, RTX 4090 specifications, "
             "https://images.nvidia.com/aem-dam/Solutions/geforce/ada/nvidia-ada-gpu-architecture.pdf "
             "(FP16/BF16 tensor with FP32 accumulate 165.2 dense / 330.4 sparse; TF32 82.6 dense; FP32 82.6; 1,008 GB/s)"},
  {"name": "GeForce RTX 3090", "match": ["RTX 3090"], "fp32": 35.6, "tf32": 35.6, "fp16": 71.0, "bf16": 71.0, "tbps": 0.936,
   "source": "NVIDIA Ampere GA102 GPU architecture whitepaper, RTX 3090 specifications, "
             "https://www.nvidia.com/content/PDF/nvidia-ampere-ga-102-gpu-architecture-whitepaper-v2.pdf "
             "(FP16/BF16 tensor with FP32 accumulate 71 dense / 142 sparse; TF32 35.6 dense; FP32 35.6; 936 GB/s)"},
]

def lookup_gpu(device_name:str) -> dict|None:
  """The first entry of KNOWN_GPUS whose `match` strings all occur in `device_name` (case-insensitive), else None.
  Device names look like 'NVIDIA H200', 'NVIDIA H100 80GB HBM3', 'NVIDIA H100 PCIe', 'NVIDIA A100-SXM4-80GB',
  'NVIDIA GeForce RTX 4090'."""
  name = device_name.lower()
  return next((g for g in KNOWN_GPUS if all(m.lower() in name for m in g["match"])), None)

def peak_tflops(gpu:dict, dtype:str, tf32:bool=False) -> float:
  """The matmul peak of a KNOWN_GPUS entry for a dtype name ('float32', 'float16', 'bfloat16'): float32 uses the
  ordinary cores unless TF32 tensor cores are allowed."""
  if dtype == "float32": return gpu["tf32"] if tf32 else gpu["fp32"]
  return {"float16": gpu["fp16"], "bfloat16": gpu["bf16"]}[dtype]

# Measured on one NVIDIA H200 (driver 580, CUDA 13), tinygrad 0.14.0 from its wheel, PyTorch 2.11, on 2026-11-22;
# kernel-only medians of 10 runs, TFLOPS (workbook notes, section 13b). Not measured by this module's own run.
REFERENCE = {
  "gpu": "NVIDIA H200", "date": "2026-11-22", "tinygrad": "0.14.0", "torch": "2.11", "driver": "580", "cuda": "13",
  # (n, dtype): {"beam0": TFLOPS, "beam2": TFLOPS, "beam2_search_s": seconds, "cublas": TFLOPS, "cublas_tf32": TFLOPS}
  "matmul": {
    (1024, "float32"): {"beam0": 6.8, "cublas": 23.5},
    (1024, "float16"): {"beam0": 38.2, "cublas": 57.5},
    (4096, "float32"): {"beam0": 7.3, "beam2": 35.7, "beam2_search_s": 19.5, "cublas": 48.6, "cublas_tf32": 358.0},
    (4096, "float16"): {"beam0": 68.3, "beam2": 106.2, "beam2_search_s": 37.7, "cublas": 623.0},
    (4096, "bfloat16"): {"beam0": 42.3, "beam2": 75.7, "beam2_search_s": 50.3, "cublas": 641.0},
    (8192, "float32"): {"beam0": 7.4, "cublas": 50.5, "cublas_tf32": 420.0},
    (8192, "float16"): {"beam0": 77.3, "cublas": 747.0},
    (8192, "bfloat16"): {"beam0": 46.9, "cublas": 814.0},
  },
  # elementwise a + b in float32 (3 x 4 bytes per element): TB/s
  "bandwidth": {("add", 2**28): 2.5, ("add", 2**24): 2.2},
  "torch_copy_tbps": 4.3,
}
