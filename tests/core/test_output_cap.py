"""core/execute.py's caps on what a kernel prints, on their own (no kernel): a cell keeps at most MAX_CELL_OUTPUT bytes
of output and a whole run MAX_NOTEBOOK_OUTPUT, whatever the cells; past either the rest is dropped (observation
records with it) and the client says so. Before the cap per run, 124 MB printed over four cells, each under the cell's
cap, took the grader's own memory from 56 to 204 MB."""
from nbformat.v4 import new_notebook
from autograder.core import execute

def client_of() -> execute.CappedClient:
  client = execute.CappedClient(new_notebook())
  client.reset_execution_trackers(); client.clear_before_next_output = False     # (what nbclient sets as it runs a cell)
  return client

def stream(n:int, cell:int=0) -> dict:
  return {"msg_type": "stream", "header": {"msg_type": "stream"}, "parent_header": {"msg_id": f"cell{cell}"}, "content": {"name": "stdout", "text": "x" * n}}

def record(cell:int=0) -> dict:
  return {"msg_type": "display_data", "header": {"msg_type": "display_data"}, "parent_header": {"msg_id": f"cell{cell}"},
          "content": {"data": {"application/x-check": {"site": "1:1:0", "k": 0}}, "metadata": {}}}

def test_the_caps_per_cell_and_per_run(monkeypatch):
  monkeypatch.setattr(execute, "MAX_CELL_OUTPUT", 100); monkeypatch.setattr(execute, "MAX_NOTEBOOK_OUTPUT", 250)
  client = client_of()
  kept = {i: [] for i in range(4)}
  for cell, n in ((0, 60), (0, 40), (0, 1), (1, 90)):      # cell 0: 100 kept, then 1 byte over its cap; cell 1: 90
    client.output(kept[cell], stream(n, cell), None, cell)
  assert [len(o) for o in kept.values()] == [2, 1, 0, 0] and client.dropped
  client = client_of()
  for cell in range(4):                                    # 4 x 80: each under the cell's cap, the run over its 250 in cell 3
    client.output(kept[cell], stream(80, cell), None, cell)
    assert client.dropped == (cell == 3)
  client.output(kept[3], record(3), None, 3)               # a check's record after the cap: dropped with the rest
  assert [len(o) for o in kept.values()] == [3, 2, 1, 0]

def test_the_caps_and_the_note():
  assert execute.MAX_CELL_OUTPUT == 16 << 20 and execute.MAX_NOTEBOOK_OUTPUT == 32 << 20
  assert not execute.CappedClient(new_notebook()).dropped
  assert execute.OUTPUT_DROPPED == ("the notebook printed more than the grader keeps (16 MiB a cell, 32 MiB a run): the rest of its output "
                                    "was dropped, with the record of any check made after that point")
