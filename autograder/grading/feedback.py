"""Feedback a learner can use, from a grading report: per module and task, status and points, the failure message and
the author's hint for each test that did not pass. Markdown and a self-contained HTML page. A report holds nothing of
the hidden tests' source, their expected values or tracebacks, and every text in it is escaped here again."""
from __future__ import annotations
import html
from pathlib import Path
from autograder.core.report import md, _pts, hints_opened
from autograder.core.results import WORD, ModuleStatus, Report, TestStatus
from autograder.core.verdict import clean

def _lead(status:ModuleStatus) -> str:
  """What a module's message is: a note on a graded module (output over the cap, a file not read), else why it stopped."""
  return "Note" if status == ModuleStatus.GRADED else "The run stopped early"

def markdown(report:Report, learner:str="") -> str:
  title = f"# Feedback{f' for {md(learner)}' if learner else ''}: {_pts(report.score)} / {_pts(report.max_score)}"
  out = [title, ""]
  for m in report.modules:
    out += [f"## {m.module}: {_pts(m.score)} / {_pts(m.max_score)}", ""]
    if m.message: out += [f"{_lead(m.status)}: {md(m.message)}", ""]
    out += ["| task | test | status | points | what to look at |", "|---|---|---|---|---|"]
    for t in m.tests:
      look = "" if t.status == TestStatus.PASSED else " ".join(x for x in (md(t.message), f"**Hint:** {md(t.hint)}" if t.hint else "") if x)
      out.append(f"| {md(t.task or '')} | `{t.id}` | {WORD[t.status]} | {_pts(t.score)} / {_pts(t.max_score)} | {look} |")
    if hints_opened(m): out += ["", f"Hints you opened (for information; they do not change the score): {md(hints_opened(m))}"]
    out.append("")
  return "\n".join(out)

CSS = ("body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}"
       "table{border-collapse:collapse;width:100%;margin-bottom:2rem}td,th{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}"
       ".passed{color:#176b2c}.failed,.error,.timeout{color:#a11}.skipped,.not_run{color:#777}code{background:#f3f3f3;padding:0 .2rem}")

def html_page(report:Report, learner:str="") -> str:
  e = lambda text: html.escape(clean(text), quote=True)
  rows = []
  for m in report.modules:
    rows.append(f"<h2>{e(m.module)}: {_pts(m.score)} / {_pts(m.max_score)}</h2>")
    if m.message: rows.append(f"<p>{_lead(m.status)}: {e(m.message)}</p>")
    rows.append("<table><tr><th>task</th><th>test</th><th>status</th><th>points</th><th>what to look at</th></tr>")
    for t in m.tests:
      look = "" if t.status == TestStatus.PASSED else e(t.message) + (f"<br><b>Hint:</b> {e(t.hint)}" if t.hint else "")
      rows.append(f"<tr><td>{e(t.task or '')}</td><td><code>{e(t.id)}</code></td><td class=\"{e(t.status)}\">{e(WORD[t.status])}</td>"
                  f"<td>{_pts(t.score)} / {_pts(t.max_score)}</td><td>{look}</td></tr>")
    rows.append("</table>")
    if hints_opened(m): rows.append(f"<p>Hints you opened (for information; they do not change the score): {e(hints_opened(m))}</p>")
  who = f" for {e(learner)}" if learner else ""
  return (f"<!doctype html><html><head><meta charset=\"utf-8\"><title>Feedback{who}</title><style>{CSS}</style></head><body>"
          f"<h1>Feedback{who}: {_pts(report.score)} / {_pts(report.max_score)}</h1>" + "\n".join(rows) + "</body></html>\n")

def write(report:Report, folder:Path, learner:str=""):
  folder.mkdir(parents=True, exist_ok=True)
  (folder / "feedback.md").write_text(markdown(report, learner))
  (folder / "feedback.html").write_text(html_page(report, learner))
