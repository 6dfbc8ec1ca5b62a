"""What an answer runs, for the similarity report: its text with the obvious wrappers decoded, and its normalised
bytecode. A classmate's answers shipped as `exec(marshal.loads(base64.b64decode("...")))`, as `exec` of a string, or
zlib-compressed, share no text with the original but the same bytecode.

* `expand(text)`: the text, followed by every Python source found inside its string constants (plain, or after
  base64 / base85 / hex decoding and zlib / gzip / bz2 / lzma decompression, up to three layers deep; a list of string
  pieces counts as their join), and the code objects found the same way in marshal payloads.
* `listing(...)`: the instructions of the code that text compiles to, and of those code objects, one token each,
  normalised: names of local and global variables and functions dropped (renaming changes nothing), attribute
  names, imported names, builtins and constants kept, jump targets and line numbers dropped.

Nothing here runs the code: it is parsed, compiled and disassembled. Since `marshal.loads` is not safe against
crafted data, `similarity` runs this module in a child process per learner (`python -m autograder.classroom.unwrap`,
JSON in and out, under a memory and CPU-time limit): a payload that crashes it costs that learner's comparison only."""
from __future__ import annotations
import ast, base64, binascii, builtins, bz2, dis, gzip, json, lzma, marshal, re, sys, types, zlib

MIN_PAYLOAD, MAX_DECODED, MAX_DEPTH, MAX_FOUND = 16, 4 << 20, 3, 200
NAME_OPS = {"LOAD_FAST", "STORE_FAST", "DELETE_FAST", "LOAD_NAME", "STORE_NAME", "DELETE_NAME", "LOAD_DEREF", "STORE_DEREF",
            "DELETE_DEREF", "LOAD_CLOSURE", "MAKE_CELL", "LOAD_CLASSDEREF", "STORE_GLOBAL", "DELETE_GLOBAL", "LOAD_FAST_CHECK",
            "LOAD_FAST_AND_CLEAR", "LOAD_FROM_DICT_OR_DEREF", "LOAD_FROM_DICT_OR_GLOBALS"}
SKIPPED = {"RESUME", "NOP", "CACHE", "EXTENDED_ARG", "PRECALL", "KW_NAMES", "COPY_FREE_VARS", "PUSH_NULL"}
BUILTIN_NAMES = set(dir(builtins))
STATEMENTS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom, ast.Assign, ast.AugAssign, ast.AnnAssign,
              ast.For, ast.While, ast.If, ast.With, ast.Try, ast.Return)

def _bounded(fn, data:bytes) -> bytes|None:
  try: out = fn(data)
  except Exception: return None
  return out if isinstance(out, bytes) and len(out) <= MAX_DECODED else None

def _zlib(data:bytes) -> bytes|None:
  try:
    d = zlib.decompressobj(wbits=47)                     # zlib or gzip, headers detected
    out = d.decompress(data, MAX_DECODED)
    return out if not d.unconsumed_tail else None
  except zlib.error: return None

def decodings(data:bytes) -> list[bytes]:
  """Every byte string `data` decodes or decompresses to, one step deep."""
  out = []
  compact = re.sub(rb"\s+", b"", data)
  for fn in (lambda d: base64.b64decode(d, validate=True), lambda d: base64.urlsafe_b64decode(d) if re.fullmatch(rb"[A-Za-z0-9_=-]+", d) else None,
             base64.b85decode, base64.a85decode, lambda d: bytes.fromhex(d.decode()) if re.fullmatch(rb"[0-9a-fA-F]+", d) else None):
    if (got := _bounded(fn, compact)) is not None and len(got) >= 8: out.append(got)
  if (got := _zlib(data)) is not None: out.append(got)
  for fn in (bz2.decompress, lzma.decompress):
    if data[:3] in (b"BZh", b"\xfd7z") and (got := _bounded(fn, data)) is not None: out.append(got)
  return out

def _is_code(text:str) -> bool:
  """Whether a string is Python source worth comparing: it parses, and holds a definition, an import, an assignment,
  a loop or branch, or a call (a docstring, a word or a base64 text that happens to parse as a sum is not code)."""
  if len(text) < 12: return False
  try: tree = ast.parse(text)
  except (SyntaxError, ValueError, RecursionError, MemoryError): return False
  return any(isinstance(s, STATEMENTS) or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)) for s in tree.body)

def _codes(obj, depth:int=0) -> list[types.CodeType]:
  if isinstance(obj, types.CodeType): return [obj]
  if isinstance(obj, (tuple, list, frozenset, set)) and depth < 4: return [c for x in obj for c in _codes(x, depth + 1)]
  if isinstance(obj, dict) and depth < 4: return [c for x in obj.values() for c in _codes(x, depth + 1)]
  return []

