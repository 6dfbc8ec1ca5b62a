"""Runs course code blocks in order in this process (they share one namespace) and writes one result per block to
the JSON file named by argv[1], after every block (a crash or a timeout keeps the results so far).
stdin: [{"file": path of the page, "line": first code line, "code": ...}, ...]. Used by tests/course_docs.py."""
import contextlib, io, json, sys, time, traceback

def main():
  blocks, out = json.load(sys.stdin), sys.argv[1]
  ns, results = {"__name__": "__course__"}, []
  for b in blocks:
    buf, t0, err = io.StringIO(), time.perf_counter(), None
    try:
      code = compile("\n" * (b["line"] - 1) + b["code"], b["file"], "exec")   # tracebacks point into the page
      with contextlib.redirect_stdout(buf): exec(code, ns)
    except BaseException:                                                     # noqa: BLE001 (SystemExit too)
      err = traceback.format_exc(limit=-8)
    results.append({"error": err, "stdout": buf.getvalue(), "seconds": round(time.perf_counter() - t0, 3)})
    with open(out, "w") as f: json.dump(results, f)

if __name__ == "__main__": main()
