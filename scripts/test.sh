#!/usr/bin/env bash
# Set up, build and run every test; the last line is "N passed, N failed".
# This is the README's second command and what CI runs (.ci/run).
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || { echo "0 passed, 1 failed"; exit 1; }
bash scripts/build.sh build || { echo "0 passed, 1 failed"; exit 1; }

rm -f build/meson-logs/testlog.json
meson test -C build --print-errorlogs --num-processes "$(nproc)" "$@"
status=$?
/usr/bin/python3 scripts/test-summary.py build/meson-logs/testlog.json || status=1
exit $status
