#!/usr/bin/env bash
# The README's first command: set up, build, and run the forwarder on its
# embedded default (two net_null ports, no NIC, no hugepages) for a few seconds.
#   scripts/run-default.sh [extra application options]
set -euo pipefail
cd "$(dirname "$0")/.."
echo "run-default: 1/3 set-up: installing what is missing (seconds when nothing is)" >&2
bash scripts/setup.sh
echo "run-default: 2/3 building build/ (about 1 minute on 2 cores the first time)" >&2
bash scripts/build.sh build >/dev/null
echo "run-default: 3/3 forwarding for 5 s on the embedded default" >&2
exec ./build/app/dpdk-forwarder -- --duration 5 --stats-period 1 "$@"
