"""`autograder check NN --task X.Y`: only the cells a task's tests need (the set-up cut to what they read), and
`autograder progress` from the last checks. On the toy course."""
import json
from autograder.cli import main
from autograder.learner.selfcheck import LAST_CHECK
from toy_course import answer

def test_check_of_one_task_and_progress(course, capsys):
  _, projects = course
  answer(projects, "ans_double", "def double(x):\n    return 2 * x")
  p = ["--projects", str(projects)]
  assert main(["progress", *p]) == 0
  assert "01_toy                   never checked" in capsys.readouterr().out
  assert main(["check", "01", "--task", "1.1", *p]) == 0
  out = capsys.readouterr().out
  assert "passed          test_double" in out and "test_square" not in out and "1/1 visible checks passed" in out
  assert main(["check", "01", "--task", "4.2", *p]) == 2
  assert "its tasks: 1.1, 1.2" in capsys.readouterr().err
  assert main(["check", "01", *p]) == 1
  answer(projects, "ans_square", "def square(x):\n    return x * x")
  assert main(["check", "01", "--task", "Task 1.2", *p]) == 0               # updates Task 1.2, keeps Task 1.1's result
  capsys.readouterr()
  last = json.loads((projects / "01_toy" / LAST_CHECK).read_text())
  assert {k: v["status"] for k, v in last["tests"].items()} == {"test_double": "passed", "test_square": "passed"}
  assert main(["progress", "01", *p]) == 0
  out = capsys.readouterr().out
  assert "01_toy                   2/2 visible checks passed (5/5 points before hidden checks)" in out
  assert "Task 1.1   ok       [hints opened: 0 of 2]" in out and "02_toy" not in out

def test_check_of_one_task_runs_only_the_cells_it_needs():
  from nbformat.v4 import new_notebook, new_code_cell, new_markdown_cell
  from toy_course import meta
  from autograder.learner.selfcheck import task_cells
  nb = new_notebook(cells=[
    new_code_cell("import os\nos.environ.setdefault('X', '1')", metadata=meta("setup")),              # 0 set-up: acts
    new_markdown_cell("**Task 1.1**"), new_code_cell("def f(x):\n    return x", metadata=meta("ans_f", solution=True)),
    new_code_cell("data = [f(i) for i in range(3)]"),                                              # 3 needed by 2.1's test
    new_code_cell("slow_demo = sum(range(10**8))"),                                                # 4 not needed
    new_code_cell("check(f(1) == 1, 'f')", metadata=meta("test_f", grade=True, points=1)),         # 5 another task's test
    new_markdown_cell("**Task 2.1**"), new_code_cell("def g(x):\n    return x", metadata=meta("ans_g", solution=True)),
    new_code_cell("check(g(data) == data, 'g')", metadata=meta("test_g", grade=True, points=1)),   # 8
    new_code_cell("after = g(1)")])
  nb.cells.insert(1, new_code_cell("for k in range(3): print(k)"))                                   # 1 a demo before the answers
  assert list(task_cells(nb, "Task 2.1")) == [0, 3, 4, 8, 9]
  assert list(task_cells(nb, "Task 1.1")) == [0, 3, 6]

def test_check_of_one_task_cuts_the_set_up_cell_to_what_it_needs():
  """A set-up statement that stores only names no kept cell reads becomes an empty line (line numbers stay); what acts,
  `import *`, and what a kept statement reads stay."""
  from nbformat.v4 import new_notebook, new_code_cell, new_markdown_cell
  from toy_course import meta
  from autograder.learner.selfcheck import task_cells
  setup = ("import os\nos.environ.setdefault('X', '1')\nimport torch\nimport numpy as np\nfrom math import *\n"
           "try:\n    import json\nexcept ImportError:\n    json = None\nif True:\n    os.environ['Y'] = '2'\n"
           "def helper(x):\n    return np.asarray(x)\nunused = helper(1)\n%matplotlib inline\n"
           "@contextlib.contextmanager\ndef unused_block():\n    yield")
  nb = new_notebook(cells=[new_code_cell(setup, metadata=meta("setup")), new_markdown_cell("**Task 1.1**"),
                           new_code_cell("def f(x):\n    return helper(x)", metadata=meta("ans_f", solution=True)),
                           new_code_cell("check(f(1) == 1, 'f')", metadata=meta("test_f", grade=True, points=1))])
  cut = task_cells(nb, "Task 1.1")[0].splitlines()
  assert len(cut) == len(setup.splitlines())
  kept = {line for line in cut if line}
  assert kept == {"import os", "os.environ.setdefault('X', '1')", "import numpy as np", "from math import *", "if True:",
                  "    os.environ['Y'] = '2'", "def helper(x):", "    return np.asarray(x)"}, kept
