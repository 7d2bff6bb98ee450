#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
#
# A/B of several dpdk-forwarder executables on the route benchmark's
# workload (scripts/bench-route.sh: two net_pcap ports, infinite_rx=1, the
# same routes), in alternating rounds, for comparing two versions of the code
# (e.g. the static links that bench/route/link-static.sh makes of two build
# directories, or of a build with one experimental change). Prints each
# executable's median Mpps and its rounds. Never run by the tests.
#
#   bench/route/ab.sh EXE [EXE...]
#
# Environment (defaults in brackets):
#   FLOWS=1      flows in the workload (bench/route/mkpcap.py)
#   ROUNDS=5     rounds; each runs every EXE once, in the order given
#   SECS=2       measured seconds per run, after 1 s of warm-up
#   ARGS=        more dpdk-forwarder options, e.g. "--flowsort off" or "--fwd io"
#   MEM="--no-huge -m 512"   EAL memory options; "-m 512" for hugepages
#                (reserve them first, as scripts/bench-route.sh HUGE=1 does)
#   L3FWD=       an l3fwd executable to run as one more contestant
#                (-p 0x3 -L --config="(0,0,1),(1,0,1)" --parse-ptype)
set -euo pipefail
[ $# -ge 1 ] || {
	sed -n '4,22p' "$0" >&2
	exit 2
}
here=$(cd "$(dirname "$0")" && pwd)
FLOWS=${FLOWS:-1}
ROUNDS=${ROUNDS:-5}
SECS=${SECS:-2}
MEM=${MEM:---no-huge -m 512}
py=/usr/bin/python3
work=$(mktemp -d /tmp/ab-route.XXXXXX)
rundir=/var/run
[ "$(id -u)" -eq 0 ] || rundir=${XDG_RUNTIME_DIR:-/tmp}
# EAL leaves its runtime directory and, on hugepages, its page files (kept
# for secondaries, holding the pages) behind
trap 'rm -rf "$work" "$rundir"/dpdk/ab-route-*-$$; rm -f /dev/hugepages/ab-route-*-$$map_*' EXIT
$py "$here/mkpcap.py" "$FLOWS" "$work"

exes=("$@")
[ -n "${L3FWD:-}" ] && exes+=("$L3FWD")

# One run of executable number $1: Mpps on stdout.
run() {
	local exe=${exes[$1]} prefix=ab-route-$1-$$ e cmd a b pid
	# shellcheck disable=SC2206 # MEM is a list of words
	e=($MEM --no-pci --file-prefix "$prefix"
		--vdev "net_pcap0,rx_pcap=$work/in0.pcap,infinite_rx=1"
		--vdev "net_pcap1,rx_pcap=$work/in1.pcap,infinite_rx=1")
	if [ "$exe" = "${L3FWD:-}" ]; then
		cmd=("$exe" -l 1 "${e[@]}" -- -p 0x3 -L "--config=(0,0,1),(1,0,1)" --parse-ptype)
	else
		# shellcheck disable=SC2206,SC2054 # ARGS is a list of words; the lcore map has commas
		cmd=("$exe" --lcores 0@0,1@1 "${e[@]}" -- --config "$here/route.ini"
			--stats-period 0 ${ARGS:-})
	fi
	"${cmd[@]}" >"$work/run-$1.log" 2>&1 </dev/null &
	pid=$!
	if ! $py "$here/tstat.py" "$prefix" 2 30 >/dev/null; then
		kill "$pid" 2>/dev/null || true
		echo "ab: $exe did not start:" >&2
		tail -n 5 "$work/run-$1.log" >&2
		exit 1
	fi
	sleep 1
	a=$($py "$here/tstat.py" "$prefix" 2)
	sleep "$SECS"
	b=$($py "$here/tstat.py" "$prefix" 2)
	kill -TERM "$pid"
	wait "$pid" || true
	echo "$a $b" | awk '{printf "%.2f\n", ($5 - $2) / ($4 - $1) / 1e6}'
}

for ((r = 1; r <= ROUNDS; r++)); do
	for i in "${!exes[@]}"; do
		run "$i" >>"$work/mpps-$i"
	done
done
for i in "${!exes[@]}"; do
	med=$(sort -g "$work/mpps-$i" | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}')
	echo "$med Mpps (median)  $(tr '\n' ' ' <"$work/mpps-$i") ${exes[$i]}"
done
