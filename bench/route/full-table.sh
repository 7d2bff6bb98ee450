#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
#
# --fwd route against DPDK's l3fwd on a synthetic full table (issue 17): the
# 1 M routes over 64 k next hops of bench/route/mkfulltable.py, loaded by
# both, destinations drawn across the routed space (bench/route/mkfullpcap.py),
# two net_pcap ports with infinite_rx=1 (TX dropped by the PMD), one
# forwarding lcore each. Not a test: prints a Markdown table, keeps the logs.
#
#   bench/route/full-table.sh [BUILDDIR]         (default BUILDDIR: build)
#
# Apps: l3fwd --lookup lpm and --lookup fib, built by bench/route/build-l3fwd.sh
# with the tables raised to hold the table (2 M rules / routes, 65 536 tbl8
# groups; nothing else changed), reading the same prefixes as --rule_ipv4
# (R<prefix>/<len> 1: a port, no gateway) and a one-line --rule_ipv6 (it
# wants both); ours with the route file, the 65 536 gateways' neighbour file
# (mkfulltable.py's full.ini), --flowsort on and --flowsort off.
#
# The LPM load takes minutes (rte_lpm_add searches its depth's rules
# linearly), so each app is started once per flow count and left loaded:
# when it has sent its first packet (the table is in; "ready" is that
# time from its start) it is stopped (SIGSTOP) and the next one is started.
# The rounds then resume one app at a time (SIGCONT), measure it and stop it
# again: l3fwd-lpm, l3fwd-fib, ours-on, ours-off, l3fwd-lpm, ... on the same
# loaded tables, so only one app runs at any time. "Ready" is an app's first
# transmitted packet.
#
# Environment (defaults in brackets):
#   FLOWS="1000 250000"  distinct flows (destinations); l3fwd's pool holds at
#                  most about 262 000 mbufs at its largest queue sizes
#                  (65 535 RX and TX descriptors per port), and infinite_rx
#                  keeps the whole pcap in the pool, so 250 000 is the most
#                  that fits both apps unchanged
#   TRAIN=1        each flow's frame TRAIN times in a row (8: 4 flows a burst;
#                  ours then needs MEM=4096 for a pool of FLOWS x 8 mbufs)
#   INTERLEAVE=0   G: the flows G at a time, each group's frames round-robin
#                  TRAIN times (mkfullpcap.py --interleave: with G=4 TRAIN=8 a
#                  32-packet burst holds 4 flows, A B C D A B C D ...)
#   FILTER=0       1: ours loads a [filter] rule (FILTER_RULE), so that the
#                  flow stage runs on both ours-on and ours-off: ours-on is
#                  then the flow stage grouped by flowsort, ours-off the flow
#                  stage ungrouped (one lookup per run of equal keys), and
#                  the table bypass is off (a filter needs the table).
#                  Without it ours-off is the router alone (no flow stage)
#   FILTER_RULE="deny = proto tcp dport 23"  the rule: it matches none of
#                  mkfullpcap.py's UDP frames (all forwarded); the filter only
#                  runs on a flow-table miss
#   FLOW_AGE=      ours' --flow-age (seconds; default ours' own, 30 s: under
#                  callgrind a pass of a million flows' pcap takes longer, and
#                  every flow would age before its next packet)
#   MBUF_SIZE=     ours' --mbuf-size (256 and up: 8 M pcap frames of 64 bytes
#                  fit 4 GB of 384-byte mbufs); default ours' own
#   APPS="l3fwd-lpm l3fwd-fib ours-on ours-off"
#   ROUNDS=3       alternating rounds; SECS=3 measured after WARM=1 s
#   VG_SECS=3      seconds of forwarding under callgrind (0: skip Ir/pkt).
#                  The callgrind runs load the first VG_ROUTES=20000 routes
#                  of the table (every app, the 65 536 neighbours for ours)
#                  and their pcaps draw the destinations from those routes:
#                  loading a million routes under valgrind takes from tens
#                  of minutes (ours, fib) to hours (rte_lpm), and none of
#                  the lookups executes more instructions on a bigger table
#                  (DIR-24-8: one tbl24 load, a tbl8 load under a longer
#                  route), so Ir/pkt is the same; cache misses (CACHESIM=1)
#                  are those of a 20 k-route table, the Mpps rounds' are
#                  the full one's
#   CACHESIM=0     1: callgrind also simulates the caches (D1/LL misses)
#   VG_WARM=0      ours under callgrind: zero the counts (callgrind_control -z)
#                  VG_WARM seconds after its first packet out, so that Ir/pkt
#                  is the steady state (every flow installed: a pass of the
#                  pcap), not the first pass's misses; VG_SECS (counted from
#                  the start of forwarding) must be longer
#   FLOW_TABLE=1048576  ours' --flow-table-size (holds 1 M resident flows)
#   HUGE=0         1: 2 MiB hugepages (root; reserves HUGE_PAGES=1600 pages
#                  for MEM=3072 MB per app, one app at a time: the Mpps
#                  rounds then start and measure one app after the other
#                  instead of keeping all of them loaded)
#   OUT=bench-results/full-table-<date>   logs, profiles, results.md, .csv
#   DPDK_ORIG=     a dpdk_<version>.orig.tar.* instead of apt-get source
#   TABLE=         a directory holding mkfulltable.py's files (made if empty)
#   FWD=           ours as an executable already linked (bench/route/link-static.sh
#                  forwarder BUILDDIR OUT of another tree: before/after runs)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
builddir=${1:-build}
FLOWS=${FLOWS:-"1000 250000"}
TRAIN=${TRAIN:-1}
APPS=${APPS:-"l3fwd-lpm l3fwd-fib ours-on ours-off"}
ROUNDS=${ROUNDS:-3}
SECS=${SECS:-3}
WARM=${WARM:-1}
VG_SECS=${VG_SECS:-3}
VG_ROUTES=${VG_ROUTES:-20000}
VG_WARM=${VG_WARM:-0}
CACHESIM=${CACHESIM:-0}
FLOW_TABLE=${FLOW_TABLE:-1048576}
INTERLEAVE=${INTERLEAVE:-0}
FILTER=${FILTER:-0}
FILTER_RULE=${FILTER_RULE:-"deny = proto tcp dport 23"}
MBUF_SIZE=${MBUF_SIZE:-}
FLOW_AGE=${FLOW_AGE:-}
HUGE=${HUGE:-0}
HUGE_PAGES=${HUGE_PAGES:-1600}
MEM=${MEM:-3072}
OUT=${OUT:-bench-results/full-table-$(date +%Y%m%d-%H%M%S)}
py=/usr/bin/python3
bench=$root/bench/route

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
work=$(mktemp -d /tmp/full-table.XXXXXX)
rundir=/var/run
[ "$(id -u)" -eq 0 ] || rundir=${XDG_RUNTIME_DIR:-/tmp}
children=()
cleanup() {
	local p
	for p in "${children[@]}"; do
		kill -CONT "$p" 2>/dev/null || true
		kill -TERM "$p" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	rm -rf "$work"
	rm -rf "$rundir"/dpdk/full-table-*-$$
	rm -f /dev/hugepages/full-table-*-$$* 2>/dev/null || true
	if [ -n "${hp_before:-}" ]; then
		echo "$hp_before" >"$hp_file"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
log() { echo "full-table: $(date +%T) $*" >&2; }

mem=(--no-huge -m "$MEM")
if [ "$HUGE" = 1 ]; then
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
	mem=(-m "$MEM")
fi

# ---------------------------------------------------------------- builds, table
bash "$bench/build-l3fwd.sh" "$builddir" "$work" full
l3fwd=$work/l3fwd
fwd=$work/dpdk-forwarder
if [ -n "${FWD:-}" ]; then
	cp "$FWD" "$fwd"
else
	[ -x "$builddir/app/dpdk-forwarder" ] || bash scripts/build.sh "$builddir" >/dev/null
	bash "$bench/link-static.sh" forwarder "$builddir" "$fwd"
fi

TABLE=${TABLE:-$work/table}
mkdir -p "$TABLE"
TABLE=$(cd "$TABLE" && pwd)
if [ ! -s "$TABLE/full.routes" ]; then
	log "writing the table (mkfulltable.py)"
	$py "$bench/mkfulltable.py" "$TABLE"
fi
# l3fwd's rule files: the same prefixes to port 1 (where ours' gateways are)
awk '/^[0-9]/ {print "R" $1 " 1"}' "$TABLE/full.routes" >"$work/full.l3fwd"
head -n "$VG_ROUTES" "$work/full.l3fwd" >"$work/vg.l3fwd"
# the callgrind runs' table: the same first lines for ours (mkfulltable.py
# writes the routes in the order it draws them, so they are generate()'s
# first VG_ROUTES, which mkfullpcap.py draws the destinations from)
mkdir -p "$work/vgtable"
cp "$TABLE/full.ini" "$TABLE/full.neigh" "$work/vgtable/"
awk -v n="$VG_ROUTES" '/^[0-9]/ && ++k > n {exit} {print}' "$TABLE/full.routes" >"$work/vgtable/full.routes"
echo "R2001:db8::/32 0" >"$work/v6.l3fwd"
# FILTER=1: each table's config with a [filter] rule, beside links to its files
if [ "$FILTER" = 1 ]; then
	for t in "$TABLE" "$work/vgtable"; do
		mkdir -p "$t.filter"
		ln -sf "$t/full.routes" "$t/full.neigh" "$t.filter/"
		{
			cat "$t/full.ini"
			printf "\n[filter]\n%s\n" "$FILTER_RULE"
		} >"$t.filter/full.ini"
	done
fi
nroutes=$(wc -l <"$work/full.l3fwd")

# ---------------------------------------------------------------- runs
# cmd=(the command line of APP on FLOWS, EAL file prefix from TAG)
# shellcheck disable=SC2054 # the lcore map has commas
# (a callgrind run, tag cg-*, gets the VG_ROUTES table and its pcaps)
set_cmd() { # app flows tag
	local n e d=$work/f$2 rules=$work/full.l3fwd table=$TABLE opt=()
	case $3 in cg-*) d=$work/vg-f$2 rules=$work/vg.l3fwd table=$work/vgtable ;; esac
	[ "$FILTER" = 1 ] && table=$table.filter
	[ -n "$MBUF_SIZE" ] && opt=(--mbuf-size "$MBUF_SIZE")
	[ -n "$FLOW_AGE" ] && opt+=(--flow-age "$FLOW_AGE")
	n=$(($(cat "$d/count") + 16384))
	e=("${mem[@]}" --no-pci --file-prefix "full-table-$3-$$"
		--vdev "net_pcap0,rx_pcap=$d/in0.pcap,infinite_rx=1"
		--vdev "net_pcap1,rx_pcap=$d/in1.pcap,infinite_rx=1")
	case $1 in
	l3fwd-*)
		# the pool is sized from the queues: the largest both, so it holds the pcaps
		cmd=("$l3fwd" -l 1 "${e[@]}" -- -p 0x3 "--config=(0,0,1),(1,0,1)" --parse-ptype
			--lookup "${1#l3fwd-}" "--rule_ipv4=$rules"
			"--rule_ipv6=$work/v6.l3fwd" --rx-queue-size 65535 --tx-queue-size 65535)
		;;
	ours-*)
		cmd=("$fwd" --lcores 0@0,1@1 "${e[@]}" -- --config "$table/full.ini"
			--flowsort "${1#ours-}" --flow-table-size "$FLOW_TABLE"
			--total-num-mbufs "$n" "${opt[@]}" --stats-period 0 --stats-file "$OUT/$3.json")
		;;
	esac
}

