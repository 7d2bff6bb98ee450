#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
#
# Instructions per packet of the forwarding loop (callgrind toggled on
# fwd_lcore_main) for several dpdk-forwarder executables, in one run, on the
# route benchmark's workload (two net_pcap ports, infinite_rx=1, TX dropped by
# the PMD): io, mac, route with the router alone (--flowsort off), route with
# the config's defaults (route-stage: the flow stage up to issue 41, the
# router alone since flow-table = auto) and route with the flow table on
# (route-table: --flow-table on, executables from issue 41 on), at 1 and 256
# flows. For checking that a change of layout or a refactor leaves the
# datapath's cost where it was (issue 21: within 1 %). Never run by the tests.
#
#   bench/ir-ab.sh EXE [EXE...]      (static links: bench/route/link-static.sh)
#
# Environment: VG_SECS=3 (seconds forwarded under callgrind per row),
# CASES="io mac route-off route-stage" (route-table too), FLOWS="1 256",
# ARGS= (more options for every run, e.g. "--total-num-mbufs 16384" for
# 4096 flows: net_pcap holds the whole pcap in mbufs).
# Prints a Markdown table: one row per case and flow count, one column per EXE.
set -euo pipefail
[ $# -ge 1 ] || {
	sed -n '4,21p' "$0" >&2
	exit 2
}
here=$(cd "$(dirname "$0")" && pwd)
VG_SECS=${VG_SECS:-3}
CASES=${CASES:-"io mac route-off route-stage"}
FLOWS=${FLOWS:-"1 256"}
py=/usr/bin/python3
work=$(mktemp -d /tmp/ir-ab.XXXXXX)
rundir=/var/run
[ "$(id -u)" -eq 0 ] || rundir=${XDG_RUNTIME_DIR:-/tmp}
trap 'rm -rf "$work" "$rundir"/dpdk/ir-ab-*-$$' EXIT
for f in $FLOWS; do
	mkdir -p "$work/f$f"
	$py "$here/route/mkpcap.py" "$f" "$work/f$f" >/dev/null
done

# Ir/pkt of executable $1 on case $2 at $3 flows, on stdout.
ir() {
	local exe=$1 c=$2 f=$3 tag=ir-ab-$RANDOM-$$ args=() ir n
	case $c in
	io | mac) args=(--fwd "$c") ;;
	route-off) args=(--flowsort off) ;;
	route-stage) args=() ;;
	route-table) args=(--flow-table on) ;;
	*)
		echo "ir-ab: unknown case $c" >&2
		exit 2
		;;
	esac
	# shellcheck disable=SC2086 # ARGS: words, split on purpose
	valgrind --tool=callgrind --collect-atstart=no --toggle-collect=fwd_lcore_main \
		--callgrind-out-file="$work/$tag.out" \
		"$exe" --lcores 0@0,1@1 --no-huge -m 512 --no-pci --file-prefix "$tag" \
		--vdev "net_pcap0,rx_pcap=$work/f$f/in0.pcap,infinite_rx=1" \
		--vdev "net_pcap1,rx_pcap=$work/f$f/in1.pcap,infinite_rx=1" \
		-- --config "$here/route/route.ini" --stats-period 0 --duration "$VG_SECS" \
		"${args[@]}" ${ARGS:-} >"$work/$tag.log" 2>&1 </dev/null || {
		echo "ir-ab: $exe $c failed:" >&2
		tail -5 "$work/$tag.log" >&2
		exit 1
	}
	read -r ir n < <($py "$here/route/cgcount.py" "$work/$tag.out" rte_pktmbuf_free)
	echo "$ir $n" | awk '{printf "%.1f", $1 / $2}'
}

printf '| case | flows |'
for e in "$@"; do printf ' %s |' "$(basename "$e")"; done
printf '\n|---|---|'
for _ in "$@"; do printf -- '---|'; done
printf '\n'
for c in $CASES; do
	for f in $FLOWS; do
		printf '| %s | %s |' "$c" "$f"
		for e in "$@"; do printf ' %s |' "$(ir "$e" "$c" "$f")"; done
		printf '\n'
	done
done
