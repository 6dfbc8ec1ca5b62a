"""The instructor's class commands: grade-all, regrade, fetch, snapshot, merge, stats, export-grades, similarity. Every
problem an instructor can fix (a missing folder, an empty class, a malformed roster, policy or overrides file) is one
line on stderr and exit code 2, never a traceback."""
from __future__ import annotations
import os, sys
from pathlib import Path
from autograder.core.course import UnknownModule
# Each command imports what it runs when it is run: `autograder check` must not load nbgrader, copydetect or tqdm
# (seconds at every start). Start-up time is the only reason for an import inside a function in this package.

def fail(e:Exception) -> int:
  print(f"autograder: {e}", file=sys.stderr)
  return 2

def policy_and_overrides(args):
  from autograder.classroom.gradebook import read_overrides
  from autograder.classroom.late import load
  return load(args.policy), read_overrides(args.overrides)

def report_overrides(unused:list[int], path):
  if unused: print(f"note: {len(unused)} override(s) of {path} matched no learner, module or test here (lines {', '.join(map(str, unused))})")

def report_errors(errors:list[str]):
  if errors: print(f"autograder: grader errors for {len(errors)} learner(s): {', '.join(errors[:20])}{' ...' if len(errors) > 20 else ''} "
                   "(their rows say grader_error; see gradebook.csv)", file=sys.stderr)

def cmd_merge(args) -> int:
  from autograder.classroom.merge import merge
  try:
    policy, overrides = policy_and_overrides(args)
    done = merge([Path(d) for d in args.dirs], Path(args.out), policy, overrides)
  except ValueError as e: return fail(e)
  if args.summary:
    from autograder.classroom.grade_all import summary
    with open(args.summary, "a") as f:
      f.write(summary(Path(args.out)))
      if done["changes"]: f.write("\n" + (Path(args.out) / "changes.md").read_text())
  report_overrides(done["unused_overrides"], args.overrides)
  print(f"merged {done['learners']} learner(s) from {done['shards']} shard(s) into {Path(args.out) / 'gradebook.csv'}; late policy: {policy.describe()}"
        + (f"; what the regrade changed: {Path(args.out) / 'changes.md'}" if done["changes"] else ""))
  report_errors(done["errors"])
  return 0

def cmd_leaderboard(args) -> int:
  from autograder.classroom.leaderboard import leaderboard
  try: rows = leaderboard(Path(args.gradebook), args.module, args.metric, args.anonymous)
  except ValueError as e: return fail(e)
  if not rows: print(f"no test of {args.gradebook} recorded a leaderboard figure (record_metric)"); return 0
  shown = [r for r in rows if r["rank"] != "" and r["rank"] <= args.top]
  for r in shown: print(f"{r['module']} {r['metric']}: {r['rank']:>3}. {r['learner']:<24} {r['value']:g}")
  print(f"wrote {Path(args.gradebook) / 'leaderboard.md'} and leaderboard.csv ({len(rows)} row(s))")
  return 0

def cmd_stats(args) -> int:
  from autograder.classroom.stats import stats
  try: rows = stats(Path(args.gradebook))
  except ValueError as e: return fail(e)
  if args.summary:
    text = (Path(args.gradebook) / "item-analysis.md").read_text()
    with open(args.summary, "a") as f: f.write("\n".join(l for l in text.splitlines() if not l.startswith("![")) + "\n")   # a job summary shows no local image
  weak = [f"{r['module'].split('_')[0]} {r['task']}" for r in rows if r["item_rest"] != "" and r["item_rest"] < 0.2]
  print(f"{len(rows)} task(s) analysed: {Path(args.gradebook) / 'item-analysis.csv'}, item-analysis.png, item-analysis.md"
        + (f"; separating poorly (item-rest r < 0.2): {', '.join(weak)}" if weak else ""))
  return 0

