#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
#
# The route lookup structures on a synthetic full table (bench/route/fib_bench.c):
# rt_fib, rte_lpm, rte_fib DIR24_8; load time, memory, lookup and update
# cycles. Never run by the tests; docs/benchmarks-route.md holds a run.
#   bench/route/fib_bench.sh [BUILDDIR]
# Environment:
#   ROUTES=1000000   routes in the table
#   LPM_MAX=100000   routes rte_lpm is loaded with three times (its add is O(rules))
#   LPM_FULL=1       0: skip loading the whole table into rte_lpm (about 2 min CPU)
#   ROUNDS=9         passes over the destinations for the lookup figures
#   VARIANTS=1       0: skip the rt_fib lookup forms
#   HUGE=0           1: on 2 MiB hugepages (root; reserves HUGE_PAGES=1200, gives
#                    them back at the end)
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-build}
bin="$dir/bench/route/fib_bench"
ROUTES=${ROUTES:-1000000}
LPM_MAX=${LPM_MAX:-100000}
LPM_FULL=${LPM_FULL:-1}
ROUNDS=${ROUNDS:-9}
VARIANTS=${VARIANTS:-1}
HUGE=${HUGE:-0}
HUGE_PAGES=${HUGE_PAGES:-1200}
prefix="fib-bench-$$"
rundir=${XDG_RUNTIME_DIR:-/tmp}
[ "$(id -u)" -ne 0 ] || rundir=/var/run
hp_file=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
cleanup() {
	rm -rf "$rundir/dpdk/$prefix"
	rm -f /dev/hugepages/"$prefix"* 2>/dev/null || true
	if [ -n "${hp_before:-}" ]; then
		echo "$hp_before" >"$hp_file"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[ -x "$bin" ] || { echo "fib_bench.sh: build $bin first (bash scripts/build.sh $dir)" >&2; exit 1; }
mem=(--no-huge -m 2048)
if [ "$HUGE" = 1 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "fib_bench.sh: HUGE=1 needs root (it reserves hugepages)" >&2
		exit 1
	fi
	if [ "$(cat "$hp_file")" -lt "$HUGE_PAGES" ]; then
		hp_before=$(cat "$hp_file")
		echo "$HUGE_PAGES" >"$hp_file"
	fi
	if [ "$(cat "$hp_file")" -lt "$HUGE_PAGES" ]; then
		echo "fib_bench.sh: could not reserve $HUGE_PAGES hugepages of 2 MiB" >&2
		exit 1
	fi
	mountpoint -q /dev/hugepages || mount -t hugetlbfs nodev /dev/hugepages
	mem=(-m 2048)
fi
args=(--routes "$ROUTES" --lpm-max "$LPM_MAX" --rounds "$ROUNDS")
[ "$LPM_FULL" = 1 ] && args+=(--lpm-full)
[ "$VARIANTS" = 1 ] && args+=(--variants)
echo "# fib_bench.sh: HUGE=$HUGE ${args[*]} ($(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"
# one lcore, on CPU 1 when there is one (CPU 0 takes the interrupts)
cpu=$(($(nproc) > 1 ? 1 : 0))
"$bin" "${mem[@]}" --no-pci -l "$cpu" --file-prefix "$prefix" --log-level '*:error' -- "${args[@]}"