# Wait until the app of telemetry prefix $1 has transmitted a packet (its
# table is loaded and it forwards: net_pcap counts the pcap it reads into the
# pool at start as received, so RX says nothing); prints the seconds it took
# since $2 (date +%s.%N).
wait_ready() { # prefix t0 pid timeout
	local s
	while :; do
		if ! kill -0 "$3" 2>/dev/null; then
			return 1
		fi
		s=$($py "$bench/tstat.py" "$1" 2 2>/dev/null || echo "0 0 0")
		if [ "$(echo "$s" | awk '{print $2}')" -gt 0 ]; then
			break
		fi
		if awk -v t0="$2" -v now="$(date +%s.%N)" -v to="$4" 'BEGIN {exit !(now - t0 > to)}'; then
			return 1
		fi
		sleep 0.2
	done
	awk -v t0="$2" -v now="$(date +%s.%N)" 'BEGIN {printf "%.1f\n", now - t0}'
}

declare -A pids
start_app() { # app flows
	local tag=$1-f$2 t0 ready
	set_cmd "$1" "$2" "$tag"
	t0=$(date +%s.%N)
	"${cmd[@]}" >"$OUT/$tag.log" 2>&1 </dev/null &
	pids[$1]=$!
	children+=("$!")
	if ! ready=$(wait_ready "full-table-$tag-$$" "$t0" "${pids[$1]}" 900); then
		log "$1 did not start forwarding, see $OUT/$tag.log"
		exit 1
	fi
	echo "$ready" >"$OUT/ready-$tag.txt"
	log "flows $2: $1 forwarding after $ready s"
}

