#!/usr/bin/env bash
# CI's fuzz run: a bounded number of inputs of the targets named (scripts/fuzz.sh)
# under ASan+UBSan; fails on any crash (scripts/fuzz.sh makes a finding exit 1:
# libFuzzer's own 77 is meson's "skipped", and a crash once passed as a skip). 200k inputs each of the fast targets,
# FUZZ_RUNS_SLOW of those that set up a table or run shell commands per input.
#   fuzz_smoke.sh SOURCE_ROOT TARGET...
set -euo pipefail
cd "$1"
shift
FUZZ_RUNS=${FUZZ_RUNS:-200000} FUZZ_RUNS_SLOW=${FUZZ_RUNS_SLOW:-20000} bash scripts/fuzz.sh 0 "$@"
