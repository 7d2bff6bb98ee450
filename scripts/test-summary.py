#!/usr/bin/python3
"""Read meson's testlog.json and print the closing line CI reads: "N passed, N failed".

Every test() is one count; a test meson skipped (exit 77) counts as skipped.
Exits 1 when anything failed or no test ran at all.
"""
import json
import sys

passed = failed = skipped = 0
try:
    with open(sys.argv[1]) as f:
        for line in f:
            r = json.loads(line)["result"]
            if r in ("OK", "EXPECTEDFAIL"):
                passed += 1
            elif r == "SKIP":
                skipped += 1
            else:
                failed += 1
except FileNotFoundError:
    failed += 1
print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
sys.exit(1 if failed or passed == 0 else 0)
