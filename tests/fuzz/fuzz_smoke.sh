#!/usr/bin/env bash
# CI's fuzz run: 200k inputs each of the config parser and the router's packet path
# (input checks, rt_route_burst(), the flow stage) under ASan+UBSan; fails on any crash.
set -euo pipefail
cd "$1"
FUZZ_RUNS=200000 bash scripts/fuzz.sh
