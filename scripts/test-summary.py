#!/usr/bin/python3
"""Read meson testlog.json files and print the closing line CI reads: "N passed, N failed".

Every test() of every log is one count; a test meson skipped (exit 77) counts as
skipped. Before it, one line per log (each run: build/, build-asan/,
build-debian13/), so the closing line's sum can be told apart. Exits 1 when
anything failed or no test ran at all.
"""
import json
import sys


def line(p, f, s):
    return f"{p} passed, {f} failed" + (f", {s} skipped" if s else "")


passed = failed = skipped = 0
for path in sys.argv[1:]:
    p = f = s = 0
    try:
        with open(path) as log:
            for raw in log:
                r = json.loads(raw)["result"]
                if r in ("OK", "EXPECTEDFAIL"):
                    p += 1
                elif r == "SKIP":
                    s += 1
                else:
                    f += 1
        print(f"test-summary: {path}: {line(p, f, s)}")
    except FileNotFoundError:
        print(f"test-summary: {path} missing: that run did not happen", file=sys.stderr)
        f += 1
    passed, failed, skipped = passed + p, failed + f, skipped + s
print(line(passed, failed, skipped))
sys.exit(1 if failed or passed == 0 else 0)
