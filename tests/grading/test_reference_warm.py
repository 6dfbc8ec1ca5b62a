"""A module's two reference runs, the hidden one and the visible one (release's), compile nearly the same kernels: the
second starts from the tinygrad cache the first left, whichever pytest worker or grader ran the first."""
import sqlite3
from contextlib import closing, contextmanager
from autograder.grading import runs
from autograder.grading.runs import merge_db, reference
from toy_course import answer, write_toy_course

def _cache(path, rows, table="compile_clang_jit_22"):
  with closing(sqlite3.connect(path)) as db:
    db.execute(f"CREATE TABLE IF NOT EXISTS '{table}' (key text, val blob, PRIMARY KEY (key))")   # as tinygrad's diskcache
    db.executemany(f"REPLACE INTO '{table}' (key, val) VALUES (?, ?)", rows)
    db.commit()

def _rows(path) -> dict:
  with closing(sqlite3.connect(path)) as db:
    tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {t: sorted(db.execute(f"SELECT key, val FROM '{t}'")) for t in tables}

def test_merge_adds_what_the_cache_lacks_and_keeps_what_it_has(tmp_path):
  mine, theirs = tmp_path / "mine.db", tmp_path / "theirs.db"
  _cache(mine, [("k1", b"mine")])
  _cache(theirs, [("k1", b"theirs"), ("k2", b"two")])
  _cache(theirs, [("b1", b"beam")], table="beam_search_22")
  merge_db(theirs, mine)
  want = {"compile_clang_jit_22": [("k1", b"mine"), ("k2", b"two")], "beam_search_22": [("b1", b"beam")]}
  assert _rows(mine) == want
  merge_db(tmp_path / "absent.db", mine)
  merge_db(None, mine)
  assert _rows(mine) == want and _rows(theirs)["compile_clang_jit_22"] == [("k1", b"theirs"), ("k2", b"two")]

TEST = ("check_equal(double(2), 4, name='double(2)')\n"
        "check_equal((Tensor([1.0, 2.0]) * 3).sum().item(), 9.0, name='a compiled kernel')\n"
        "### BEGIN HIDDEN TESTS\ncheck_equal(double(3), 6, name='double(3)')\n### END HIDDEN TESTS")

def test_the_second_reference_run_starts_from_the_kernels_the_first_compiled(tmp_path, monkeypatch):
  source = write_toy_course(tmp_path, modules=("01_toy",))
  answer(source, "setup", "from autograder import check_equal\nfrom tinygrad import Tensor")
  answer(source, "test_double", TEST)
  monkeypatch.setenv("AUTOGRADER_CACHE", str(tmp_path / "cache"))
  seen, real = [], runs.run_folder
  @contextmanager
  def spy(*args, **kwargs):
    with real(*args, **kwargs) as (run_dir, workdir, env):
      seen.append(sum(len(rows) for rows in _rows(run_dir / "cache.db").values()) if (run_dir / "cache.db").is_file() else 0)
      yield run_dir, workdir, env
  monkeypatch.setattr(runs, "run_folder", spy)
  for n, visible in enumerate((False, True)):
    monkeypatch.setenv("CACHEDB", str(tmp_path / f"worker{n}.db"))      # each run on a worker of its own, its cache empty
    assert reference("01_toy", source, visible=visible)["status"] == "completed"
  assert seen[0] == 0 and seen[1] > 0, seen
