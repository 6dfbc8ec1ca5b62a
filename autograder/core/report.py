"""The report in three forms: a table for the terminal, Markdown for CI pages, and JSON for tools. Every text that
may hold something a learner wrote is cleaned of terminal escapes, and escaped for Markdown and HTML."""
from __future__ import annotations
from pathlib import Path
from autograder.core.results import MARK, ModuleResult, Report, TestStatus, write_json
from autograder.core.verdict import clean

def _pts(x:float) -> str: return f"{x:g}"

def hints_opened(m:ModuleResult) -> str:
  """'Task 1.1: 1 of 2, Task 1.2: 0 of 3' for a module whose submission recorded opened hints, else ''."""
  opened = m.hints_opened or {}
  return ", ".join(f"{clean(t)}: {int(n)} of {int(of)}" for t, (n, of) in opened.items()) if opened else ""

def table(report:Report) -> str:
  lines = []
  for m in report.modules:
    lines.append(f"{m.module:<24} {m.status:<12} {_pts(m.score):>5} / {_pts(m.max_score):<5} {m.seconds:>6.1f} s"
                 + (f"   {clean(m.message)}" if m.message else ""))
    width = max([len(t.id) for t in m.tests] + [10])
    for t in m.tests:
      task = f" [{t.task}]" if t.task else ""
      lines.append(f"  {t.id:<{width}} {MARK[t.status]:<8} {_pts(t.score):>4} / {_pts(t.max_score):<4}"
                   + (f"{task} {clean(t.message)}" if t.message and t.status != TestStatus.PASSED else ""))
    for f in m.flags or []: lines.append(f"  flag: {clean(f.where)}: {clean(f.rule)} ({clean(f.what)})")
    if hints_opened(m): lines.append(f"  hints opened (information only): {hints_opened(m)}")
    skipped = [t for t in m.tests if t.status == TestStatus.SKIPPED]
    if skipped: lines.append(f"  {len(skipped)} test(s) skipped here, worth {_pts(sum(t.max_score for t in skipped))} point(s) this machine could not grade")
  lines.append(f"{'total':<24} {'':<12} {_pts(report.score):>5} / {_pts(report.max_score)}")
  return "\n".join(lines)

def md(text:str) -> str:
  """A learner-influenced text, inert inside a Markdown table cell: a code span (no links, images or HTML)."""
  text = clean(text).replace("`", "'").replace("|", "\\|")
  return f"`{text}`" if text else ""

def markdown(report:Report) -> str:
  out = [f"# Score: {_pts(report.score)} / {_pts(report.max_score)}", "",
         "| module | status | score | time |", "|---|---|---|---|"]
  out += [f"| {m.module} | {m.status} | {_pts(m.score)} / {_pts(m.max_score)} | {m.seconds:.1f} s |" for m in report.modules]
  for m in report.modules:
    out += ["", f"## {m.module}", ""] + ([f"_{md(m.message)}_", ""] if m.message else [])
    out += ["| test | task | status | score | message |", "|---|---|---|---|---|"]
    out += [f"| `{t.id}` | {md(t.task or '')} | {t.status} | {_pts(t.score)} / {_pts(t.max_score)} | {md(t.message)} |" for t in m.tests]
    if m.flags:
      out += ["", "Flags for review (they do not change the score):", ""] + [f"- {md(f.where)}: {md(f.rule)} ({md(f.what)})" for f in m.flags]
    if hints_opened(m): out += ["", f"Hints opened (information only, no effect on the score): {md(hints_opened(m))}"]
  return "\n".join(out) + "\n"

def write(report:Report, json_path:str|None, markdown_path:str|None):
  if json_path: write_json(json_path, report)
  if markdown_path: Path(markdown_path).write_text(markdown(report))
