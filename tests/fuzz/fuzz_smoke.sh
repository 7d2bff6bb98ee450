#!/usr/bin/env bash
# CI's fuzz run: 200k inputs of the config parser under ASan+UBSan; fails on any crash.
set -euo pipefail
cd "$1"
FUZZ_RUNS=200000 bash scripts/fuzz.sh
