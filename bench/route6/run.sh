#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
#
# The IPv6 lookup libraries on a synthetic DFZ-mix table (bench/route6/fib6_bench.c):
# rte_lpm6 against rte_fib6 TRIE; load time, memory, lookup and update cycles, ::/0;
# then (IR=1) instructions per address looked up, counted by callgrind on a smaller
# table. Never run by the tests; docs/benchmarks-route6.md holds a run.
#   bench/route6/run.sh [BUILDDIR]
# Environment:
#   ROUTES=500000    routes in the table
#   ROUNDS=9         passes over the destinations for the lookup figures
#   LOADS=3          loads of the whole table per structure (the median is given)
#   NH8=0            1: rte_fib6 with 8-byte next hops too
#   SORTED=0         1: load the routes in prefix order (as a full dump comes), not shuffled
#   HUGE=0           1: on 2 MiB hugepages (root; reserves HUGE_PAGES=1150 more than
#                    are reserved already, and gives back as many at the end: another
#                    user's reservation is left alone)
#   MEM=4096         MiB of memory for EAL (2300 with HUGE=1)
#   IR=0             1: only the callgrind count, IR_ROUTES=100000 routes, IR_DESTS=65536
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-build}
bin="$dir/bench/route6/fib6_bench"
ROUTES=${ROUTES:-500000}
ROUNDS=${ROUNDS:-9}
LOADS=${LOADS:-3}
NH8=${NH8:-0}
SORTED=${SORTED:-0}
HUGE=${HUGE:-0}
HUGE_PAGES=${HUGE_PAGES:-1150}
MEM=${MEM:-$([ "${HUGE:-0}" = 1 ] && echo 2300 || echo 4096)}
IR=${IR:-0}
IR_ROUTES=${IR_ROUTES:-100000}
IR_DESTS=${IR_DESTS:-65536}
prefix="fib6-bench-$$"
rundir=${XDG_RUNTIME_DIR:-/tmp}
[ "$(id -u)" -ne 0 ] || rundir=/var/run
hp_file=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
cg_out=$(mktemp -u /tmp/fib6-bench-cg.XXXXXX)
cleanup() {
	rm -rf "$rundir/dpdk/$prefix"
	rm -f /dev/hugepages/"$prefix"* "$cg_out" 2>/dev/null || true
	if [ -n "${hp_added:-}" ]; then
		echo $(($(cat "$hp_file") - hp_added)) >"$hp_file"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[ -x "$bin" ] || { echo "run.sh: build $bin first (bash scripts/build.sh $dir)" >&2; exit 1; }
mem=(--no-huge -m "$MEM")
if [ "$HUGE" = 1 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "run.sh: HUGE=1 needs root (it reserves hugepages)" >&2
		exit 1
	fi
	hp_before=$(cat "$hp_file")
	echo $((hp_before + HUGE_PAGES)) >"$hp_file"
	hp_added=$(($(cat "$hp_file") - hp_before))
	if [ "$hp_added" -lt "$HUGE_PAGES" ]; then
		echo "run.sh: could reserve only $hp_added of $HUGE_PAGES more hugepages of 2 MiB" >&2
		exit 1
	fi
	mountpoint -q /dev/hugepages || mount -t hugetlbfs nodev /dev/hugepages
	mem=(-m "$MEM" --huge-unlink)
fi
# one lcore, on CPU 1 when there is one (CPU 0 takes the interrupts)
cpu=$(($(nproc) > 1 ? 1 : 0))
eal=("${mem[@]}" --no-pci -l "$cpu" --file-prefix "$prefix" --log-level '*:error')
if [ "$IR" = 1 ]; then
	args=(--routes "$IR_ROUTES" --ir "$IR_DESTS")
	[ "$NH8" = 1 ] && args+=(--nh8)
	echo "# run.sh: callgrind ${args[*]}"
	valgrind --tool=callgrind --callgrind-out-file="$cg_out" --collect-atstart=no \
		--toggle-collect=ir_lpm6 --toggle-collect=ir_fib6 --toggle-collect=ir_fib6_8b \
		"$bin" "${eal[@]}" -- "${args[@]}" 2>&1 | grep '^#' || true
	callgrind_annotate --inclusive=yes "$cg_out" 2>/dev/null |
		awk -v n="$IR_DESTS" '/ir_(lpm6|fib6|fib6_8b)[ \x27]/ {
			gsub(",", "", $1); f = $0; sub(/.*:/, "", f); sub(/ .*/, "", f)
			printf "# %s: %.1f Ir per address\n", f, $1 / n }'
	exit 0
fi
args=(--routes "$ROUTES" --rounds "$ROUNDS" --loads "$LOADS")
[ "$NH8" = 1 ] && args+=(--nh8)
[ "$SORTED" = 1 ] && args+=(--sorted)
echo "# run.sh: HUGE=$HUGE ${args[*]} ($(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"
"$bin" "${eal[@]}" -- "${args[@]}"
echo "# run.sh: done (load $(cut -d' ' -f1-3 /proc/loadavg))"
