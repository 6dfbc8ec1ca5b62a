"""`autograder similarity SUBMISSIONS --out DIR`: which learners' answers look alike. Each learner's answer cells
and answer files (module 07's my_backend.py, say) are extracted per module, and what they run is compared:

* the text, with the obvious wrappers decoded (autograder/classroom/unwrap.py: a string constant that is Python source,
  or base64 / zlib / marshal payloads of source or code objects, is added to the text), into
  DIR/code/LEARNER/MODULE.py, compared by copydetect (winnowing over normalised tokens, the method behind MOSS: renamed
  variables and reordered functions are still found), with the released starter (the stubs of projects/) as
  boilerplate, so that what every learner was given counts for nothing;
* the normalised bytecode of the same (variable names dropped, constants and attribute names kept), by winnowing over
  instruction k-grams, the starter's k-grams removed: a classmate's answers shipped as `exec(marshal.loads(...))`
  share no text with the original but all of its bytecode.

A pair's `similarity` is the larger of the two (`text`, `bytecode`). It flags for a human to read; it never changes a
score. Writes DIR/similarity.csv (every pair, then a row per learner and module that could not be read, with the
reason in `note`) and similarity.md (the 50 most similar pairs), ranked by similarity, and copydetect's report
DIR/similarity.html (the pairs above 25% by text, code side by side). The decoding runs in a child process per learner
(unwrap.py): no learner's files can stop the comparison of the others."""
from __future__ import annotations
import csv, hashlib, json, logging, os, re, subprocess, sys
from pathlib import Path
from autograder.core.assemble import Unreadable, assemble, parse_notebook, read_submission
from autograder.grading.grade import learner_answers
from autograder.classroom.grade_all import learners, submission_root
from autograder.core.course import REPO
from autograder.core.files import shown
from autograder.core.module import Module
from autograder.core.report import md
from autograder.classroom.gradebook import GradebookError, spreadsheet_text

COLUMNS = ["module", "learner_a", "learner_b", "similarity", "a_in_b", "b_in_a", "tokens", "text", "bytecode", "note"]
REPORT_ABOVE = 0.25        # the HTML report shows pairs above this share side by side (all pairs are in the CSV)
K, WINDOW, MIN_PRINTS = 6, 4, 4   # instructions per k-gram, winnowing window, fingerprints below which bytecode is not compared

def answers(module:Module, folder:Path) -> str|None:
  """One learner's answers to a module as one Python text (answer cells in order, then answer files), or None
  when they have no notebook for it; Unreadable when it cannot be read (assemble.parse_notebook says why)."""
  sub = read_submission(module, Path(folder))
  if sub.refused: raise Unreadable(sub.refused)
  if sub.notebook_text is None: return None
  mine = parse_notebook(sub.notebook_text)
  parts = learner_answers(assemble(module.notebook, mine), module, sub.files)
  return "\n\n".join(f"# --- {where}\n{text.strip()}" for where, text in parts) + "\n"

def unwrapped(texts:dict[str, str], timeout:float=120) -> dict[str, dict]:
  """unwrap.unwrap of each text, in a child process under a memory and CPU-time limit; a text it could not
  handle comes back as itself with an empty listing and an "error"."""
  if not texts: return {}
  try:
    done = subprocess.run([sys.executable, "-m", "autograder.classroom.unwrap"], input=json.dumps(texts), capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "PYTHONPATH": str(REPO)})
    got = json.loads(done.stdout) if done.returncode == 0 else {}
  except (subprocess.TimeoutExpired, ValueError, OSError): got = {}
  return {m: got[m] if isinstance(got.get(m), dict) else {"text": t, "listing": [], "error": "its decoding did not finish"} for m, t in texts.items()}

