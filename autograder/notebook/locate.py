"""Runs in the notebook's kernel during a self-check: when an error is raised inside a library (tinygrad compiling a
rule function of the learner's, say: "closures are not supported in pattern matchers") and no frame of the traceback
is the learner's, find the learner's function that the library was working on (a local of one of the library's
frames, defined in a notebook cell) and add a frame line for it, so that the self-check can point at its line."""
from __future__ import annotations
import types

def _cell_function(value, cells:dict) -> types.FunctionType|None:
  fn = getattr(value, "__func__", value)
  return fn if isinstance(fn, types.FunctionType) and fn.__code__.co_filename in cells else None

def culprit(tb, cells:dict[str, int]) -> str|None:
  """A frame line for the notebook function the library frames below the last notebook frame held, deepest first;
  None when the error was raised in a notebook cell itself. `cells` maps a cell's file name to its `In[n]` number."""
  frames = []
  while tb is not None: frames.append(tb.tb_frame); tb = tb.tb_next
  last = max((i for i, f in enumerate(frames) if f.f_code.co_filename in cells), default=None)
  if last is None or last == len(frames) - 1: return None
  for frame in reversed(frames[last + 1:]):
    for value in list(frame.f_locals.values()):
      if (fn := _cell_function(value, cells)) is not None:
        return (f"Cell In[{cells[fn.__code__.co_filename]}], line {fn.__code__.co_firstlineno}, in {fn.__name__} "
                f"(your function, which {frame.f_code.co_name} was handling when it raised)")
  return None

def install():
  """Show every error as IPython does, with the extra frame line when there is one."""
  from IPython import get_ipython
  shell = get_ipython()
  if shell is None: return
  def handler(self, etype, value, tb, tb_offset=None):
    stb = self.InteractiveTB.structured_traceback(etype, value, tb, tb_offset=tb_offset)
    try: extra = culprit(tb, dict(getattr(self.compile, "_filename_map", {})))
    except Exception: extra = None
    stb = stb[:-1] + [extra] + stb[-1:] if extra and stb else stb
    self._showtraceback(etype, value, stb)
    return stb
  shell.set_custom_exc((Exception,), handler)