def cmd_export_grades(args) -> int:
  from autograder.classroom.lms import export
  try: path, problems = export(Path(args.gradebook), args.format, Path(args.roster) if args.roster else None, Path(args.out) if args.out else None)
  except ValueError as e: return fail(e)
  for line in problems: print(f"autograder: {line}", file=sys.stderr)
  left = sum(1 for line in problems if ": note: " not in line)
  print(f"wrote {path} ({args.format})" + (f"; {left} learner(s) left out (see above)" if left else ""))
  return 0

def cmd_similarity(args) -> int:
  from autograder.classroom.similarity import similarity
  from autograder.core.module import modules_of
  try:
    rows = similarity(Path(args.submissions), Path(args.out), modules_of(Path(args.source), args.modules), Path(args.starter))
  except (ValueError, UnknownModule) as e: return fail(e)
  pairs = [r for r in rows if r["learner_b"]]
  top, bad = (pairs[0] if pairs else None), sorted({r["learner_a"] for r in rows if not r["learner_b"]})
  print(f"{len(pairs)} pair(s) compared; " + (f"most similar: {top['learner_a']} and {top['learner_b']} on {top['module']} ({top['similarity']:.0%}); " if top and top["similarity"] > 0 else "no shared code beyond the starter; ")
        + (f"not compared (see similarity.md): {', '.join(bad)}; " if bad else "")
        + f"see {Path(args.out) / 'similarity.md'} and similarity.html (flags only: scores are unchanged)")
  return 0

def cmd_grade_all(args) -> int:
  from autograder.classroom.grade_all import grade_all
  from autograder.core.sandbox import available
  from autograder.classroom.shard import parse
  from autograder.core.module import modules_of
  modules = modules_of(Path(args.source), args.modules)
  try:
    shard = parse(args.shard) if args.shard else None
    policy, overrides = policy_and_overrides(args)
  except ValueError as e: return fail(e)
  if args.require_sandbox and not (usable := available())[0]:
    print(f"autograder: refusing to grade: the sandbox is not available ({usable[1]}), and --require-sandbox was given", file=sys.stderr)
    return 2
  try: done = grade_all(Path(args.submissions), Path(args.out), modules, jobs=args.jobs, timeout=args.timeout,
                        shard=shard, reference_only=args.reference_only, policy=policy, overrides=overrides)
  except KeyboardInterrupt: return 130
  except ValueError as e: return fail(e)
  if args.reference_only:
    print(f"reference runs ready for {len(modules)} module(s)"); return 0
  if args.summary:
    from autograder.classroom.grade_all import summary
    with open(args.summary, "a") as f: f.write(summary(Path(args.out)))
  report_overrides(done["unused_overrides"] if not shard else [], args.overrides)      # a shard sees only its own learners
  print((f"shard {args.shard}: {done['learners']} learner(s); " if shard else "") +
        f"graded {done['graded']} learner(s), kept {done['skipped']} unchanged, in {done['seconds']:.0f} s; "
        f"gradebook: {Path(args.out) / 'gradebook.csv'}, feedback: {Path(args.out) / 'feedback'}/")
  report_errors(done["errors"])
  return 1 if done["errors"] else 0

def cmd_regrade(args) -> int:
  from autograder.classroom.regrade import regrade
  from autograder.classroom.shard import parse
  from autograder.core.sandbox import available
  from autograder.core.module import modules_of
  try:
    modules = modules_of(Path(args.source), args.modules)
    shard = parse(args.shard) if args.shard else None
    policy, overrides = policy_and_overrides(args)
  except (ValueError, UnknownModule) as e: return fail(e)
  if args.require_sandbox and not (usable := available())[0]:
    print(f"autograder: refusing to grade: the sandbox is not available ({usable[1]}), and --require-sandbox was given", file=sys.stderr)
    return 2
  try: done = regrade(Path(args.gradebook), Path(args.submissions), Path(args.out), modules, jobs=args.jobs, timeout=args.timeout,
                      shard=shard, policy=policy, overrides=overrides)
  except KeyboardInterrupt: return 130
  except ValueError as e: return fail(e)
  if args.summary:
    from autograder.classroom.grade_all import summary
    with open(args.summary, "a") as f: f.write(summary(Path(args.out)) + "\n" + (Path(args.out) / "changes.md").read_text())
  report_overrides(done["unused_overrides"] if not shard else [], args.overrides)
  rows = done["changes"]["rows"]
  print((f"shard {args.shard}: {done['learners']} learner(s); " if shard else "") +
        f"regraded {done['graded']} learner(s), kept {done['skipped']} unchanged, in {done['seconds']:.0f} s; "
        f"{len(rows)} change(s) for {len({r['learner'] for r in rows})} learner(s): {Path(args.out) / 'changes.md'}, changes.csv")
  return 0

