#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
#
# io (and mac) forwarding benchmark: dpdk-forwarder against Debian's
# dpdk-testpmd, in the same run, on two net_null ports with one forwarding
# lcore each. Not a test: it prints a Markdown table and keeps the raw logs.
#
#   scripts/bench-io.sh [BUILDDIR]            (default BUILDDIR: build)
#
# Environment (defaults in brackets):
#   MODES="io mac"   forwarding modes to compare (io, mac)
#   ROUNDS=5         A/B rounds per mode (ours, testpmd, ours, testpmd, ...)
#   SECS=5           seconds per round; the first 1-s stats sample is warm-up
#   BURST=32         RX burst and TX burst on both sides
#   VG_SECS=8        seconds of forwarding under callgrind (0: skip Ir/pkt)
#   STATIC=1         also run "ours-static": the same objects linked against
#                    DPDK's static archives (bench/io/link-static.sh); 0: skip
#   LCORES=0,1       EAL -l: the first is the main lcore, the second forwards
#   HUGE=0           1: both apps on 2 MiB hugepages (-m 512, --huge-unlink)
#                    instead of --no-huge; needs root, reserves HUGE_PAGES=300
#                    pages and gives back what it added when it ends
#   OUT=bench-results/io-<date>   where the raw logs and results go
#
# Mpps: both apps print per-port stats every second; a sample is the sum of
# the TX rates of both ports (= packets forwarded). A round's figure is the
# median of its samples after the first; the table shows the median of the
# rounds and the ratio of the medians.
#
# Ir/pkt: instructions executed by the forwarding lcore between the start and
# the end of its poll loop (valgrind callgrind), divided by the exact number of
# packets both ports transmitted in that run. Ours: --toggle-collect of
# fwd_lcore_main. testpmd (Debian's binary is stripped): the inclusive cost of
# the function EAL launches on the forwarding lcore (start_pkt_forward_on_core,
# which wraps run_pkt_fwd_on_lcore) in that thread's profile, which is what a
# --toggle-collect on it would count.
# Commas inside words (-Wl,..., -x,) and $MODES/$(eal) word splitting are meant.
# shellcheck disable=SC2054,SC2046,SC2086
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
builddir=${1:-build}
MODES=${MODES:-"io mac"}
ROUNDS=${ROUNDS:-5}
SECS=${SECS:-5}
BURST=${BURST:-32}
VG_SECS=${VG_SECS:-8}
LCORES=${LCORES:-0,1}
STATIC=${STATIC:-1}
HUGE=${HUGE:-0}
HUGE_PAGES=${HUGE_PAGES:-300}
OUT=${OUT:-bench-results/io-$(date +%Y%m%d-%H%M%S)}

fwd=$root/$builddir/app/dpdk-forwarder
testpmd=$(command -v dpdk-testpmd || true)
if [ -z "$testpmd" ]; then
	echo "bench-io: dpdk-testpmd not found (apt-get install dpdk-dev)" >&2
	exit 1
fi
if [ ! -x "$fwd" ]; then
	bash scripts/build.sh "$builddir" >/dev/null
fi
if [ "$VG_SECS" != 0 ] && ! command -v valgrind >/dev/null; then
	echo "bench-io: valgrind not found (apt-get install valgrind); or VG_SECS=0" >&2
	exit 1
fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

ours_apps=(ours)
if [ "$STATIC" = 1 ]; then
	if bash bench/io/link-static.sh "$builddir" "$OUT/dpdk-forwarder-static" >"$OUT/link-static.log" 2>&1; then
		ours_apps+=(ours-static)
	else
		echo "bench-io: static link failed (see $OUT/link-static.log); skipping ours-static" >&2
	fi
fi
ours_bin() { # app
	case $1 in
	ours) echo "$fwd" ;;
	ours-static) echo "$OUT/dpdk-forwarder-static" ;;
	esac
}

# The one app running at a time, so an interrupted run leaves nothing behind;
# cleared once reaped, so a recycled pid is never signalled.
child=
cleanup() {
	if [ -n "$child" ]; then
		kill -TERM "$child" 2>/dev/null || true
	fi
	if [ -n "${hp_before:-}" ]; then
		echo "$hp_before" >"$hp_file"
	fi
}
reap() { # what: wait for $child, fail with the log's name
	local rc=0
	wait "$child" || rc=$?
	child=
	if [ $rc != 0 ]; then
		echo "bench-io: $1 failed (exit $rc)" >&2
		exit 1
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Memory: --no-huge (4 KiB pages, what the tests use), or 2 MiB hugepages
# (what a deployment uses), unlinked as mapped so a run leaves no page behind.
mem="--no-huge -m 512"
if [ "$HUGE" = 1 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "bench-io: HUGE=1 needs root (it reserves hugepages)" >&2
		exit 1
	fi
	hp_file=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
	if [ "$(cat "$hp_file")" -lt "$HUGE_PAGES" ]; then
		hp_before=$(cat "$hp_file")
		echo "$HUGE_PAGES" >"$hp_file"
	fi
	if [ "$(cat "$hp_file")" -lt "$HUGE_PAGES" ]; then
		echo "bench-io: could not reserve $HUGE_PAGES hugepages of 2 MiB" >&2
		exit 1
	fi
	mountpoint -q /dev/hugepages || mount -t hugetlbfs nodev /dev/hugepages
	mem="-m 512 --huge-unlink"
fi

eal() { # $1: file-prefix tag
	echo -l "$LCORES" $mem --no-pci --file-prefix "bench-io-$1-$$" \
		--vdev net_null0 --vdev net_null1
}

testpmd_mode() {
	case $1 in
	io) echo io ;;
	mac) echo mac ;;
	*) echo "bench-io: mode $1 not supported" >&2; exit 1 ;;
	esac
}

