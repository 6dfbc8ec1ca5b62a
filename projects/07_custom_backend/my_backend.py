"""my_backend.py: a tinygrad 0.14 device named MY, built from ctypes memory, clang and ctypes.CDLL.

You write the parts marked `raise NotImplementedError()`; the notebook 07_custom_backend.ipynb explains each one and
tests it. Everything else here is given. After `import my_backend`, `Tensor(..., device="MY")` and `DEV=MY` work.

Why a file and not a notebook cell: when a schedule has more than one kernel, tinygrad renders and compiles them in
*spawned* worker processes. It sends them the renderer by class reference (`my_backend.MyRenderer`), so each worker
must be able to `import my_backend`: the class must live in an importable module (Task 4.1).

Map of the file (compare with tinygrad/runtime/ops_cpu.py, tinygrad/device.py, tinygrad/runtime/support/compiler_cpu.py):
  part A  MyBuffer (given), MyAllocator       memory: alloc, copy in, copy out, sub-buffer views
  part B  MyCompiler                          C source -> shared library bytes (clang in a subprocess)
  part C  MyProgram                           load the bytes (ctypes.CDLL) and call the kernel
  part D  MyRenderer (given), MyDevice, register()   glue: a Compiled device that tinygrad finds by name
"""
from __future__ import annotations
import ctypes, os, platform, subprocess, sys, tempfile, threading, time
import numpy as np
from tinygrad.device import Compiled, LRUAllocator, BufferSpec, Compiler, CompileError, Program, TinyELF
from tinygrad.renderer.cstyle import ClangRenderer
from tinygrad.helpers import Target

# ---------------------------------------------------------------------------------------------------------------------
# Part A: memory

ALIGN = 64  # bytes. The generated C declares its vector types (float4, ...) aligned, so clang uses aligned vector loads

class MyBuffer:
  """What MyAllocator hands out (the "opaque" buffer that tinygrad passes back to the allocator and to programs).

  addr: the address of the first byte (an int); size: the number of bytes; mem: the Python object that owns the memory.
  A view (a sub-buffer) shares `mem` with its base, so the memory stays alive as long as any view of it does."""
  def __init__(self, addr:int, size:int, mem:object):
    self.addr, self.size, self.mem = addr, size, mem
  def __repr__(self): return f"MyBuffer(addr=0x{self.addr:x}, size={self.size})"

def mv_address(mv:memoryview) -> int:
  """The address of the first byte of a (contiguous) memoryview, writable or read-only. Given; for ctypes.memmove.
  The address stays valid as long as `mv` is alive."""
  return np.frombuffer(mv, dtype=np.uint8).ctypes.data

class MyAllocator(LRUAllocator):
  """Memory for the MY device. LRUAllocator (tinygrad) keeps freed buffers for reuse; we only write the `_` methods."""

  def _alloc(self, size:int, options:BufferSpec) -> MyBuffer:
    """Return a MyBuffer of `size` bytes (size >= 1) whose `addr` is a multiple of ALIGN (64), with `mem` the Python
    object that owns the memory (one that exposes it as a buffer: memoryview(mem) works): the bytes addr .. addr+size-1
    lie inside the memory of `mem` and stay valid and writable as long as `mem` is alive, and buffers alive at the same
    time never overlap. Freed by Python when nothing refers to `mem` any more.

    The memory budget (graded on cases you do not see): the buffers alive at one time hold together, counting each
    distinct `mem` object once by its bytes (memoryview(mem).nbytes), at most 1.1 times the sum of their sizes, each
    rounded up to a multiple of 64, plus 64 KiB; many small buffers as well as a few, or a few large ones.
    `options` (a BufferSpec) can be ignored here. (Task 1.1; `autograder hint 07 1.1`)"""
    # YOUR CODE HERE
    raise NotImplementedError()

  def _copyin(self, dest:MyBuffer, src:memoryview):
    """Copy the src.nbytes bytes of `src` (host memory, possibly read-only) to the first src.nbytes bytes of the
    device buffer `dest`; the rest of `dest` is left as it was. (src.nbytes <= dest.size)"""
    # YOUR CODE HERE
    raise NotImplementedError()

  def _copyout(self, dest:memoryview, src:MyBuffer):
    """Copy the first dest.nbytes bytes of the device buffer `src` into the host memoryview `dest` (writable, possibly
    a slice of a larger array: only its own bytes change). (dest.nbytes <= src.size)"""
    # YOUR CODE HERE
    raise NotImplementedError()

  def _offset(self, buf:MyBuffer, size:int, offset:int) -> MyBuffer:
    """A MyBuffer for the `size` bytes that start `offset` bytes into `buf`: a view, not a copy (its addr is
    buf.addr + offset; writes through either one are seen in the other), which keeps the memory alive by itself,
    even after `buf` is dropped. tinygrad's memory planner uses views to carve the intermediate buffers of a schedule
    out of one big allocation. (Task 1.1; `autograder hint 07 1.1`)"""
    # YOUR CODE HERE
    raise NotImplementedError()

# ---------------------------------------------------------------------------------------------------------------------
# Part B: compiler