def cmd_fetch(args) -> int:
  from autograder.classroom.late import load
  from autograder.classroom.roster import fetch
  try: got = fetch(Path(args.roster), Path(args.submissions), window_days=load(args.policy).window_days,
                   snapshots=Path(args.snapshots) if args.snapshots else None)
  except ValueError as e: print(f"autograder: {e}", file=sys.stderr); return 2
  bad = [k for k, v in got.items() if v.startswith("not fetched")]
  print(f"fetched {len(got) - len(bad)} of {len(got)} learner(s) into {args.submissions}/" + (f"; not fetched: {', '.join(bad)}" if bad else ""))
  return 0

def grading_options(p, root):
  """The options grade-all and regrade share."""
  p.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2) // 2), help="learners graded at the same time")
  p.add_argument("--source", default=root("solutions")); p.add_argument("--modules", nargs="*")
  p.add_argument("--timeout", type=float, default=3600, help="seconds for one learner, all modules")
  p.add_argument("--summary", help="also write a Markdown table (learner x module) here, e.g. $GITHUB_STEP_SUMMARY")
  p.add_argument("--require-sandbox", action="store_true", help="refuse to grade when bubblewrap cannot sandbox the learners' code")
  p.add_argument("--shard", metavar="K/N", help="grade only shard K of N (learners assigned by a hash of their name); `autograder merge` joins the shards")
  p.add_argument("--policy", default="grading.toml", help="the late policy ([late] of this file; default: grading.toml if it exists)")
  p.add_argument("--overrides", default="overrides.csv", help="the instructor's overrides, applied after grading (default: overrides.csv if it exists)")

def cmd_snapshot(args) -> int:
  from autograder.classroom.roster import snapshot
  try: path = snapshot(Path(args.roster), Path(args.snapshots))
  except ValueError as e: return fail(e)
  print(f"wrote {path}")
  return 0