# perf stat -e instructions where the CPU exposes a PMU to us (not in these
# VMs: it prints <not supported>, and we skip it).
perf_ok=0
if command -v perf >/dev/null &&
	perf stat -x, -e instructions true 2>&1 >/dev/null | grep -q '^[0-9]'; then
	perf_ok=1
fi
echo "$perf_ok" >"$OUT/perf_supported"

run_ours() { # app mode round
	local tag=$1-$2-$3
	local log=$OUT/$tag.log
	local wrap=()
	[ "$perf_ok" = 1 ] && wrap=(perf stat -x, -e instructions -o "$OUT/$tag.perf")
	"${wrap[@]}" "$(ours_bin "$1")" $(eal "$tag") -- --fwd "$2" --burst "$BURST" \
		--stats-period 1 --duration "$SECS.5" --stats-file "$OUT/$tag.json" \
		>"$log" 2>&1 </dev/null &
	child=$!
	reap "dpdk-forwarder, see $log"
}

run_testpmd() { # mode round
	local log=$OUT/testpmd-$1-$2.log
	local wrap=()
	local pid i n
	[ "$perf_ok" = 1 ] && wrap=(perf stat -x, -e instructions -o "$OUT/testpmd-$1-$2.perf")
	"${wrap[@]}" "$testpmd" $(eal "testpmd-$1-$2") -- --forward-mode="$(testpmd_mode "$1")" \
		--burst="$BURST" --nb-cores=1 --total-num-mbufs=16384 --stats-period 1 \
		>"$log" 2>&1 </dev/null &
	pid=$!
	child=$pid
	# As many 1-s samples as ours gets (its first one is all zeros here),
	# then SIGTERM: testpmd stops forwarding and prints its totals.
	for ((i = 0; i < 10 * (SECS + 30); i++)); do
		n=$(grep -c Tx-pps "$log" 2>/dev/null) || true
		[ "${n:-0}" -ge $((2 * (SECS + 1))) ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -TERM "$pid" 2>/dev/null || true
	reap "dpdk-testpmd, see $log"
}

# Under valgrind a signal may land on the forwarding thread, so neither app is
# signalled: ours stops on --duration, testpmd when its stdin closes.
vg_ours() { # app mode
	local f=$OUT/cg-$1-$2
	valgrind --tool=callgrind --collect-atstart=no --toggle-collect=fwd_lcore_main \
		--callgrind-out-file="$f.out" \
		"$(ours_bin "$1")" $(eal "vg-$1-$2") -- --fwd "$2" --burst "$BURST" --duration "$VG_SECS" \
		--stats-file "$f.json" >"$f.log" 2>&1 </dev/null &
	child=$!
	reap "callgrind run of dpdk-forwarder, see $f.log"
}

vg_testpmd() { # mode
	local f=$OUT/cg-testpmd-$1
	(sleep "$((VG_SECS + 4))"; echo) | valgrind --tool=callgrind --separate-threads=yes \
		--callgrind-out-file="$f.out.%p" \
		"$testpmd" $(eal "vg-testpmd-$1") -- --forward-mode="$(testpmd_mode "$1")" \
		--burst="$BURST" --nb-cores=1 --total-num-mbufs=16384 >"$f.log" 2>&1 &
	child=$!
	reap "callgrind run of dpdk-testpmd, see $f.log"
}

{
	echo "date: $(date -Is)"
	echo "git: $(git describe --always --dirty 2>/dev/null || echo unknown)"
	echo "cpu: $(lscpu | sed -n 's/^Model name: *//p')"
	echo "nproc: $(nproc)"
	echo "kernel: $(uname -r)"
	echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "dpdk: $(pkg-config --modversion libdpdk)"
	echo "testpmd: $testpmd ($(dpkg-query -W -f='${Package} ${Version}' dpdk-dev 2>/dev/null || true))"
	echo "command: MODES=\"$MODES\" ROUNDS=$ROUNDS SECS=$SECS BURST=$BURST VG_SECS=$VG_SECS STATIC=$STATIC HUGE=$HUGE scripts/bench-io.sh $builddir"
	echo "meson: $(meson introspect "$builddir" --buildoptions 2>/dev/null |
		/usr/bin/python3 -c 'import json,sys; o={x["name"]:x["value"] for x in json.load(sys.stdin)}; print(" ".join(f"{k}={o.get(k)}" for k in ("buildtype","optimization","b_lto","cpu","debug")))' 2>/dev/null || true)"
} >"$OUT/machine.txt"

for mode in $MODES; do
	for ((r = 1; r <= ROUNDS; r++)); do
		echo "bench-io: $mode round $r/$ROUNDS" >&2
		for app in "${ours_apps[@]}"; do
			run_ours "$app" "$mode" "$r"
			[ "$app" = ours ] && run_testpmd "$mode" "$r"
		done
	done
	if [ "$VG_SECS" != 0 ]; then
		echo "bench-io: $mode under callgrind" >&2
		for app in "${ours_apps[@]}"; do
			vg_ours "$app" "$mode"
		done
		vg_testpmd "$mode"
	fi
done

echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/machine.txt"
/usr/bin/python3 bench/io/report.py "$OUT" "${ours_apps[*]}" $MODES | tee "$OUT/results.md"
echo "raw data: $OUT" >&2
