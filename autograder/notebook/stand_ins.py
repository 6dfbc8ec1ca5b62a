"""Stand-ins for tests: put a fake in place of a name for the length of a block, wherever the code under test looks it
up, and count what the fake saw.

Code finds a function through a module attribute (`tinygrad.engine.realize.run_linear`) or through a name it imported
into its own globals (`run_linear` in a notebook); a test that replaces one and not the other tests nothing. `replaced`
replaces the name in every namespace given (modules, classes, instances, or dicts such as `globals()`) and puts the
originals back however the block ends. `Recorder` is the fake that records each call's arguments and answers from a
script."""
from __future__ import annotations
import contextlib
from typing import Any, Callable, Iterable

_ABSENT = object()

@contextlib.contextmanager
def replaced(namespaces:Iterable[Any], name:str, value:Any):
  """Within the block, `name` is `value` in each namespace (a dict is changed by key, anything else by attribute);
  afterwards each holds what it held before (or nothing, where it held nothing)."""
  spaces = list(namespaces)
  get = lambda ns: ns.get(name, _ABSENT) if isinstance(ns, dict) else ns.__dict__.get(name, _ABSENT) if hasattr(ns, "__dict__") else getattr(ns, name, _ABSENT)
  saved = [get(ns) for ns in spaces]
  try:
    for ns in spaces:
      if isinstance(ns, dict): ns[name] = value
      else: setattr(ns, name, value)
    yield value
  finally:
    for ns, old in zip(spaces, saved):
      if old is _ABSENT:
        if isinstance(ns, dict): ns.pop(name, None)
        else:
          try: delattr(ns, name)
          except AttributeError: pass
      elif isinstance(ns, dict): ns[name] = old
      else: setattr(ns, name, old)

class Recorder:
  """A fake function: records (args, kwargs) of each call in `calls` and returns `answer(*args, **kwargs)` (None when
  no answer is given). `log`, a list, gets `name` at each call (to check the order of several fakes' calls)."""
  def __init__(self, answer:Callable|None=None, name:str="call", log:list|None=None):
    self.answer, self.name, self.log, self.calls = answer, name, log, []
  def __call__(self, *args, **kwargs):
    self.calls.append((args, kwargs))
    if self.log is not None: self.log.append(self.name)
    return self.answer(*args, **kwargs) if self.answer is not None else None
  @property
  def count(self) -> int: return len(self.calls)
