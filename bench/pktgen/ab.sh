#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
#
# A/B of two builds of bench-pktgen (e.g. before and after a change to
# lib/pktgen), rounds interleaved A, B for each variant, medians of packets per
# second of CPU the TX thread got (the figure to compare on a shared machine)
# and the ratio B / A. Same EAL set-up as run.sh.
#   bench/pktgen/ab.sh BIN_A BIN_B [ROUNDS] [SECONDS] [VARIANTS...]
set -euo pipefail
a=$1
b=$2
rounds=${3:-5}
secs=${4:-2}
shift 4 || shift $#
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(clone1 clone16 clone16-perpkt)
eal=(--no-huge -m 512 --no-pci --vdev net_null0 -l 0,1 --log-level '*:error')
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

echo "# $(date -u +%F) $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $rounds rounds of $secs s"
echo "# A = $a"
echo "# B = $b"
for r in $(seq "$rounds"); do
	for v in "${variants[@]}"; do
		for side in A B; do
			bin=$a
			[ $side = B ] && bin=$b
			"$bin" "${eal[@]}" --file-prefix "pgab-$$" -- --seconds "$secs" --rounds 1 \
				--size 68 --only "$v" | grep '^round' | sed "s/^round 0/round $r $side/" |
				tee -a "$tmp"
		done
	done
done
echo "# medians: Mpps (wall), Mpps per CPU-second, B / A per CPU-second"
awk '/^round/ { k = $4 " " $3; n[k]++; w[k, n[k]] = $(NF - 3); c[k, n[k]] = $(NF - 1); vs[$4] = 1 }
function med(a, k, m,   i, j, t, v) {
	for (i = 1; i <= m; i++) v[i] = a[k, i]
	for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
	return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
}
END {
	for (v in vs) {
		ka = v " A"; kb = v " B"
		printf "%-16s A %7.2f Mpps %7.2f Mpps/CPU-s   B %7.2f Mpps %7.2f Mpps/CPU-s   B/A x%.3f\n", v,
			med(w, ka, n[ka]), med(c, ka, n[ka]), med(w, kb, n[kb]), med(c, kb, n[kb]),
			med(c, kb, n[kb]) / med(c, ka, n[ka])
	}
}' "$tmp" | sort
