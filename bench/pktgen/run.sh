#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
#
# lib/pktgen against dpdk-testpmd --forward-mode=txonly on net_null, one TX
# lcore, 64-byte frames (pkt_len 64 for both: our size counts the FCS, so 68),
# rounds interleaved (testpmd, then ours), medians; then one paced run.
#   bench/pktgen/run.sh [BUILDDIR] [ROUNDS] [SECONDS] [PACED_PPS] [PACED_SECONDS]
# Figures: packets per wall second, and per second of CPU the TX thread got
# (/proc/<pid>/task/<tid>/schedstat, first field): the machine is shared, so
# the second is the one to compare. Results go to stdout; docs/benchmarks-pktgen.md
# holds a run.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-build}
rounds=${2:-5}
secs=${3:-2}
pps=${4:-5000000}
psecs=${5:-10}
bin="$dir/bench/pktgen/bench-pktgen"
eal=(--no-huge -m 512 --no-pci --vdev net_null0 -l 0,1 --log-level '*:error')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One testpmd txonly run of $secs seconds: prints "Mpps Mpps/CPU-s".
testpmd_round() {
	local fifo="$tmp/fifo" out="$tmp/testpmd.out" pid tid="" cpu=0 v pkts t0 t1
	rm -f "$fifo"
	mkfifo "$fifo"
	dpdk-testpmd "${eal[@]}" --file-prefix "pgbench-tp-$$" -- --forward-mode=txonly \
		--txpkts=64 --burst=32 --total-num-mbufs=16384 --port-topology=loop \
		<"$fifo" >"$out" 2>&1 &
	pid=$!
	exec 3>"$fifo"
	# forwarding starts once the worker thread shows up and runs
	for _ in $(seq 200); do
		tid=$(grep -l '^rte-worker-1$' /proc/$pid/task/*/comm 2>/dev/null | head -1 |
			cut -d/ -f5) || true
		[ -n "$tid" ] && break
		sleep 0.05
	done
	t0=$(date +%s%N)
	sleep "$secs"
	echo >&3 # "Press enter to exit"
	exec 3>&-
	# the worker's CPU time as late as it can be read: it stops with forwarding
	while v=$(cut -d' ' -f1 /proc/$pid/task/$tid/schedstat 2>/dev/null); do
		cpu=$v
		sleep 0.001
	done
	t1=$(date +%s%N)
	wait $pid || true
	pkts=$(grep 'TX-packets' "$out" | tail -1 | awk '{print $2}')
	awk -v p="$pkts" -v c="$cpu" -v w=$((t1 - t0)) \
		'BEGIN { printf "%.2f %.2f\n", p / w * 1e3, p / c * 1e3 }'
}

echo "# $(date -u +%F) $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $rounds rounds of $secs s"
for r in $(seq "$rounds"); do
	read -r tw tc < <(testpmd_round)
	echo "round $r testpmd-txonly  $tw Mpps  $tc Mpps/CPU-s" | tee -a "$tmp/rounds"
	"$bin" "${eal[@]}" --file-prefix "pgbench-$$" -- --seconds "$secs" --rounds 1 \
		--size 68 --only clone1 | grep '^round' | tee -a "$tmp/rounds"
	for v in clone16 clone16-perpkt; do
		"$bin" "${eal[@]}" --file-prefix "pgbench-$$" -- --seconds "$secs" --rounds 1 \
			--size 68 --only $v | grep '^round' | tee -a "$tmp/rounds"
	done
done
echo "# medians (Mpps, Mpps per CPU-second) and ratio to testpmd txonly per CPU-second"
awk '/^round/ { name = $3; n[name]++; w[name, n[name]] = $(NF - 3); c[name, n[name]] = $(NF - 1) }
function med(a, name, k,   i, j, t, v) {
	for (i = 1; i <= k; i++) v[i] = a[name, i]
	for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
	return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
}
END {
	base = med(c, "testpmd-txonly", n["testpmd-txonly"])
	for (name in n)
		printf "%-16s %7.2f Mpps %7.2f Mpps/CPU-s  x%.2f\n", name, med(w, name, n[name]),
			med(c, name, n[name]), med(c, name, n[name]) / base
}' "$tmp/rounds" | sort
echo "# paced: $pps pps for $psecs s"
"$bin" "${eal[@]}" --file-prefix "pgbench-$$" -- --rounds 1 --only paced --rate "$pps" \
	--paced-seconds "$psecs" | grep -E '^round'
