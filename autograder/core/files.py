"""Reading a file that a learner controls: only a regular file inside the given folder, reached without following any
symbolic link (the folder itself included), no larger than MAX_FILE_BYTES, read through a descriptor that is checked
again after it is opened, so that nothing can be swapped in between the check and the read."""
from __future__ import annotations
import os, stat
from pathlib import Path

MAX_FILE_BYTES = 64 << 20

def safe_file(root:Path, relative:str|Path) -> Path|None:
  """`root/relative` if it is a regular file reached without following any symbolic link (the root included) and no
  larger than MAX_FILE_BYTES; else None."""
  path = Path(root)
  try:
    if stat.S_ISLNK(os.lstat(path).st_mode): return None
    for part in Path(relative).parts:
      if part in ("..", "/"): return None
      path = path / part
      mode = os.lstat(path).st_mode
      if stat.S_ISLNK(mode): return None
    return path if stat.S_ISREG(mode) and os.lstat(path).st_size <= MAX_FILE_BYTES else None
  except OSError: return None

def read_safe(root:Path, relative:str|Path) -> bytes|None:
  """The bytes of `root/relative` when `safe_file` accepts it, read through a descriptor opened without following a
  link and checked again (a regular file, not too large) after opening: no window between the check and the read."""
  path = safe_file(root, relative)
  if path is None: return None
  try: fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
  except OSError: return None
  try:
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_FILE_BYTES: return None
    with os.fdopen(fd, "rb", closefd=False) as f: data = f.read(MAX_FILE_BYTES + 1)
    return data if len(data) <= MAX_FILE_BYTES else None
  except OSError: return None
  finally: os.close(fd)