def add_commands(sub, root):
  """Register the class commands on the `autograder` parser's subparsers; `root(name)` finds solutions/ or projects/."""
  ga = sub.add_parser("grade-all", help="grade a class: one folder per learner, in parallel, into a gradebook and feedback")
  ga.add_argument("submissions", help="a folder with one folder per learner (a checkout of their repository)")
  ga.add_argument("--out", default="gradebook", help="where the gradebook and the feedback go (default: gradebook/)")
  grading_options(ga, root)
  ga.add_argument("--reference-only", action="store_true", help="compute the reference runs (into AUTOGRADER_CACHE) and stop")
  ga.set_defaults(fn=cmd_grade_all)
  rg = sub.add_parser("regrade", help="grade a class again against the current solutions and write what changed (changes.csv, changes.md)")
  rg.add_argument("gradebook", metavar="GRADEBOOK_DIR", help="the earlier grading folder (grade-all or merge output), only read")
  rg.add_argument("submissions", metavar="SUBMISSIONS", help="a folder with one folder per learner (as for grade-all)")
  rg.add_argument("--out", required=True, metavar="NEW_DIR", help="the new grading folder; changes.csv, changes.md and changes.json go into it")
  grading_options(rg, root)
  rg.set_defaults(fn=cmd_regrade)
  fe = sub.add_parser("fetch", help="check out each learner of a roster at their last commit before the deadline")
  fe.add_argument("roster", help="CSV: learner, repository, ref, deadline (and optional columns: see autograder/classroom/roster.py)"); fe.add_argument("submissions", help="folder to fill, one folder per learner")
  fe.add_argument("--policy", default="grading.toml", help="the late policy: commits up to its window_days after the due time are fetched")
  fe.add_argument("--snapshots", metavar="DIR", help="grade what the server had by each due time, from `autograder snapshot` files (default: by committer dates)")
  fe.set_defaults(fn=cmd_fetch)
  sn = sub.add_parser("snapshot", help="record the commit each learner's ref points to on their server now (run it at the deadline and at the end of the late window)")
  sn.add_argument("roster", help="CSV: learner, repository, ref, deadline (see autograder/classroom/roster.py)")
  sn.add_argument("snapshots", help="folder of snapshot files (a new snapshot-<time>.csv is added)")
  sn.set_defaults(fn=cmd_snapshot)
  me = sub.add_parser("merge", help="join the gradebooks of shards (grade-all --shard K/N) into one")
  me.add_argument("dirs", nargs="+", metavar="DIR", help="the shards' output folders")
  me.add_argument("--out", required=True, help="the merged grading folder")
  me.add_argument("--policy", default="grading.toml", help="the late policy ([late] of this file; default: grading.toml if it exists)")
  me.add_argument("--overrides", default="overrides.csv", help="the instructor's overrides (default: overrides.csv if it exists)")
  me.add_argument("--summary", help="also write the class table here, e.g. $GITHUB_STEP_SUMMARY")
  me.set_defaults(fn=cmd_merge)
  lb = sub.add_parser("leaderboard", help="rank the figures learners' code reached in grading (record_metric: a speed-up, say); opt-in, scores untouched")
  lb.add_argument("gradebook", help="a grading folder (grade-all's --out)")
  lb.add_argument("--module", help="one module (number or folder name)"); lb.add_argument("--metric", help="one metric, by its name")
  lb.add_argument("--anonymous", action="store_true", help="stable pseudonyms instead of the learners' names")
  lb.add_argument("--top", type=int, default=10, help="rows printed per metric (the files hold all)")
  lb.set_defaults(fn=cmd_leaderboard)
  st = sub.add_parser("stats", help="item analysis: per task, full/partial/none, mean, discrimination, most common failure")
  st.add_argument("gradebook", metavar="GRADEBOOK_DIR", help="a grading folder (grade-all or merge output); the analysis is written into it")
  st.add_argument("--summary", help="also append the Markdown table here, e.g. $GITHUB_STEP_SUMMARY")
  st.set_defaults(fn=cmd_stats)
  eg = sub.add_parser("export-grades", help="the gradebook as an LMS grade import file (Canvas, Moodle) or a plain CSV")
  eg.add_argument("gradebook", metavar="GRADEBOOK_DIR")
  eg.add_argument("--format", required=True, choices=["canvas", "moodle", "csv"])
  eg.add_argument("--roster", default="roster.csv", help="the roster with the LMS columns (lms_id, sis_id, sis_login, email, section, name)")
  eg.add_argument("--out", help="the file to write (default: GRADEBOOK_DIR/grades-FORMAT.csv)")
  eg.set_defaults(fn=cmd_export_grades)
  si = sub.add_parser("similarity", help="rank pairs of learners by shared answer code (copydetect); flags only, never a score")
  si.add_argument("submissions", metavar="SUBMISSIONS", help="a folder with one folder per learner")
  si.add_argument("--out", required=True, help="where the table and report go")
  si.add_argument("--source", default=root("solutions")); si.add_argument("--starter", default=root("projects"), help="the released starters (boilerplate)")
  si.add_argument("--modules", nargs="*", help="module numbers or folder names (default: all)")
  si.set_defaults(fn=cmd_similarity)
