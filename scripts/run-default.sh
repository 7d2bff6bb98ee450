#!/usr/bin/env bash
# The README's first command: set up, build, and run the forwarder on its
# embedded default (two net_null ports, no NIC, no hugepages) for a few seconds.
#   scripts/run-default.sh [extra application options]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh build >/dev/null
exec ./build/app/dpdk-forwarder -- --duration 5 --stats-period 1 "$@"
