"""classroom/unwrap.py on its own: small answer texts that wrap code in strings (plain, base64, hex, zlib, bz2, lzma,
marshal, nested) and what expand and unwrap make of them; the listing's normalisation (names dropped, attributes,
builtins and constants kept) compared between texts rather than pinned, since bytecode changes with the Python
version; the child process's JSON in and out."""
import base64, bz2, json, lzma, marshal, os, subprocess, sys, zlib
import pytest
from autograder.classroom.unwrap import MAX_DEPTH, _is_code, decodings, expand, unwrap
from autograder.core.course import REPO

SRC = "def double(x):\n    return x + x\n"
WRAPPED = (f"import base64\nexec(base64.b64decode({base64.b64encode(SRC.encode()).decode()!r}))\n"
           "run('''for i in range(3):\n    print(i)''')\ndoc = 'just some words here, not code'\n")
EXPANDED = WRAPPED + """
# --- decoded from a string constant (1)
for i in range(3):
    print(i)

# --- decoded from a string constant (2)
def double(x):
    return x + x
"""

def b64(data:bytes) -> str: return base64.b64encode(data).decode()

def test_expand_appends_every_source_found_in_a_string_byte_for_byte():
  out, sources, codes = expand(WRAPPED)
  assert out == EXPANDED and sources == ["for i in range(3):\n    print(i)", SRC] and codes == []
  assert expand("x = 1") == ("x = 1\n", [], [])                          # nothing wrapped: the text, one final newline
  assert expand("def f(:\n") == ("def f(:\n", [], [])                    # a text that does not parse is kept as it is

@pytest.mark.parametrize("wrap", [lambda s: b64(s), lambda s: s.hex(), lambda s: b64(zlib.compress(s)), lambda s: b64(bz2.compress(s)),
                                  lambda s: b64(lzma.compress(s)), lambda s: base64.b85encode(s).decode(), lambda s: b64(b64(s).encode()),
                                  lambda s: b64(b64(b64(s).encode()).encode())], ids=["base64", "hex", "zlib", "bz2", "lzma", "base85", "2 layers", "3 layers"])
def test_a_wrapped_source_is_found(wrap):
  out, sources, codes = expand(f"payload = {wrap(SRC.encode())!r}\n")
  assert sources == [SRC] and out.endswith(f"# --- decoded from a string constant (1)\n{SRC}") and codes == []

def test_four_layers_are_past_the_depth_limit():
  assert MAX_DEPTH == 3
  deep = SRC.encode()
  for _ in range(4): deep = b64(deep).encode()
  assert expand(f"payload = {deep.decode()!r}\n")[1] == []

def test_a_marshalled_code_object_is_found_and_its_bytecode_listed():
  code = compile(SRC, "x", "exec")
  text = f"import marshal, base64\nexec(marshal.loads(base64.b64decode({b64(marshal.dumps(code))!r})))\n"
  out, sources, codes = expand(text)
  assert out == text and sources == [] and [c.co_consts for c in codes] == [code.co_consts]
  got, plain = unwrap(text), unwrap(SRC)
  assert got["decoded"] == 1 and got["text"] == text and plain["decoded"] == 0
  assert got["listing"][-len(plain["listing"]):] == plain["listing"]       # the payload's bytecode is the original's

def test_the_listing_drops_names_and_keeps_attributes_builtins_and_constants():
  one = unwrap("def f(a):\n    return len(a) + helper(a) + a.shape[0] + 2.5\n")["listing"]
  assert one == unwrap("def g(zz):\n    return len(zz) + other(zz) + zz.shape[0] + 2.5\n")["listing"]      # renamed: the same
  assert one != unwrap("def f(a):\n    return len(a) + helper(a) + a.shape[1] + 2.5\n")["listing"]      # another constant
  assert one != unwrap("def f(a):\n    return len(a) + helper(a) + a.size[0] + 2.5\n")["listing"]       # another attribute
  assert one != unwrap("def f(a):\n    return min(a) + helper(a) + a.shape[0] + 2.5\n")["listing"]      # another builtin
  assert "LOAD_GLOBAL len" in one and "LOAD_ATTR shape" in one and "LOAD_CONST 2.5" in one and one.count("|") == 2
  assert not any("helper" in t or t.endswith(" a") for t in one)

def test_a_text_that_does_not_compile_lists_its_decoded_parts_only():
  got = unwrap(f"s = {b64(SRC.encode())!r}\nreturn 1\n")          # it parses (its payload is found) but does not compile
  assert got["decoded"] == 1 and got["listing"] == unwrap(SRC)["listing"]
  broken = f"this is not python {b64(SRC.encode())!r} (\n"            # nor does it parse: nothing is found
  assert unwrap(broken) == {"text": broken, "listing": [], "decoded": 0}

def test_what_is_not_code_is_not_taken_for_code():
  assert not _is_code("x = 1") and not _is_code("just some words") and not _is_code("a + b + c + d + e")   # short, prose, a sum
  assert _is_code("print('hello')") and _is_code("import numpy as np") and _is_code("for i in x: pass")
  assert decodings(b"abcd") == [] and decodings(base64.b64encode(b"short")) == []                         # under 8 bytes decoded
  assert decodings(b"\x00\x01 not a payload \xff") == []

def test_a_lone_surrogate_or_a_bad_payload_is_no_exception():
  assert unwrap("x = '\udce9' * 40\n")["decoded"] == 0
  assert unwrap(f"x = {b64(b'c' + bytes(range(256)))!r}\n")["decoded"] == 0                 # marshal.loads of garbage

def test_the_child_process_reads_and_writes_json_and_names_a_failure():
  texts = {"01_x": SRC, "02_y": "boom = 1\n"}
  code = ("import autograder.classroom.unwrap as u\nplain = u.unwrap\n"
          "def unwrap(text):\n  if text.startswith('boom'): raise MemoryError()\n  return plain(text)\n"
          "u.unwrap = unwrap\nu.main()\n")
  done = subprocess.run([sys.executable, "-c", code], input=json.dumps(texts), capture_output=True, text=True, timeout=60,
                        env={**os.environ, "PYTHONPATH": str(REPO)})
  assert done.returncode == 0, done.stderr
  assert json.loads(done.stdout) == {"01_x": json.loads(json.dumps(unwrap(SRC))), "02_y": {"text": "boom = 1\n", "listing": [], "error": "MemoryError"}}
