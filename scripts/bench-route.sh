#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
#
# --fwd route against DPDK's examples/l3fwd (LPM), side by side in the same
# run: one forwarding lcore each, the same two net_pcap ports with
# infinite_rx=1 (TX dropped by the PMD), the same routes (l3fwd's default
# 198.18.N.0/24 -> port N; bench/route/route.ini for ours), 64-byte frames,
# 1 flow and 256 flows. Not a test: prints a Markdown table, keeps the logs.
#
#   scripts/bench-route.sh [BUILDDIR]            (default BUILDDIR: build)
#
# l3fwd is built at benchmark time from the Debian source package of the
# installed DPDK (bench/route/build-l3fwd.sh: apt-get source, a scratch
# directory, one change: DPDK 22.11's l3fwd asks for RX checksum offload,
# which net_pcap lacks, so the request is cleared). Both apps are linked
# statically against Debian's librte_*.a (bench/route/link-static.sh), with
# the same compiler flags as ours.
#
# Environment (defaults in brackets):
#   ROUNDS=5       A/B rounds per flow count (l3fwd, ours, l3fwd, ours, ...)
#   SECS=3         measured seconds per round, after WARM=1 s of warm-up
#   FLOWS="1 256"  flow counts
#   VG_SECS=4      seconds of forwarding under callgrind (0: skip Ir/pkt)
#   OUT=bench-results/route-<date>   logs, callgrind files and results.md
#   DPDK_ORIG=     a dpdk_<version>.orig.tar.* to use instead of downloading
#   OURS_ARGS=     more dpdk-forwarder options, e.g. "--flowsort off"
#   HUGE=0         1: both apps on 2 MiB hugepages (-m 512) instead of
#                  --no-huge; needs root, reserves HUGE_PAGES=600 pages and
#                  gives back what it added when it ends
#   BOUND=0        1: each round also runs ours as --fwd io (the PMD and the
#                  poll loop alone) and --fwd mac (plus a MAC rewrite: the
#                  least a router writes), and the table gives what a mode
#                  spends per packet beyond mac, for l3fwd, ours and 1.1x
#                  l3fwd (docs/benchmarks-route.md)
#
# Mpps: both apps are read the same way, through DPDK's own /ethdev/stats
# telemetry endpoint (bench/route/tstat.py): packets transmitted by both ports
# over SECS seconds. A figure is the median of the rounds.
#
# Ir/pkt: instructions of the forwarding loop (callgrind --toggle-collect:
# ours fwd_lcore_main, l3fwd lpm_main_loop) over the packets forwarded in that
# run, counted exactly as the calls of rte_pktmbuf_free (net_pcap frees each
# dropped TX mbuf with one call; bench/route/cgcount.py).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
builddir=${1:-build}
ROUNDS=${ROUNDS:-5}
SECS=${SECS:-3}
WARM=${WARM:-1}
FLOWS=${FLOWS:-"1 256"}
VG_SECS=${VG_SECS:-4}
OUT=${OUT:-bench-results/route-$(date +%Y%m%d-%H%M%S)}
HUGE=${HUGE:-0}
HUGE_PAGES=${HUGE_PAGES:-600}
BOUND=${BOUND:-0}
py=/usr/bin/python3
bench=$root/bench/route

for tool in pkg-config cc apt-get; do
	command -v $tool >/dev/null || { echo "bench-route: $tool not found" >&2; exit 1; }
done
if [ "$VG_SECS" != 0 ] && ! command -v valgrind >/dev/null; then
	echo "bench-route: valgrind not found (apt-get install valgrind); or VG_SECS=0" >&2
	exit 1
fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
work=$(mktemp -d /tmp/bench-route.XXXXXX)
rundir=/var/run
[ "$(id -u)" -eq 0 ] || rundir=${XDG_RUNTIME_DIR:-/tmp}

