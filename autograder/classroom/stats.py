"""`autograder stats GRADEBOOK_DIR`: item analysis of a graded class, per module and task, from tasks.csv.

For each task (the tests of a task summed; the score before overrides and late policy is not kept apart here, the
score after overrides is what is analysed): its points, the share of learners with full marks, partial and none, the
mean (as a share of its points), and two discrimination indices:
  * `item_rest`: the correlation of the task's score with the rest of the module (the module's score without this
    task) over the learners: the corrected item-total correlation; for an all-or-nothing task it is the
    point-biserial correlation. Empty when either side does not vary (everyone equal: it separates nobody).
  * `upper_lower`: the mean share of the task's points in the top quarter of the class (by module score) minus that
    in the bottom quarter, from -1 to 1.
and the most common failure message (tasks.csv holds only the messages learners see: a hidden check never reveals
its expected value, and a message quoting a hidden test's code was withheld at grading).
Writes item-analysis.csv, item-analysis.png (tasks sorted by difficulty) and item-analysis.md into the folder."""
from __future__ import annotations
import math
from collections import Counter, defaultdict
from pathlib import Path
from autograder.classroom.gradebook import GradebookError, read, write_csv
from autograder.core.report import md
from autograder.core.results import TestStatus

COLUMNS = ["module", "task", "tests", "points", "learners", "full", "partial", "none", "mean", "item_rest", "upper_lower", "common_failure", "failure_count"]

def correlation(x:list[float], y:list[float]) -> float|None:
  n = len(x)
  if n < 3: return None
  mx, my = sum(x) / n, sum(y) / n
  sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
  sx, sy = math.sqrt(sum((a - mx) ** 2 for a in x)), math.sqrt(sum((b - my) ** 2 for b in y))
  return None if sx == 0 or sy == 0 else sxy / (sx * sy)

def upper_lower(shares:list[float], totals:list[float]) -> float|None:
  """Mean share in the top quarter by total minus in the bottom quarter (ties broken by learner order)."""
  n = len(shares)
  if n < 4: return None
  order = sorted(range(n), key=lambda i: totals[i])
  q = max(1, n // 4)
  low, high = order[:q], order[-q:]
  return sum(shares[i] for i in high) / q - sum(shares[i] for i in low) / q

def analyse(tasks:list[dict]) -> list[dict]:
  """One row per (module, task), in module order, then task order of first appearance."""
  score = defaultdict(lambda: defaultdict(float))      # (module, task) -> learner -> points
  maxima, failures, order = defaultdict(dict), defaultdict(Counter), []
  for t in tasks:
    key = (t["module"], t["task"] or t["test"])
    if key not in maxima: order.append(key)
    maxima[key][t["test"]] = float(t["max_score"])
    score[key][t["learner"]] += float(t["score"])
    if t["status"] != TestStatus.PASSED and t["message"]: failures[key][t["message"]] += 1
  points = {key: sum(m.values()) for key, m in maxima.items()}
  tests = {key: set(m) for key, m in maxima.items()}
  learners = defaultdict(set)
  for t in tasks: learners[t["module"]].add(t["learner"])
  out = []
  for key in order:
    module, task = key
    names = sorted(learners[module])
    mine = [score[key][n] for n in names]
    rest = [sum(score[k][n] for k in order if k[0] == module and k != key) for n in names]
    total = [a + b for a, b in zip(mine, rest)]
    shares = [m / points[key] if points[key] else 0.0 for m in mine]
    common = failures[key].most_common(1)
    r, d = correlation(mine, rest), upper_lower(shares, total)
    out.append({"module": module, "task": task, "tests": len(tests[key]), "points": points[key], "learners": len(names),
                "full": round(sum(s >= 1 - 1e-9 for s in shares) / len(names), 3), "partial": round(sum(0 < s < 1 - 1e-9 for s in shares) / len(names), 3),
                "none": round(sum(s <= 0 for s in shares) / len(names), 3), "mean": round(sum(shares) / len(names), 3),
                "item_rest": "" if r is None else round(r, 3), "upper_lower": "" if d is None else round(d, 3),
                "common_failure": common[0][0] if common else "", "failure_count": common[0][1] if common else 0})
  return out

def picture(rows:list[dict], path:Path):
  """Tasks sorted by difficulty (mean share of points, hardest on top): stacked bars of full / partial / none, and
  the discrimination beside each bar."""
  import matplotlib
  matplotlib.use("Agg")
  import matplotlib.pyplot as plt
  rows = sorted(rows, key=lambda r: (r["mean"], r["module"], r["task"]), reverse=True)
  labels = [f"{r['module'].split('_')[0]} {r['task']}" for r in rows]
  fig, ax = plt.subplots(figsize=(8, 0.32 * len(rows) + 1.4))
  y = range(len(rows))
  left = [0.0] * len(rows)
  for part, colour in (("full", "#2e7d32"), ("partial", "#f9a825"), ("none", "#c62828")):
    widths = [r[part] for r in rows]
    ax.barh(y, widths, left=left, color=colour, label=part)
    left = [a + b for a, b in zip(left, widths)]
  for i, r in enumerate(rows):
    d = r["item_rest"]
    ax.text(1.02, i, "r = –" if d == "" else f"r = {d:.2f}", va="center", fontsize=8, color="#a11" if d != "" and d < 0.2 else "#222")
  ax.set_yticks(list(y), labels, fontsize=8)
  ax.set_xlim(0, 1.18); ax.set_xticks([0, 0.25, 0.5, 0.75, 1.0], ["0", "25%", "50%", "75%", "100%"])
  ax.set_xlabel("share of learners (r: correlation of the task with the rest of its module; red below 0.2)")
  ax.set_title(f"Item analysis: {len(rows)} tasks, easiest at the top", pad=20)
  ax.legend(loc="lower center", bbox_to_anchor=(0.45, 1.0), ncol=3, fontsize=8, frameon=False)
  ax.invert_yaxis()
  fig.tight_layout()
  fig.savefig(path, dpi=110, metadata={"Software": None})
  plt.close(fig)

def markdown(rows:list[dict]) -> str:
  lines = ["# Item analysis", "", "![tasks sorted by difficulty](item-analysis.png)", "",
           "Per task: full / partial / none, the mean share of its points, the correlation with the rest of the module "
           "(`item_rest`: below 0.2 the task barely separates strong from weak learners) and the top-minus-bottom-quarter "
           "difference; the table as CSV: [item-analysis.csv](item-analysis.csv).", "",
           "| module | task | points | full | partial | none | mean | item_rest | upper_lower | most common failure |", "|---" * 10 + "|"]
  for r in rows:
    fail = f"{md(r['common_failure'])} ({r['failure_count']})" if r["common_failure"] else ""
    lines.append(f"| {r['module']} | {md(r['task'])} | {r['points']:g} | {r['full']:.0%} | {r['partial']:.0%} | {r['none']:.0%} | {r['mean']:.0%} "
                 f"| {r['item_rest']} | {r['upper_lower']} | {fail} |")
  return "\n".join(lines) + "\n"

def stats(folder:Path) -> list[dict]:
  _, tasks = read(folder)
  if not tasks: raise GradebookError(f"{folder}: no tasks.csv (or it is empty): grade again with this version of grade-all, or merge")
  rows = analyse(tasks)
  write_csv(Path(folder) / "item-analysis.csv", COLUMNS, rows)
  picture(rows, Path(folder) / "item-analysis.png")
  (Path(folder) / "item-analysis.md").write_text(markdown(rows))
  return rows
