#!/usr/bin/env bash
# The imx8mp VM tests beyond the CI smoke (tests/vm/imx8mp_e2e.py: io and io
# with legacy descriptors on 3000 mixed frames, route as a router on a stick,
# port restarts), one guest at a time. About 20 s each once the guest is built.
#   scripts/vm/imx8mp/run-tests.sh [BUILDDIR]
set -euo pipefail
cd "$(dirname "$0")/../../.."
dir=${1:-build}
bash scripts/build.sh "$dir" >/dev/null
meson test -C "$dir" --setup vm --suite vm-smoke --suite vm --num-processes 1 --print-errorlogs
