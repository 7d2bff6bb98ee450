#!/usr/bin/env bash
# Fuzz every parser with libFuzzer under ASan+UBSan, one target after another:
#   config  the config-file reader and through it every option parser (fuzz_config.c)
#   ipv4    the router's packet path: input checks, rt_route_burst(), the flow stage
#   stream  the generator's stream parser, and print -> parse round trips (fuzz_stream.c)
#   route   the router's sections read and applied to a table (fuzz_route.c)
#   routefile  route and neighbour files, ip route / ip neigh lines (fuzz_routefile.c)
#   netlink rtnetlink route message streams, the parser alone (fuzz_netlink.c)
#   fpm     FPM streams from zebra: framing, next-hop objects, routes (fuzz_fpm.c)
#   shell   shell lines on a real forwarder, in route, pktgen and io mode (fuzz_shell.c)
#   scripts/fuzz.sh [SECONDS [TARGET...]]   default 60 s each, every target
# FUZZ_RUNS=N runs exactly N inputs instead (CI's bounded run; FUZZ_RUNS_SLOW=N for
# the targets that set up a table or run commands per input: route, shell).
# The targets are built by meson in a fuzz tree (tests/fuzz/meson.build: clang,
# -Dfuzz=true, ASan+UBSan): build-asan/, the same tree as scripts/test.sh's
# sanitizer run, built here when FUZZ_BIN (the folder of built fuzzers) is not given.
# Crashes are written to $FUZZ_OUT/<target>-crash-* (default build-fuzz/); each
# corpus grows in $FUZZ_OUT/corpus-<target>, seeded from tests/fuzz/corpus-<target>.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
targets=${*:-config ipv4 stream route routefile netlink fpm shell addr6}
out=${FUZZ_OUT:-build-fuzz}
bin=${FUZZ_BIN:-}
for t in $targets; do # a typo is refused before minutes of building
	case $t in
	config | ipv4 | stream | route | routefile | netlink | fpm | shell | addr6) ;;
	*)
		echo "fuzz.sh: unknown target '$t' (config ipv4 stream route routefile netlink fpm shell addr6)" >&2
		exit 2
		;;
	esac
done
if [ -z "$bin" ]; then
	CC=clang bash scripts/build.sh build-asan -Dfuzz=true -Db_sanitize=address,undefined \
		-Db_lundef=false -Dbuildtype=debugoptimized
	bin=build-asan/tests/fuzz
fi
for t in $targets; do
	if [ ! -x "$bin/fuzz_$t" ]; then
		echo "fuzz.sh: $bin/fuzz_$t is not built (a tree configured with -Dfuzz=true?)" >&2
		exit 2
	fi
	corpus=$out/corpus-$t
	[ "$t" = config ] && corpus=$out/corpus
	mkdir -p "$corpus"
	[ "$t" = config ] && cp -n config/*.ini "$corpus/"
	cp -n tests/fuzz/corpus-$t/* "$corpus/" 2>/dev/null || true
done
limit="-max_total_time=$secs"
slow=$limit
[ -n "${FUZZ_RUNS:-}" ] && limit="-runs=$FUZZ_RUNS" slow="-runs=${FUZZ_RUNS_SLOW:-$FUZZ_RUNS}"
run() { # TARGET LIMIT MAXLEN CORPUS [ENV...]
	local t=$1 lim=$2 len=$3 corpus=$4
	shift 4
	echo "=== fuzz $t ${*:-} ($lim)"
	# exit 1 on a finding: libFuzzer's default 77 is what meson reads as a skipped test
	env "$@" "$bin/fuzz_$t" "$lim" -max_len="$len" -timeout=10 -error_exitcode=1 \
		-timeout_exitcode=1 -print_final_stats=1 \
		-artifact_prefix="$out/$t-" "$out/$corpus"
}
for t in $targets; do
	case $t in
	config) run config "$limit" 4096 corpus ;;
	ipv4) run ipv4 "$limit" 1600 corpus-ipv4 ;;
	stream) run stream "$limit" 1024 corpus-stream ;;
	route) run route "$slow" 4096 corpus-route ;;
	routefile) run routefile "$limit" 4096 corpus-routefile ;;
	netlink) run netlink "$limit" 4096 corpus-netlink ;;
	fpm) run fpm "$limit" 8192 corpus-fpm ;;
	addr6) run addr6 "$limit" 128 corpus-addr6 ;;
	shell)
		run shell "$slow" 512 corpus-shell
		run shell "$slow" 512 corpus-shell FWD_FUZZ_ARGS="--fwd pktgen"
		run shell "$slow" 512 corpus-shell FWD_FUZZ_ARGS="--fwd io"
		;;
	*)
		echo "fuzz.sh: unknown target '$t' (config ipv4 stream route routefile netlink fpm shell addr6)" >&2
		exit 2
		;;
	esac
done
