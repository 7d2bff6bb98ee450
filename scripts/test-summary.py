#!/usr/bin/python3
"""Read meson testlog.json files and print the closing line CI reads: "N passed, N failed".

Every test() of every log is one count; a test meson skipped (exit 77) counts as
skipped. Exits 1 when anything failed or no test ran at all.
"""
import json
import sys

passed = failed = skipped = 0
for path in sys.argv[1:]:
    try:
        with open(path) as f:
            for line in f:
                r = json.loads(line)["result"]
                if r in ("OK", "EXPECTEDFAIL"):
                    passed += 1
                elif r == "SKIP":
                    skipped += 1
                else:
                    failed += 1
    except FileNotFoundError:
        print(f"test-summary: {path} missing: that run did not happen", file=sys.stderr)
        failed += 1
print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
sys.exit(1 if failed or passed == 0 else 0)