class MyCompiler(Compiler):
  """Turns the C source that the renderer wrote into the bytes of a shared library (.so)."""
  def __init__(self):
    super().__init__(None)   # cachekey None: no on-disk cache, so a fixed bug never hides behind an old cached binary

  def compile(self, src:str) -> bytes:
    """The bytes of a shared library (on Linux an ELF file of type 3, starting with b'\\x7fELF') built by clang from
    the C source `src`, which ctypes.CDLL can load and which exports src's functions. Safe to call from several
    threads at once (tinygrad compiles in parallel); leaves no file behind.

    The clang flags are your decision, graded by three outcomes: the library is compiled for this machine's instruction
    set as tinygrad's CPU device compiles its kernels (every target feature macro of the test's list, such as __AVX2__,
    __FMA__ or __ARM_FEATURE_DOTPROD, that clang defines for the CPU device's kernels is defined when your library is
    compiled); a kernel of tinygrad's C renderer compiled here gives, bit for bit, what the CPU device's build of the
    same C gives, on every input, NaN, infinities and -0.0 included; and a matmul kernel compiled here runs at least
    0.4x as fast as the same kernel on tinygrad's own CPU device (the race at the end of Part E, timed from the notebook's
    process).

    If the C does not compile, raise CompileError (from tinygrad.device) whose message holds clang's own message: the
    line and column of the error and what it is, e.g. "...:2:11: error: expected expression", followed by the offending
    line as clang quotes it ("int x = ;").
    A failed compile leaves the compiler usable. (Task 2.1)"""
    # YOUR CODE HERE
    raise NotImplementedError()

# ---------------------------------------------------------------------------------------------------------------------
# Part C: program

class MyProgram(Program):
  """One compiled kernel, loaded and ready to call. tinygrad builds it with `MyDevice.runtime(obj)` -> MyProgram(dev, obj)."""
  def __init__(self, dev:MyDevice, obj:TinyELF):
    """Load `obj.lib` (the bytes from MyCompiler.compile) so that calling this program runs the function `obj.name`
    of THIS library, even when other programs, loaded before or after, define a function of the same name.

    `obj.signature` lists the kernel's parameters in order, as (name, slot, dtype, shape): the buffers first, then the
    scalar variables. One of them may be named 'core_id' (a thread id, when the kernel was split over CPU threads):
    set `self.core_id_slot` to its slot, or None when there is none. (Task 3.1; `autograder hint 07 3.1`)"""
    self.dev, self.name, self.signature = dev, obj.name, obj.signature
    # YOUR CODE HERE
    raise NotImplementedError()

  def __call__(self, *bufs:MyBuffer, global_size:tuple[int,int,int]=(1,1,1), local_size:tuple[int,int,int]|None=(1,1,1),
               vals:tuple[int|None, ...]=(), wait:bool=False, timeout:int|None=None) -> float|None:
    """Run the kernel on the buffers `bufs` (in signature order) and the scalar parameters `vals` (the values of the
    scalar slots, in order; the entry at the 'core_id' slot is None). A kernel with a core_id runs once for each
    tid in 0, 1, ..., global_size[0] - 1, with core_id = tid; a kernel without one runs exactly
    once, whatever global_size says. Scalars may be negative or large (any C int).

    The runs of a kernel with a core_id run at the same time, each on a thread of its own (all global_size[0] of them
    at once: a kernel may rely on it, as one whose runs wait for each other does), and the call returns when all have
    finished.

    Returns None when `wait` is false; when it is true, the seconds (a float) that all of the kernel's runs of this
    call took together, as the clock around them would measure. `local_size` and `timeout` can be ignored (a CPU has
    no work groups, and a call here cannot be interrupted). (Task 3.1)"""
    # YOUR CODE HERE
    raise NotImplementedError()

# ---------------------------------------------------------------------------------------------------------------------
# Part D: renderer (given) and device

ARCH = {"amd64": "x86_64", "aarch64": "arm64"}.get(m := platform.machine().lower(), m) + ",native"

class MyRenderer(ClangRenderer):
  """tinygrad's C renderer, carrying our compiler (in 0.14 the compiler hangs off the renderer). Given.
  tinygrad builds it as MyRenderer(target) in the main process and in each compile worker (by class reference)."""
  def __init__(self, target:Target):
    super().__init__(target)
    self.compiler = MyCompiler()

class MyDevice(Compiled):
  """The device. tinygrad opens it with MyDevice("MY") the first time Device["MY"] is used."""
  def __init__(self, device:str):
    """A Compiled device (tinygrad.device) named `device` whose allocator is a MyAllocator of this device, whose
    renderer is a MyRenderer (carrying a MyCompiler), whose program class is MyProgram and whose arch is ARCH (above).
    (Task 4.1)"""
    # YOUR CODE HERE
    raise NotImplementedError()

def register():
  """Make `Device["MY"]` find MyDevice: afterwards importlib.import_module("tinygrad.runtime.ops_my") returns this
  module (tinygrad then takes its member named, case-insensitively, "MyDevice"). (Task 4.1)

  And make it work in tinygrad's compile workers too (Task 4.1): after this module was imported, a schedule of
  several kernels realizes on MY with PARALLEL > 0, however the script imported it: by name (`import my_backend`
  with its folder on sys.path), or from its file path (importlib.util.spec_from_file_location, then
  sys.modules["my_backend"] set, as notebook and test runners do), from any working directory, with this file's
  folder on neither sys.path nor PYTHONPATH when the script started. Importing it twice is harmless."""
  # YOUR CODE HERE
  raise NotImplementedError()

try: register()
except NotImplementedError: pass   # part D not written yet: the module still imports, so parts A-C can be tested

