"""`autograder similarity SUBMISSIONS --out DIR`: which learners' answers look alike. Each learner's answer cells
and answer files (module 07's my_backend.py, say) are extracted per module into DIR/code/LEARNER/MODULE.py, and
copydetect (winnowing over normalised tokens, the method behind MOSS: renamed variables and reordered functions are
still found) compares every pair of learners on the same module, with the released starter (the stubs of projects/)
as boilerplate, so that what every learner was given counts for nothing. It flags for a human to read; it never
changes a score. Writes DIR/similarity.csv (every pair) and similarity.md (the 50 most similar pairs), ranked by
similarity, and copydetect's report DIR/similarity.html (the pairs above 25%, code side by side)."""
from __future__ import annotations
import csv, logging
from pathlib import Path
from autograder.core.assemble import Unreadable, assemble, parse_notebook, read_notebook, read_submission
from autograder.core.settings import module_settings
from autograder.grading.grade import learner_answers
from autograder.classroom.grade_all import learners, submission_root
from autograder.core.course import notebook_path
from autograder.classroom.gradebook import GradebookError

COLUMNS = ["module", "learner_a", "learner_b", "similarity", "a_in_b", "b_in_a", "tokens"]
REPORT_ABOVE = 0.25        # the HTML report shows pairs above this share side by side (all pairs are in the CSV)

def answers(source_root:Path, folder:Path, module:str) -> str|None:
  """One learner's answers to a module as one Python text (answer cells in order, then answer files), or None
  when they have no readable notebook for it."""
  source = read_notebook(notebook_path(source_root, module))
  sub = read_submission(Path(source_root) / module, Path(folder), module, module_settings(source)["learner_files"])
  if sub.notebook_text is None: return None
  try: mine = parse_notebook(sub.notebook_text)
  except Unreadable: return None
  parts = learner_answers(assemble(source, mine), Path(source_root) / module, sub.files)
  return "\n\n".join(f"# --- {where}\n{text.strip()}" for where, text in parts) + "\n"

def extract(submissions:Path, source:Path, starter:Path, modules:list[str], out:Path) -> tuple[list[str], int]:
  """Write out/code/LEARNER/MODULE.py and out/starter/MODULE.py; returns (learners, files written)."""
  from tqdm import tqdm
  import sys
  names, files = [], 0
  for module in modules:
    text = answers(source, starter, module)
    if text is not None: (out / "starter").mkdir(parents=True, exist_ok=True); (out / "starter" / f"{module}.py").write_text(text)
  for learner in tqdm(learners(submissions), desc="extracting answers", unit="learner", file=sys.stderr, disable=None):
    names.append(learner.name)
    for module in modules:
      text = answers(source, submission_root(learner), module)
      if text is None: continue
      (out / "code" / learner.name).mkdir(parents=True, exist_ok=True)
      (out / "code" / learner.name / f"{module}.py").write_text(text); files += 1
  return names, files

def similarity(submissions:Path, out:Path, source:Path, starter:Path, modules:list[str], noise:int=25) -> list[dict]:
  """Rank every pair of learners per module; returns the rows of similarity.csv (highest first)."""
  from copydetect import CopyDetector
  import shutil
  if not Path(submissions).is_dir(): raise GradebookError(f"{submissions}: no such folder")
  if not learners(submissions): raise GradebookError(f"{submissions}: no learner folder in it (an empty class)")
  out = Path(out)
  for sub in ("code", "starter"): shutil.rmtree(out / sub, ignore_errors=True)
  out.mkdir(parents=True, exist_ok=True)
  names, files = extract(Path(submissions), Path(source), Path(starter), modules, out)
  rows = []
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
          if ab < 0: continue                                 # not compared (copydetect could not read one of them)
          rows.append({"module": module, "learner_a": la, "learner_b": lb, "similarity": round(max(ab, ba), 3),
                       "a_in_b": round(ab, 3), "b_in_a": round(ba, 3), "tokens": int(overlap[a, b])})
    detector.generate_html_report()
  rows.sort(key=lambda r: (-r["similarity"], r["module"], r["learner_a"], r["learner_b"]))
  with open(out / "similarity.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=COLUMNS); w.writeheader(); w.writerows(rows)
  top = [r for r in rows if r["similarity"] > 0][:50]
  lines = ["# Similar answers", "", f"{len(names)} learners, {files} module answers, {len(rows)} pairs compared with copydetect "
           "(the released starter excluded as boilerplate). A high share means that much of one learner's answer is found in "
           "the other's after renaming is normalised away: read both before concluding anything. It never changes a score.", "",
           "The full table: [similarity.csv](similarity.csv); the code side by side: [similarity.html](similarity.html).", "",
           "| module | learner | learner | similarity | a in b | b in a | shared tokens |", "|---|---|---|---|---|---|---|"]
  lines += [f"| {r['module']} | {r['learner_a']} | {r['learner_b']} | {r['similarity']:.0%} | {r['a_in_b']:.0%} | {r['b_in_a']:.0%} | {r['tokens']} |" for r in top]
  if not top: lines.append("| | no pair shares code beyond the starter | | | | | |")
  (out / "similarity.md").write_text("\n".join(lines) + "\n")
  return rows