def extract(submissions:Path, modules:list[Module], starter:Path, out:Path) -> tuple[list[str], int, dict, list[dict]]:
  """Write out/code/LEARNER/MODULE.py and out/starter/MODULE.py (the texts with what they decode to); returns
  (learners, files written, {(learner or "", module): bytecode listing} ("" is the starter), a problem row per
  learner and module that could not be read)."""
  from tqdm import tqdm
  names, files, listings, problems = [], 0, {}, []
  def texts_of(folder:Path) -> tuple[dict[str, str], dict[str, str]]:
    texts, bad = {}, {}
    for module in modules:
      try:
        text = answers(module, folder)
        if text is not None: text.encode("utf-8")           # (a surrogate in a file's text: unreadable, below)
      except Unreadable as e: bad[module.name] = f"unreadable: {e}"; continue
      except UnicodeEncodeError: bad[module.name] = "unreadable: text that cannot be encoded as UTF-8"; continue
      except Exception as e: bad[module.name] = f"not compared: the extraction failed ({type(e).__name__})"; continue
      if text is not None: texts[module.name] = text
    return texts, bad
  texts, _ = texts_of(starter)
  for module, got in unwrapped(texts).items():
    (out / "starter").mkdir(parents=True, exist_ok=True); (out / "starter" / f"{module}.py").write_text(got["text"])
    listings[("", module)] = got["listing"]
  for learner in tqdm(learners(submissions), desc="extracting answers", unit="learner", file=sys.stderr, disable=None):
    name = shown(learner.name)                             # (a folder name that is not UTF-8: no report could hold it)
    names.append(name)
    texts, bad = texts_of(submission_root(learner))
    problems += [{"module": m, "learner_a": name, "note": why} for m, why in bad.items()]
    for module, got in unwrapped(texts).items():
      if got.get("error"): problems.append({"module": module, "learner_a": name, "note": f"bytecode not compared: {got['error']}"})
      (out / "code" / name).mkdir(parents=True, exist_ok=True)
      (out / "code" / name / f"{module}.py").write_text(got["text"]); files += 1
      listings[(name, module)] = got["listing"]
  return names, files, listings, problems

def _gram_hash(gram:list[str]) -> int:
  """A k-gram's hash, the same in every process (Python's hash() of text is salted per process: the kept fingerprints,
  and so the shares, changed from run to run)."""
  return int.from_bytes(hashlib.blake2b(repr(tuple(gram)).encode("utf-8", "backslashreplace"), digest_size=8).digest(), "big")

def fingerprints(tokens:list[str]) -> set[int]:
  """Winnowing (Schleimer, Wilkerson and Aiken 2003) over k-grams of instructions: the smallest hash of each window of
  WINDOW consecutive k-grams; k-grams that cross from one code object to the next ("|") are left out."""
  grams = [_gram_hash(tokens[i:i + K]) for i in range(len(tokens) - K + 1) if "|" not in tokens[i:i + K]]
  return {min(grams[i:i + WINDOW]) for i in range(max(1, len(grams) - WINDOW + 1))} if grams else set()

def bytecode_similarity(listings:dict, names:list[str], modules:list[str]) -> dict[tuple[str, str, str], tuple[float, float]]:
  """{(module, a, b): (share of a's fingerprints found in b's, and the reverse)}, the starter's removed."""
  out = {}
  for module in modules:
    base = fingerprints(listings.get(("", module), []))
    prints = {n: fingerprints(listings[(n, module)]) - base for n in names if (n, module) in listings}
    for a in prints:
      for b in prints:
        if a >= b: continue
        fa, fb = prints[a], prints[b]
        if len(fa) < MIN_PRINTS or len(fb) < MIN_PRINTS: out[(module, a, b)] = (0.0, 0.0); continue
        shared = len(fa & fb)
        out[(module, a, b)] = (shared / len(fa), shared / len(fb))
  return out

def _name(learner:str) -> str:
  """A learner's name in similarity.md: as it is when plain (letters, digits, . _ - @ +), else inert (report.md)."""
  return learner if re.fullmatch(r"[\w.@+-]+", learner) else md(learner)