# One timed window of a loaded app: Mpps of both ports' TX over SECS seconds.
measure() { # app flows round
	local tag=$1-f$2 p=${pids[$1]} a b
	kill -CONT "$p"
	sleep "$WARM"
	a=$($py "$bench/tstat.py" "full-table-$tag-$$" 2)
	sleep "$SECS"
	b=$($py "$bench/tstat.py" "full-table-$tag-$$" 2)
	kill -STOP "$p"
	echo "$a $b" >>"$OUT/$tag.samples"
	echo "$a $b" | awk '{printf "%.3f\n", ($5 - $2) / ($4 - $1) / 1e6}'
}

# l3fwd may end by the SIGTERM itself (status 143) rather than by its handler
stop_app() { # app flows
	local p=${pids[$1]} rc=0
	kill -CONT "$p"
	kill -TERM "$p"
	wait "$p" || rc=$?
	if [ $rc != 0 ] && ! { [ $rc = 143 ] && [ "${1%%-*}" = l3fwd ]; }; then
		log "$1 failed ($rc), see $OUT/$1-f$2.log"
		exit 1
	fi
}

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# every packet ours received was forwarded: no drop of any reason, no leak
check_ours() { # stats json
	$py - "$1" <<'EOF'
import json, sys
st = json.load(open(sys.argv[1]))
drops = {k: v for k, v in st["drops"].items() if v}
fwd = sum(lc["forwarded"] for lc in st["route"]["lcores"])
rx = sum(p["ipackets"] for p in st["ports"])
sys.exit(0 if not drops and fwd == rx and st["mbufs_leaked"] == 0 else
         "ours dropped %r, forwarded %d of %d" % (drops, fwd, rx))
EOF
}