# Every process this script starts, so an interrupted run leaves none behind.
children=()
cleanup() {
	local p
	for p in "${children[@]}"; do
		kill -TERM "$p" 2>/dev/null || true
	done
	rm -rf "$work"
	# EAL leaves its runtime directory (telemetry socket, config) behind
	rm -rf "$rundir"/dpdk/bench-route-*-$$
	rm -f /dev/hugepages/bench-route-*-$$* 2>/dev/null || true
	if [ -n "${hp_before:-}" ]; then
		echo "$hp_before" >"$hp_file"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
log() { echo "bench-route: $*" >&2; }

# Memory: --no-huge (4 KiB pages, what the tests use), or 2 MiB hugepages
# (what a deployment uses: far fewer TLB misses, so the PMD costs less and the
# application's own work weighs more in the ratio).
mem=(--no-huge -m 512)
if [ "$HUGE" = 1 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		log "HUGE=1 needs root (it reserves hugepages)"
		exit 1
	fi
	hp_file=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
	if [ "$(cat "$hp_file")" -lt "$HUGE_PAGES" ]; then
		hp_before=$(cat "$hp_file")
		echo "$HUGE_PAGES" >"$hp_file"
	fi
	if [ "$(cat "$hp_file")" -lt "$HUGE_PAGES" ]; then
		log "could not reserve $HUGE_PAGES hugepages of 2 MiB"
		exit 1
	fi
	mountpoint -q /dev/hugepages || mount -t hugetlbfs nodev /dev/hugepages
	# unlinked as mapped: an app's pages go back when it exits, not at the end of the run
	mem=(-m 512 --huge-unlink)
fi

# ---------------------------------------------------------------- l3fwd
bash "$bench/build-l3fwd.sh" "$builddir" "$work"
l3fwd=$work/l3fwd
version=$(dpkg-query -W -f='${Version}' libdpdk-dev)

# ---------------------------------------------------------------- ours
if [ ! -x "$builddir/app/dpdk-forwarder" ]; then
	bash scripts/build.sh "$builddir" >/dev/null
fi
fwd=$work/dpdk-forwarder
bash "$bench/link-static.sh" forwarder "$builddir" "$fwd"

# ---------------------------------------------------------------- runs
# cmd=(the command line of APP on the FLOWS workload, EAL file prefix from TAG)
# shellcheck disable=SC2054 # the lcore map has commas
set_cmd() { # app flows tag
	local e=("${mem[@]}" --no-pci --file-prefix "bench-route-$3-$$"
		--vdev "net_pcap0,rx_pcap=$work/f$2/in0.pcap,infinite_rx=1"
		--vdev "net_pcap1,rx_pcap=$work/f$2/in1.pcap,infinite_rx=1")
	if [ "$1" = l3fwd ]; then
		cmd=("$l3fwd" -l 1 "${e[@]}" -- -p 0x3 -L "--config=(0,0,1),(1,0,1)" --parse-ptype)
	else
		# shellcheck disable=SC2206 # OURS_ARGS is a list of words
		cmd=("$fwd" --lcores 0@0,1@1 "${e[@]}" -- --config "$bench/route.ini"
			--stats-period 0 --stats-file "$OUT/$3.json" ${OURS_ARGS:-})
		# the bound's modes: the command line's --fwd overrides the config's
		[ "$1" = ours ] || cmd+=(--fwd "$1")
	fi
}

# One timed run: Mpps of both ports' TX over SECS seconds, on stdout.
measure() { # app flows round
	local tag=$1-f$2-r$3 pid a b
	set_cmd "$1" "$2" "$tag"
	"${cmd[@]}" >"$OUT/$tag.log" 2>&1 </dev/null &
	pid=$!
	children+=("$pid")
	if ! $py "$bench/tstat.py" "bench-route-$tag-$$" 2 30 >/dev/null; then
		log "$1 did not start, see $OUT/$tag.log"
		# measure runs in $(...): the caller's cleanup does not know this child
		kill -KILL "$pid" 2>/dev/null
		exit 1
	fi
	sleep "$WARM"
	a=$($py "$bench/tstat.py" "bench-route-$tag-$$" 2)
	sleep "$SECS"
	b=$($py "$bench/tstat.py" "bench-route-$tag-$$" 2)
	kill -TERM "$pid"
	wait "$pid" || { log "$1 failed, see $OUT/$tag.log"; exit 1; }
	echo "$a $b" >"$OUT/$tag.samples"
	echo "$a $b" | awk '{printf "%.3f\n", ($5 - $2) / ($4 - $1) / 1e6}'
}

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# Ir per packet of the forwarding loop, on stdout; the profile stays in OUT.
callgrind() { # app flows
	local tag=cg-$1-f$2 fn pid ir n
	fn=fwd_lcore_main
	[ "$1" = l3fwd ] && fn=lpm_main_loop
	local extra=()
	# Under valgrind a signal may land on any thread: ours, whose handler
	# waits for the worker, stops on --duration; l3fwd's handler only sets a
	# flag, so it gets SIGTERM once it has forwarded VG_SECS seconds.
	[ "$1" = ours ] && extra=(--duration "$VG_SECS")
	set_cmd "$1" "$2" "$tag"
	valgrind --tool=callgrind --collect-atstart=no --toggle-collect=$fn \
		--callgrind-out-file="$OUT/$tag.out" "${cmd[@]}" "${extra[@]}" \
		>"$OUT/$tag.log" 2>&1 </dev/null &
	pid=$!
	children+=("$pid")
	if [ "$1" = l3fwd ]; then
		if ! $py "$bench/tstat.py" "bench-route-$tag-$$" 2 120 >/dev/null; then
			log "l3fwd did not start under valgrind, see $OUT/$tag.log"
			exit 1
		fi
		sleep "$VG_SECS"
		kill -TERM "$pid"
	fi
	wait "$pid" || { log "callgrind run of $1 failed, see $OUT/$tag.log"; exit 1; }
	read -r ir n < <($py "$bench/cgcount.py" "$OUT/$tag.out" rte_pktmbuf_free)
	callgrind_annotate --auto=no "$OUT/$tag.out" 2>/dev/null |
		awk -v n="$n" '/file:function/ {on = 1; getline; next}
			on && NF == 0 {exit}
			on {v = $1; gsub(",", "", v); fn = $0; sub(/^.*%\) +/, "", fn); sub(/ \[.*$/, "", fn)
				if (v / n >= 0.5) printf "%8.1f  %s\n", v / n, fn}' \
			>"$OUT/$tag.top"
	echo "$ir $n" | awk '{printf "%.1f\n", $1 / $2}'
}

{
	echo "date: $(date -Is)"
	echo "host: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
	echo "dpdk: $version (l3fwd from $(cat "$work/l3fwd.orig"))"
	echo "ours: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo ?) $(git -C "$root" status --porcelain 2>/dev/null | grep -q . && echo '(with uncommitted changes)')"
	echo "settings: ROUNDS=$ROUNDS SECS=$SECS WARM=$WARM VG_SECS=$VG_SECS HUGE=$HUGE BOUND=$BOUND OURS_ARGS=${OURS_ARGS:-}"
	echo "l3fwd cflags: $(cat "$work/l3fwd.cflags")"
} >"$OUT/env.txt"

apps=(l3fwd ours)
[ "$BOUND" = 1 ] && apps+=(io mac)
res=$OUT/results.md
bound=$OUT/bound.md
{
	echo "| flows | l3fwd Mpps | ours Mpps | ours / l3fwd | l3fwd Ir/pkt | ours Ir/pkt |"
	echo "|---|---|---|---|---|---|"
} >"$res"
{
	echo "| flows | io Mpps | mac Mpps | l3fwd over mac | ours over mac | 1.1x l3fwd leaves over mac |"
	echo "|---|---|---|---|---|---|"
} >"$bound"
for f in $FLOWS; do
	mkdir -p "$work/f$f"
	$py "$bench/mkpcap.py" "$f" "$work/f$f"
	for app in "${apps[@]}"; do
		: >"$OUT/mpps-$app-f$f.txt"
	done
	for ((r = 1; r <= ROUNDS; r++)); do
		for app in "${apps[@]}"; do
			m=$(measure "$app" "$f" $r)
			echo "$m" >>"$OUT/mpps-$app-f$f.txt"
			log "flows $f round $r: $app $m Mpps"
		done
		# every run of ours forwards everything: no drop of any reason
		if ! $py - "$OUT/ours-f$f-r$r.json" <<'EOF'; then
import json, sys
st = json.load(open(sys.argv[1]))
drops = {k: v for k, v in st["drops"].items() if v}
fwd = sum(lc["forwarded"] for lc in st["route"]["lcores"])
rx = sum(p["ipackets"] for p in st["ports"])
sys.exit(0 if not drops and fwd == rx and st["mbufs_leaked"] == 0 else
         "ours dropped %r, forwarded %d of %d" % (drops, fwd, rx))
EOF
			log "dpdk-forwarder did not forward everything, see $OUT/ours-f$f-r$r.json"
			exit 1
		fi
	done
	ml=$(median <"$OUT/mpps-l3fwd-f$f.txt")
	mo=$(median <"$OUT/mpps-ours-f$f.txt")
	il=- io=-
	if [ "$VG_SECS" != 0 ]; then
		il=$(callgrind l3fwd "$f")
		io=$(callgrind ours "$f")
	fi
	ratio=$(awk -v a="$mo" -v b="$ml" 'BEGIN {printf "%.2f", a / b}')
	echo "| $f | $ml | $mo | $ratio | $il | $io |" >>"$res"
	if [ "$BOUND" = 1 ]; then
		mi=$(median <"$OUT/mpps-io-f$f.txt")
		mm=$(median <"$OUT/mpps-mac-f$f.txt")
		# ns per packet beyond the MAC-rewriting forwarder (1000 / Mpps = ns per packet)
		awk -v f="$f" -v i="$mi" -v m="$mm" -v l="$ml" -v o="$mo" 'BEGIN {
			printf "| %s | %s | %s | %.2f ns | %.2f ns | %.2f ns |\n", f, i, m,
				1000 / l - 1000 / m, 1000 / o - 1000 / m, 1000 / (1.1 * l) - 1000 / m }' >>"$bound"
	fi
done

cat "$OUT/env.txt"
echo
cat "$res"
echo
if [ "$BOUND" = 1 ]; then
	cat "$bound"
	echo
fi
echo "Mpps: median of $ROUNDS alternating rounds; each round's figures in $OUT/mpps-*.txt."
if [ "$VG_SECS" != 0 ]; then
	for f in $FLOWS; do
		for app in l3fwd ours; do
			echo
			echo "Ir/pkt by function, $app, $f flows (self cost):"
			cat "$OUT/cg-$app-f$f.top"
		done
	done
fi
