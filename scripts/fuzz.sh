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
# Crashes are written to build-fuzz/<target>-crash-*; each corpus grows in
# build-fuzz/corpus-<target>, seeded from tests/fuzz/corpus-<target>.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
targets=${*:-config ipv4 stream route routefile netlink fpm shell}
out=build-fuzz
mkdir -p "$out/corpus"
cp -n config/*.ini tests/fuzz/corpus-config/* "$out/corpus/" 2>/dev/null || true
for t in stream route routefile netlink fpm shell; do
	mkdir -p "$out/corpus-$t"
	cp -n tests/fuzz/corpus-$t/* "$out/corpus-$t/" 2>/dev/null || true
done
# the rooms of app/ and app/route/ (docs/architecture.md) are on the include path
route_inc="-Iapp/route/common -Iapp/route/datapath -Iapp/route/control"
app_inc="-Iapp/common -Iapp/datapath -Iapp/control $route_inc"
# route/sync/ needs libmnl: only the netlink and shell targets link it
route_src=$(ls app/route/*/*.c | grep -v '^app/route/sync/')
wants() { [[ " $targets " == *" $1 "* ]]; } # build only the targets asked for
# the config fuzzer takes the router's and the generator's sections too: link them
wants config && clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-DALLOW_EXPERIMENTAL_API $app_inc -Ilib/pktgen -Ilib/flowsort -Ilib/fragpool -Ilib/numparse \
	$(pkg-config --cflags libdpdk) \
	tests/fuzz/fuzz_config.c app/control/fwd_cfgfile.c app/control/fwd_opts.c app/control/fwd_optdoc.c \
	app/control/fwd_suggest.c $route_src lib/pktgen/*.c \
	lib/flowsort/flowsort.c lib/fragpool/*.c lib/numparse/numparse.c \
	$(pkg-config --libs libdpdk) -lpcap -o "$out/fuzz_config"
wants ipv4 && clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-DALLOW_EXPERIMENTAL_API $route_inc -Ilib/flowsort -Ilib/numparse $(pkg-config --cflags libdpdk) \
	tests/fuzz/fuzz_ipv4.c $route_src lib/flowsort/flowsort.c lib/numparse/numparse.c \
	$(pkg-config --libs libdpdk) -lrte_net_ring -o "$out/fuzz_ipv4"
mkdir -p "$out/corpus-ipv4"
cflags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -DALLOW_EXPERIMENTAL_API"
wants stream && clang $cflags -Ilib/pktgen -Ilib/fragpool -Ilib/numparse $(pkg-config --cflags libdpdk) \
	tests/fuzz/fuzz_stream.c lib/pktgen/*.c lib/fragpool/*.c lib/numparse/numparse.c \
	$(pkg-config --libs libdpdk) -lpcap -o "$out/fuzz_stream"
wants route && clang $cflags $app_inc -Ilib/flowsort -Ilib/numparse $(pkg-config --cflags libdpdk) \
	tests/fuzz/fuzz_route.c app/control/fwd_cfgfile.c $route_src lib/flowsort/flowsort.c \
	lib/numparse/numparse.c $(pkg-config --libs libdpdk) -o "$out/fuzz_route"
# no EAL: the route sources for rt_ip_parse() and the table types
wants routefile && clang $cflags $route_inc -Ilib/flowsort -Ilib/numparse $(pkg-config --cflags libdpdk) \
	tests/fuzz/fuzz_routefile.c $route_src lib/flowsort/flowsort.c lib/numparse/numparse.c \
	$(pkg-config --libs libdpdk) -o "$out/fuzz_routefile"
# no EAL: the parser, with the route sources for the table types it shares
wants netlink && clang $cflags $route_inc -Iapp/route/sync -Ilib/flowsort -Ilib/numparse \
	$(pkg-config --cflags libdpdk libmnl) tests/fuzz/fuzz_netlink.c app/route/sync/rt_netlink.c \
	$route_src lib/flowsort/flowsort.c lib/numparse/numparse.c \
	$(pkg-config --libs libdpdk libmnl) -o "$out/fuzz_netlink"
# no EAL: the FPM stream fed to a listener never started, no table
wants fpm && clang $cflags $route_inc -Iapp/route/sync -Ilib/flowsort -Ilib/numparse \
	$(pkg-config --cflags libdpdk libmnl) tests/fuzz/fuzz_fpm.c app/route/sync/rt_fpm.c \
	app/route/sync/rt_nexthop.c app/route/sync/rt_netlink.c app/route/sync/rt_nlsync.c \
	app/route/sync/rt_syncmarks.c $route_src lib/flowsort/flowsort.c lib/numparse/numparse.c \
	$(pkg-config --libs libdpdk libmnl) -o "$out/fuzz_fpm"
# the whole app but main(): the sources of app/meson.build's fwd_core
# (and the netlink sync, which the shell's netlink commands drive: libmnl too)
wants shell && clang $cflags $app_inc -Iapp/route/sync -Ilib/pktgen -Ilib/flowsort -Ilib/fragpool \
	-Ilib/numparse $(pkg-config --cflags libdpdk libmnl) tests/fuzz/fuzz_shell.c app/control/*.c \
	app/datapath/*.c $route_src app/route/sync/*.c lib/pktgen/*.c lib/flowsort/flowsort.c \
	lib/fragpool/*.c lib/numparse/numparse.c \
	$(pkg-config --libs libdpdk libmnl) -lpcap -lnuma -o "$out/fuzz_shell"
limit="-max_total_time=$secs"
slow=$limit
[ -n "${FUZZ_RUNS:-}" ] && limit="-runs=$FUZZ_RUNS" slow="-runs=${FUZZ_RUNS_SLOW:-$FUZZ_RUNS}"
run() { # TARGET LIMIT MAXLEN CORPUS [ENV...]
	local t=$1 lim=$2 len=$3 corpus=$4
	shift 4
	echo "=== fuzz $t ${*:-} ($lim)"
	# exit 1 on a finding: libFuzzer's default 77 is what meson reads as a skipped test
	env "$@" "$out/fuzz_$t" "$lim" -max_len="$len" -timeout=10 -error_exitcode=1 \
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
	shell)
		run shell "$slow" 512 corpus-shell
		run shell "$slow" 512 corpus-shell FWD_FUZZ_ARGS="--fwd pktgen"
		run shell "$slow" 512 corpus-shell FWD_FUZZ_ARGS="--fwd io"
		;;
	*)
		echo "fuzz.sh: unknown target '$t' (config ipv4 stream route routefile netlink fpm shell)" >&2
		exit 2
		;;
	esac
done