def similarity(submissions:Path, out:Path, modules:list[Module], starter:Path, noise:int=25) -> list[dict]:
  """Rank every pair of learners per module; returns the rows of similarity.csv (highest first, then the problem rows)."""
  from copydetect import CopyDetector
  import shutil
  if not Path(submissions).is_dir(): raise GradebookError(f"{submissions}: no such folder")
  if not learners(submissions): raise GradebookError(f"{submissions}: no learner folder in it (an empty class)")
  out = Path(out)
  for sub in ("code", "starter"): shutil.rmtree(out / sub, ignore_errors=True)
  out.mkdir(parents=True, exist_ok=True)
  names, files, listings, problems = extract(Path(submissions), modules, Path(starter), out)
  modules = [m.name for m in modules]
  text = {}
  if files >= 2:
    logging.getLogger().setLevel(logging.ERROR)
    detector = CopyDetector(test_dirs=[str(out / "code")], boilerplate_dirs=[str(out / "starter")] if (out / "starter").is_dir() else [],
                            extensions=["py"], same_name_only=True, noise_t=noise, guarantee_t=noise, display_t=REPORT_ABOVE, autoopen=False,
                            silent=True, out_file=str(out / "similarity.html"))
    detector.run()
    sim, overlap = detector.similarity_matrix, detector.token_overlap_matrix
    column = {f: j for j, f in enumerate(detector.ref_files)}      # (the reference files are the same files, maybe in another order)
    by_module = {}
    for i, f in enumerate(detector.test_files): by_module.setdefault(Path(f).stem, []).append((Path(f).parent.name, i, column[f]))
    for module, entries in by_module.items():
      for la, a, _ in entries:
        for lb, _, b in entries:
          if la >= lb: continue
          ab, ba = (float(x) for x in sim[a, b])
          if ab >= 0: text[(module, la, lb)] = (ab, ba, int(overlap[a, b]))   # (< 0: copydetect could not read one of them)
    detector.generate_html_report()
  code = bytecode_similarity(listings, names, modules)
  rows = []
  for key in sorted(set(text) | set(code)):
    module, la, lb = key
    ab, ba, tokens = text.get(key, (0.0, 0.0, 0))
    cab, cba = code.get(key, (0.0, 0.0))
    rows.append({"module": module, "learner_a": la, "learner_b": lb, "similarity": round(max(ab, ba, cab, cba), 3),
                 "a_in_b": round(max(ab, cab), 3), "b_in_a": round(max(ba, cba), 3), "tokens": tokens,
                 "text": round(max(ab, ba), 3), "bytecode": round(max(cab, cba), 3), "note": "" if key in text else "text not compared"})
  rows.sort(key=lambda r: (-r["similarity"], r["module"], r["learner_a"], r["learner_b"]))
  problems = [{**{k: "" for k in COLUMNS}, **p} for p in sorted(problems, key=lambda p: (p["learner_a"], p["module"]))]
  with open(out / "similarity.csv", "w", newline="", errors="backslashreplace") as f:
    w = csv.DictWriter(f, fieldnames=COLUMNS); w.writeheader(); w.writerows({k: spreadsheet_text(v) for k, v in r.items()} for r in rows + problems)
  top = [r for r in rows if r["similarity"] > 0][:50]
  lines = ["# Similar answers", "", f"{len(names)} learners, {files} module answers, {len(rows)} pairs compared by their text (copydetect) and "
           "their bytecode, after decoding what the answers wrap in strings (the released starter excluded as boilerplate). A high share "
           "means that much of one learner's answer is found in the other's after renaming is normalised away: read both before "
           "concluding anything. It never changes a score.", "",
           "The full table: [similarity.csv](similarity.csv); the code side by side: [similarity.html](similarity.html).", "",
           "| module | learner | learner | similarity | a in b | b in a | text | bytecode |", "|---|---|---|---|---|---|---|---|"]
  lines += [f"| {r['module']} | {_name(r['learner_a'])} | {_name(r['learner_b'])} | {r['similarity']:.0%} | {r['a_in_b']:.0%} | {r['b_in_a']:.0%} | {r['text']:.0%} | {r['bytecode']:.0%} |" for r in top]
  if not top: lines.append("| | no pair shares code beyond the starter | | | | | | |")
  if problems:
    lines += ["", "Not compared (the other learners were):", ""] + [f"- {_name(p['learner_a'])}, {p['module']}: {md(p['note'])}" for p in problems]
  (out / "similarity.md").write_text("\n".join(lines) + "\n", errors="backslashreplace")
  return rows + problems