# Ir per packet of the forwarding loop on stdout ("Ir D1miss LLmiss" with
# CACHESIM=1: misses of data reads and writes per packet).
callgrind() { # app flows
	local tag=cg-$1-f$2 fn=fwd_lcore_main pid t0 extra=() vg=() rc ir n
	case $1 in
	l3fwd-lpm) fn=lpm_main_loop ;;
	l3fwd-fib) fn=fib_main_loop ;;
	esac
	[ "$CACHESIM" = 1 ] && vg=(--cache-sim=yes)
	# ours stops on --duration (counted from the start of forwarding, after
	# the load); l3fwd gets SIGTERM VG_SECS after its first packet
	set_cmd "$1" "$2" "$tag"
	case $1 in ours-*) extra=(--duration "$VG_SECS") ;; esac
	t0=$(date +%s.%N)
	valgrind --tool=callgrind "${vg[@]}" --collect-atstart=no --toggle-collect=$fn \
		--callgrind-out-file="$OUT/$tag.out" "${cmd[@]}" "${extra[@]}" \
		>"$OUT/$tag.log" 2>&1 </dev/null &
	pid=$!
	children+=("$pid")
	if [ "${1%%-*}" = l3fwd ] || [ "$VG_WARM" != 0 ]; then
		if ! wait_ready "full-table-$tag-$$" "$t0" "$pid" 3600 >/dev/null; then
			log "$1 did not start under valgrind, see $OUT/$tag.log"
			exit 1
		fi
	fi
	if [ "${1%%-*}" = l3fwd ]; then
		sleep "$VG_SECS"
		kill -TERM "$pid"
	elif [ "$VG_WARM" != 0 ]; then
		sleep "$VG_WARM"
		callgrind_control -z "$pid" >/dev/null
		log "$1: callgrind counts zeroed after $VG_WARM s of forwarding"
	fi
	rc=0
	wait "$pid" || rc=$?
	if [ $rc != 0 ] && ! { [ $rc = 143 ] && [ "${1%%-*}" = l3fwd ]; }; then
		log "callgrind run of $1 failed ($rc), see $OUT/$tag.log"
		exit 1
	fi
	read -r ir n < <($py "$bench/cgcount.py" "$OUT/$tag.out" rte_pktmbuf_free)
	callgrind_annotate --auto=no "$OUT/$tag.out" 2>/dev/null |
		awk -v n="$n" '/file:function/ {on = 1; getline; next}
			on && NF == 0 {exit}
			on {v = $1; gsub(",", "", v); fn = $0; sub(/^.*%\) +/, "", fn); sub(/ \[.*$/, "", fn)
				if (v / n >= 0.5) printf "%8.1f  %s\n", v / n, fn}' >"$OUT/$tag.top"
	if [ "$CACHESIM" = 1 ]; then
		# totals line: each of Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw followed
		# by its "(100.0%)"
		callgrind_annotate --auto=no "$OUT/$tag.out" 2>/dev/null |
			awk -v n="$n" -v ir="$ir" '/PROGRAM TOTALS/ {for (i = 1; i <= NF; i++) gsub(",", "", $i)
				printf "%.1f %.2f %.2f\n", ir / n, ($9 + $11) / n, ($15 + $17) / n; exit}'
	else
		echo "$ir $n" | awk '{printf "%.1f\n", $1 / $2}'
	fi
}

