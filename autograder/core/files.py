"""Reading a file that a learner controls: only a regular file inside the given folder, reached without following any
symbolic link (the folder itself included), no larger than MAX_FILE_BYTES, read through a descriptor that is checked
again after it is opened, so that nothing can be swapped in between the check and the read. `readable` is the one
definition of what grading reads (grade-all's resume hashes what grading read, through `read_safe`); `too_many` is the
cap on the files of a learner's module folder; `shown` writes any file name as text a report can hold."""
from __future__ import annotations
import os, stat
from pathlib import Path

MAX_FILE_BYTES = 64 << 20
MAX_ENTRIES = 10_000           # files and folders a learner's module folder may hold (every module of the course has under 10)

def readable(st:os.stat_result) -> bool:
  """What grading reads: a regular file of at most MAX_FILE_BYTES (the limit included)."""
  return stat.S_ISREG(st.st_mode) and st.st_size <= MAX_FILE_BYTES

def safe_file(root:Path, relative:str|Path) -> Path|None:
  """`root/relative` if it is a regular file reached without following any symbolic link (the root included) and no
  larger than MAX_FILE_BYTES; else None."""
  path = Path(root)
  try:
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode): return None
    for part in Path(relative).parts:
      if part in ("..", "/"): return None
      path = path / part
      st = os.lstat(path)
      if stat.S_ISLNK(st.st_mode): return None
    return path if readable(st) else None                 # (no part at all: the root, a folder)
  except OSError: return None

def refusal(root:Path, relative:str|Path) -> str:
  """Why `read_safe` gives None for `root/relative`: '' when there is no such file, else a reason a learner can act on
  (no file name in it: the caller names the file)."""
  path = Path(root)
  try:
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode): return "a symbolic link is not followed"
    for part in Path(relative).parts:
      path = path / part
      st = os.lstat(path)
      if stat.S_ISLNK(st.st_mode): return "a symbolic link is not followed"
  except OSError: return ""
  if not stat.S_ISREG(st.st_mode): return "it is not a regular file"
  return f"it is larger than {MAX_FILE_BYTES >> 20} MiB, the most the grader reads" if st.st_size > MAX_FILE_BYTES else ""

def read_safe(root:Path, relative:str|Path) -> bytes|None:
  """The bytes of `root/relative` when `safe_file` accepts it, read through a descriptor opened without following a
  link and checked again (a regular file, not too large) after opening: no window between the check and the read."""
  path = safe_file(root, relative)
  if path is None: return None
  try: fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
  except OSError: return None
  try:
    if not readable(os.fstat(fd)): return None
    with os.fdopen(fd, "rb", closefd=False) as f: data = f.read(MAX_FILE_BYTES + 1)
    return data if len(data) <= MAX_FILE_BYTES else None
  except OSError: return None
  finally: os.close(fd)

def too_many(folder:Path, limit:int|None=None) -> int:
  """The cap (`limit`, default MAX_ENTRIES) when `folder` holds more files and folders than it below it, no link
  followed, else 0; the count stops at the first one over, so a folder of a million files costs what one at the cap
  does. A folder that cannot be listed (too deep a path, no permission) counts as itself: nothing below it can be read
  either."""
  limit, count, todo = MAX_ENTRIES if limit is None else limit, 0, [os.fsencode(folder)]
  try:
    if not stat.S_ISDIR(os.lstat(todo[0]).st_mode): return 0
  except OSError: return 0
  while todo:
    try:
      with os.scandir(todo.pop()) as entries:
        for entry in entries:
          count += 1
          if count > limit: return limit
          try:
            if entry.is_dir(follow_symlinks=False): todo.append(entry.path)
          except OSError: pass
    except OSError: pass
  return 0

def shown(name:str|Path) -> str:
  """A file or folder name as text any report can hold: the bytes that are not UTF-8 written as \\xNN (a name that is
  UTF-8 is itself). Not an escape for Markdown, HTML or CSV: those writers escape what they write."""
  try: return os.fsencode(name).decode("utf-8", "backslashreplace")
  except UnicodeEncodeError: return str(name).encode("utf-8", "backslashreplace").decode("utf-8")
