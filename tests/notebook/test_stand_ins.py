"""notebook/stand_ins.py: a name replaced in every namespace at once and put back, and a recording fake."""
import types
import pytest
from autograder.notebook.stand_ins import Recorder, replaced

def test_replaced_swaps_a_name_in_modules_and_dicts_and_puts_them_back():
  mod = types.SimpleNamespace(run=lambda: "real")
  glob = {"run": mod.run}
  real = mod.run
  with replaced([mod, glob], "run", lambda: "fake") as fake:
    assert mod.run() == glob["run"]() == "fake" and fake() == "fake"
  assert mod.run is real and glob["run"] is real
  with pytest.raises(RuntimeError):
    with replaced([mod, glob], "run", None): raise RuntimeError("the block fails")
  assert mod.run is real and glob["run"] is real                 # put back however the block ends

def test_a_name_that_was_not_there_is_removed_again():
  mod, glob = types.SimpleNamespace(), {}
  with replaced([mod, glob], "extra", 1): assert mod.extra == glob["extra"] == 1
  assert not hasattr(mod, "extra") and "extra" not in glob

def test_recorder_records_calls_in_order_and_answers():
  log = []
  a, b = Recorder(lambda x, y=0: x + y, "a", log), Recorder(name="b", log=log)
  assert a(1, y=2) == 3 and b() is None and a(5) == 5
  assert a.calls == [((1,), {"y": 2}), ((5,), {})] and a.count == 2 and log == ["a", "b", "a"]