{
	echo "date: $(date -Is)"
	echo "host: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "dpdk: $(dpkg-query -W -f='${Version}' libdpdk-dev) (l3fwd from $(cat "$work/l3fwd.orig"), full-table constants)"
	echo "ours: ${FWD:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo ?) $(git -C "$root" status --porcelain 2>/dev/null | grep -q . && echo '(with uncommitted changes)')}"
	echo "table: $nroutes routes ($TABLE)"
	echo "settings: FLOWS=$FLOWS TRAIN=$TRAIN INTERLEAVE=$INTERLEAVE FILTER=$FILTER$([ "$FILTER" = 1 ] && echo " ($FILTER_RULE)") MBUF_SIZE=${MBUF_SIZE:-default} FLOW_AGE=${FLOW_AGE:-default} ROUNDS=$ROUNDS SECS=$SECS WARM=$WARM VG_SECS=$VG_SECS VG_WARM=$VG_WARM VG_ROUTES=$VG_ROUTES CACHESIM=$CACHESIM HUGE=$HUGE MEM=$MEM FLOW_TABLE=$FLOW_TABLE"
	echo "l3fwd cflags: $(cat "$work/l3fwd.cflags")"
} >"$OUT/env.txt"

read -ra apps <<<"$APPS"
res=$OUT/results.md
csv=$OUT/route-full-table.csv
{
	printf "| flows | train |"
	for a in "${apps[@]}"; do printf " %s Mpps |" "$a"; done
	for a in "${apps[@]}"; do [ "${a%%-*}" = ours ] && printf " %s / lpm | %s / fib |" "$a" "$a"; done
	for a in "${apps[@]}"; do printf " %s Ir/pkt |" "$a"; done
	for a in "${apps[@]}"; do printf " %s ready s |" "$a"; done
	echo
	printf "|---|---|"
	for _ in "${apps[@]}" "${apps[@]}" "${apps[@]}"; do printf -- "---|"; done
	for a in "${apps[@]}"; do [ "${a%%-*}" = ours ] && printf -- "---|---|"; done
	echo
} >"$res"
echo "# bench/route/full-table.sh: $(tr "\n" ";" <"$OUT/env.txt")" >"$csv"
echo "routes,flows,train,pages,app,mpps,ir_pkt,d1_miss_pkt,ll_miss_pkt,ready_s,interleave,filter" >>"$csv"
pages=4k
[ "$HUGE" = 1 ] && pages=2M
for f in $FLOWS; do
	mkdir -p "$work/f$f"
	log "flows $f: writing the pcaps"
	il=()
	[ "$INTERLEAVE" != 0 ] && il=(--interleave "$INTERLEAVE")
	if [ "$ROUNDS" != 0 ]; then
		$py "$bench/mkfullpcap.py" "${il[@]}" "$work/f$f" "$f" "$TRAIN"
		echo $((f * TRAIN)) >"$work/f$f/count"
	fi
	if [ "$VG_SECS" != 0 ]; then
		mkdir -p "$work/vg-f$f"
		$py "$bench/mkfullpcap.py" "${il[@]}" "$work/vg-f$f" "$f" "$TRAIN" "$VG_ROUTES"
		echo $((f * TRAIN)) >"$work/vg-f$f/count"
	fi
	declare -A mp=() irs=()
	for a in "${apps[@]}"; do : >"$OUT/mpps-$a-f$f.txt"; done
	if [ "$ROUNDS" != 0 ]; then
		if [ "$HUGE" != 1 ]; then
			for a in "${apps[@]}"; do
				start_app "$a" "$f"
				kill -STOP "${pids[$a]}"
			done
		fi
		for ((r = 1; r <= ROUNDS; r++)); do
			for a in "${apps[@]}"; do
				if [ "$HUGE" = 1 ]; then
					# one app's memory at a time: start, measure, stop
					start_app "$a" "$f"
					kill -STOP "${pids[$a]}"
				fi
				m=$(measure "$a" "$f" $r)
				echo "$m" >>"$OUT/mpps-$a-f$f.txt"
				log "flows $f round $r: $a $m Mpps"
				[ "$HUGE" = 1 ] && stop_app "$a" "$f"
			done
		done
		if [ "$HUGE" != 1 ]; then
			for a in "${apps[@]}"; do stop_app "$a" "$f"; done
		fi
		for a in "${apps[@]}"; do
			if [ "${a%%-*}" = ours ] && ! check_ours "$OUT/$a-f$f.json"; then
				log "$a did not forward everything, see $OUT/$a-f$f.json"
				exit 1
			fi
			mp[$a]=$(median <"$OUT/mpps-$a-f$f.txt")
		done
	fi
	for a in "${apps[@]}"; do
		irs[$a]="- - -"
		if [ "$VG_SECS" != 0 ]; then
			log "flows $f: $a under callgrind"
			irs[$a]=$(callgrind "$a" "$f")
			[ "$CACHESIM" = 1 ] || irs[$a]="${irs[$a]} - -"
			log "flows $f: $a ${irs[$a]} (Ir D1 LL per packet)"
		fi
	done
	{
		printf "| %s | %s |" "$f" "$TRAIN"
		for a in "${apps[@]}"; do printf " %s |" "${mp[$a]:--}"; done
		for a in "${apps[@]}"; do
			[ "${a%%-*}" = ours ] || continue
			for l in l3fwd-lpm l3fwd-fib; do
				awk -v o="${mp[$a]:-}" -v b="${mp[$l]:-}" 'BEGIN {
					if (o == "" || b == "") printf " - |"; else printf " %.2f |", o / b }'
			done
		done
		for a in "${apps[@]}"; do printf " %s |" "${irs[$a]%% *}"; done
		for a in "${apps[@]}"; do printf " %s |" "$(cat "$OUT/ready-$a-f$f.txt" 2>/dev/null || echo -)"; done
		echo
	} >>"$res"
	for a in "${apps[@]}"; do
		read -r i d l <<<"${irs[$a]}"
		echo "$nroutes,$f,$TRAIN,$pages,$a,${mp[$a]:-},${i/-/},${d/-/},${l/-/},$(cat "$OUT/ready-$a-f$f.txt" 2>/dev/null || true),$INTERLEAVE,$FILTER" >>"$csv"
	done
	unset mp irs
done

cat "$OUT/env.txt"
echo
cat "$res"
echo
echo "Mpps: median of $ROUNDS alternating rounds on loaded tables; each round in $OUT/mpps-*.txt; CSV $csv."
if [ "$VG_SECS" != 0 ]; then
	for f in $FLOWS; do
		for a in "${apps[@]}"; do
			echo
			echo "Ir/pkt by function, $a, $f flows (self cost):"
			cat "$OUT/cg-$a-f$f.top"
		done
	done
fi
