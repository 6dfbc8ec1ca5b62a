"""The vendor side of the benchmark (PyTorch: cuBLAS on an NVIDIA GPU, oneDNN/MKL on the CPU) and the device's peaks.

Given, not an exercise: the notebook's tasks measure tinygrad; these helpers measure the library it is compared with,
in the same way (kernel time only, median of repeats after a warm-up), and find the roofline's two numbers.
"""
from __future__ import annotations
import ctypes, functools, time
import numpy as np
import torch
from known_gpus import lookup_gpu, peak_tflops

def is_gpu(device:str) -> bool:
  """Whether a tinygrad device name is an NVIDIA GPU ('CUDA', 'CUDA:1', 'CUDA:PTX', 'NV', ...)."""
  return device.split(":")[0].upper() in ("CUDA", "NV")

def torch_device(device:str) -> str:
  """The PyTorch device for a tinygrad device: 'cuda' for an NVIDIA GPU, 'cpu' otherwise."""
  return "cuda" if is_gpu(device) else "cpu"

class tf32_matmuls:
  """`with tf32_matmuls(True):` lets cuBLAS use TF32 tensor cores for float32 matmuls (False: IEEE float32).
  Uses PyTorch's new API only (`fp32_precision`): mixing it with the old `allow_tf32` flag raises an error."""
  def __init__(self, on:bool): self.on = on
  def __enter__(self):
    m = torch.backends.cuda.matmul
    self.prev = m.fp32_precision
    m.fp32_precision = "tf32" if self.on else "ieee"
  def __exit__(self, *exc): torch.backends.cuda.matmul.fp32_precision = self.prev

def torch_matmul(a:torch.Tensor, b:torch.Tensor, tf32:bool=False, warmup:int=2, repeats:int=5) -> dict:
  """Time `torch.matmul(a, b)`, kernel only: {"out": the product, "times": seconds per timed run, "seconds": their
  median}. On a GPU each run is timed by CUDA events recorded around the call (the GPU's own clock, like tinygrad's
  `wait=True`); on the CPU by time.perf_counter() (the call is synchronous there)."""
  out = torch.empty((a.shape[0], b.shape[1]), dtype=a.dtype, device=a.device)
  times = []
  with tf32_matmuls(tf32):
    for i in range(warmup + repeats):
      if a.is_cuda:
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record(); torch.matmul(a, b, out=out); end.record(); end.synchronize()
        seconds = start.elapsed_time(end) / 1e3
      else:
        st = time.perf_counter(); torch.matmul(a, b, out=out); seconds = time.perf_counter() - st
      if i >= warmup: times.append(seconds)
  return {"out": out, "times": times, "seconds": float(np.median(times))}

@functools.cache
def torch_copy_seconds(nbytes:int, device:str, warmup:int=2, repeats:int=5) -> float:
  """Median seconds of a device-to-device copy of `nbytes` bytes with PyTorch (reads and writes nbytes each)."""
  src = torch.ones(nbytes // 4, dtype=torch.float32, device=torch_device(device))
  dst = torch.empty_like(src)
  times = []
  for i in range(warmup + repeats):
    if src.is_cuda:
      start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
      start.record(); dst.copy_(src); end.record(); end.synchronize()
      seconds = start.elapsed_time(end) / 1e3
    else:
      st = time.perf_counter(); dst.copy_(src); seconds = time.perf_counter() - st
    if i >= warmup: times.append(seconds)
  return float(np.median(times))

def gpu_name(device:str="CUDA") -> str:
  """The name of the NVIDIA GPU behind a tinygrad device, e.g. 'NVIDIA H200' (PyTorch's name if it sees the GPU,
  else asked from the CUDA driver through tinygrad's bindings)."""
  index = int(device.split(":")[1]) if device.count(":") and device.split(":")[1].isdigit() else 0
  if torch.cuda.is_available(): return torch.cuda.get_device_name(index)
  from tinygrad import Device
  from tinygrad.runtime.autogen import cuda
  buf = ctypes.create_string_buffer(256)
  cuda.cuDeviceGetName(buf, 256, Device[device].cu_device)
  return buf.value.decode()

@functools.cache
def measure_peaks(device:str, dtype:str="float32", tf32:bool=False, n:int|None=None, nbytes:int|None=None) -> dict:
  """Peaks measured when the device is not in the table of known GPUs (the CPU, an unlisted GPU): the best PyTorch
  matmul of n x n `dtype` matrices (TFLOPS) and the median PyTorch copy of nbytes (TB/s, bytes read + written).
  These are figures a real library reaches here, not the hardware's limits; measured once per process (cached)."""
  tdev, gpu = torch_device(device), is_gpu(device)
  n = n or (8192 if gpu else 512)
  nbytes = nbytes or ((1 << 30) if gpu else (32 << 20))
  tdt = getattr(torch, dtype)
  g = torch.Generator(device="cpu").manual_seed(0)
  a = torch.rand((n, n), generator=g).to(tdev, tdt)
  b = torch.rand((n, n), generator=g).to(tdev, tdt)
  best = min(torch_matmul(a, b, tf32=tf32, warmup=2, repeats=5)["times"])
  copy = torch_copy_seconds(nbytes, device)
  return {"device": gpu_name(device) if gpu else "CPU", "tflops": 2 * n ** 3 / best / 1e12, "tbps": 2 * nbytes / copy / 1e12,
          "source": f"measured here: best PyTorch {n}x{n} {dtype} matmul{' (TF32)' if tf32 else ''}, PyTorch copy of {nbytes >> 20} MiB"}

def device_peaks(device:str, dtype:str="float32", tf32:bool=False) -> dict:
  """The roofline's two numbers for `device` and `dtype`: {"device", "tflops" (peak compute), "tbps" (peak memory
  bandwidth), "source"}. From KNOWN_GPUS when the GPU is listed there (vendor figures), else measured."""
  if is_gpu(device) and (gpu := lookup_gpu(name := gpu_name(device))) is not None:
    return {"device": name, "tflops": peak_tflops(gpu, dtype, tf32), "tbps": gpu["tbps"], "source": f"datasheet ({gpu['name']}): {gpu['source']}"}
  return measure_peaks(device, dtype, tf32)