def payloads(data:bytes, sources:list[str], codes:list, depth:int=0, seen:set|None=None):
  """Decode `data` as far as it goes: Python sources and code objects found are appended to `sources` and `codes`."""
  seen = set() if seen is None else seen
  if depth > MAX_DEPTH or len(sources) + len(codes) >= MAX_FOUND or hash(data) in seen: return
  seen.add(hash(data))
  if depth > 0:
    try: found = _codes(marshal.loads(data))
    except Exception: found = []
    if found: codes.extend(found); return
    try:
      text = data.decode("utf-8")
      if _is_code(text): sources.append(text); return
    except UnicodeDecodeError: pass
  for decoded in decodings(data): payloads(decoded, sources, codes, depth + 1, seen)

def constants(tree:ast.AST) -> list[bytes]:
  """The string and bytes constants of a tree long enough to hold a payload, and what the pieces of each list, tuple or
  set of strings make joined in order (what runs may be a text cut in 15-character pieces, joined and written to a file
  that runpy runs)."""
  out = []
  for n in ast.walk(tree):
    if isinstance(n, ast.Constant) and isinstance(n.value, (str, bytes)) and len(n.value) >= MIN_PAYLOAD:
      out.append(n.value if isinstance(n.value, bytes) else n.value.encode("utf-8", "surrogatepass"))
    elif isinstance(n, (ast.List, ast.Tuple, ast.Set)) and len(n.elts) >= 2 and all(isinstance(e, ast.Constant) and type(e.value) is type(n.elts[0].value)
                                                                                    and isinstance(e.value, (str, bytes)) for e in n.elts):
      joined = n.elts[0].value[:0].join(e.value for e in n.elts)
      if len(joined) >= MIN_PAYLOAD: out.append(joined if isinstance(joined, bytes) else joined.encode("utf-8", "surrogatepass"))
  return out

def expand(text:str) -> tuple[str, list[str], list[types.CodeType]]:
  """(the text followed by every source decoded from it, those sources, the code objects decoded from it)."""
  sources, codes, todo, seen = [], [], [text], set()
  while todo and len(sources) < MAX_FOUND:
    try: tree = ast.parse(todo.pop())
    except (SyntaxError, ValueError, RecursionError, MemoryError): continue
    for data in constants(tree):
      if _is_code(s := data.decode("utf-8", "replace")) and s not in sources: sources.append(s); todo.append(s); continue
      found: list[str] = []
      payloads(data, found, codes, 0, seen)
      for s in found:
        if s not in sources: sources.append(s); todo.append(s)
  for c in list(codes):                                   # strings inside decoded code objects can wrap another layer
    for const in c.co_consts:
      if isinstance(const, (str, bytes)) and len(const) >= MIN_PAYLOAD:
        payloads(const if isinstance(const, bytes) else const.encode("utf-8", "surrogatepass"), sources, codes, 0, seen)
  out = text.rstrip("\n") + "\n"
  for i, s in enumerate(sources, 1): out += f"\n# --- decoded from a string constant ({i})\n{s.strip()}\n"
  return out, sources, codes

def _arg(ins:dis.Instruction) -> str:
  if ins.opname in NAME_OPS: return ""
  if ins.opname == "LOAD_GLOBAL": return ins.argval if ins.argval in BUILTIN_NAMES else ""
  if ins.opcode in dis.hasjrel or ins.opcode in dis.hasjabs: return ""
  if ins.opname == "LOAD_CONST":
    v = ins.argval
    if isinstance(v, types.CodeType): return "<code>"
    return repr(v)[:60] if isinstance(v, (int, float, complex, str, bytes, bool, type(None), tuple, frozenset)) else type(v).__name__
  return str(ins.argrepr)[:60]

def instructions(code:types.CodeType) -> list[str]:
  """The normalised instructions of a code object and of every code object nested in it ("|" between them)."""
  out, todo, seen = [], [code], 0
  while todo and seen < 2000:
    c = todo.pop(0); seen += 1
    try: ins = list(dis.get_instructions(c))
    except Exception: continue
    out += [f"{i.opname} {_arg(i)}".rstrip() for i in ins if i.opname not in SKIPPED] + ["|"]
    todo += [k for k in c.co_consts if isinstance(k, types.CodeType)]
  return out

def _compiled(source:str) -> list[str]:
  try: return instructions(compile(source, "<answer>", "exec", dont_inherit=True))
  except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError): return []

def unwrap(text:str) -> dict:
  """{"text": the text with what it decodes to, "listing": the normalised bytecode of all of it, "decoded": how many
  payloads were found}. The listing of a text that does not compile is that of its decoded parts only."""
  expanded, sources, codes = expand(text)
  return {"text": expanded, "listing": [t for part in [text] + sources for t in _compiled(part)] + [t for c in codes for t in instructions(c)],
          "decoded": len(sources) + len(codes)}

def main():
  import resource
  try:
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    resource.setrlimit(resource.RLIMIT_CPU, (120, 120))
  except (ValueError, OSError): pass
  texts = json.loads(sys.stdin.read())
  out = {}
  for module, text in texts.items():
    try: out[module] = unwrap(text)
    except Exception as e: out[module] = {"text": text, "listing": [], "error": type(e).__name__}
  sys.stdout.write(json.dumps(out))

if __name__ == "__main__": main()
