"""The report in three forms: a table for the terminal, Markdown for CI pages, and JSON for tools."""
from __future__ import annotations
import json
from pathlib import Path

MARK = {"passed": "ok", "failed": "FAIL", "error": "ERROR", "timeout": "TIMEOUT", "not_run": "not run", "skipped": "skipped"}

def _pts(x:float) -> str: return f"{x:g}"

def table(report:dict) -> str:
  lines = []
  for m in report["modules"]:
    lines.append(f"{m['module']:<24} {m['status']:<12} {_pts(m['score']):>5} / {_pts(m['max_score']):<5} {m['seconds']:>6.1f} s"
                 + (f"   {m['message']}" if m.get("message") else ""))
    width = max([len(t["id"]) for t in m["tests"]] + [10])
    for t in m["tests"]:
      lines.append(f"  {t['id']:<{width}} {MARK[t['status']]:<8} {_pts(t['score']):>4} / {_pts(t['max_score']):<4}"
                   + (f" {t['message']}" if t["message"] and t["status"] != "passed" else ""))
  lines.append(f"{'total':<24} {'':<12} {_pts(report['score']):>5} / {_pts(report['max_score'])}")
  return "\n".join(lines)

def _cell(text:str) -> str: return text.replace("|", "\\|").replace("\n", " ")

def markdown(report:dict) -> str:
  out = [f"# Score: {_pts(report['score'])} / {_pts(report['max_score'])}", "",
         "| module | status | score | time |", "|---|---|---|---|"]
  out += [f"| {m['module']} | {m['status']} | {_pts(m['score'])} / {_pts(m['max_score'])} | {m['seconds']:.1f} s |" for m in report["modules"]]
  for m in report["modules"]:
    out += ["", f"## {m['module']}", ""] + ([f"_{_cell(m['message'])}_", ""] if m.get("message") else [])
    out += ["| test | status | score | message |", "|---|---|---|---|"]
    out += [f"| `{t['id']}` | {t['status']} | {_pts(t['score'])} / {_pts(t['max_score'])} | {_cell(t['message'])} |" for t in m["tests"]]
  return "\n".join(out) + "\n"

def write(report:dict, json_path:str|None, markdown_path:str|None):
  if json_path: Path(json_path).write_text(json.dumps(report, indent=2) + "\n")
  if markdown_path: Path(markdown_path).write_text(markdown(report))
