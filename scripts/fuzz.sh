#!/usr/bin/env bash
# Fuzz the config-file parser (and through it every option parser) and the
# router's packet path (tests/fuzz/fuzz_ipv4.c) with libFuzzer under ASan+UBSan.
#   scripts/fuzz.sh [SECONDS]   default 60; CI runs a short bounded smoke run
# FUZZ_RUNS=N runs exactly N inputs instead (CI's bounded run).
# Crashes are written to build-fuzz/crash-*; the corpus grows in build-fuzz/corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
out=build-fuzz
mkdir -p "$out/corpus"
cp -n config/*.ini tests/fuzz/corpus-config/* "$out/corpus/" 2>/dev/null || true
# the rooms of app/ and app/route/ (docs/architecture.md) are on the include path
route_inc="-Iapp/route/common -Iapp/route/datapath -Iapp/route/control"
app_inc="-Iapp/common -Iapp/datapath -Iapp/control $route_inc"
route_src=$(echo app/route/*/*.c)
# the config fuzzer takes the router's and the generator's sections too: link them
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-DALLOW_EXPERIMENTAL_API $app_inc -Ilib/pktgen -Ilib/flowsort -Ilib/fragpool -Ilib/numparse \
	$(pkg-config --cflags libdpdk) \
	tests/fuzz/fuzz_config.c app/control/fwd_cfgfile.c app/control/fwd_opts.c app/control/fwd_optdoc.c \
	app/control/fwd_suggest.c $route_src lib/pktgen/*.c \
	lib/flowsort/flowsort.c lib/fragpool/*.c lib/numparse/numparse.c \
	$(pkg-config --libs libdpdk) -lpcap -o "$out/fuzz_config"
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-DALLOW_EXPERIMENTAL_API $route_inc -Ilib/flowsort -Ilib/numparse $(pkg-config --cflags libdpdk) \
	tests/fuzz/fuzz_ipv4.c $route_src lib/flowsort/flowsort.c lib/numparse/numparse.c \
	$(pkg-config --libs libdpdk) -lrte_net_ring -o "$out/fuzz_ipv4"
mkdir -p "$out/corpus-ipv4"
limit="-max_total_time=$secs"
[ -n "${FUZZ_RUNS:-}" ] && limit="-runs=$FUZZ_RUNS"
"$out/fuzz_config" "$limit" -max_len=4096 -timeout=5 -print_final_stats=1 \
	-artifact_prefix="$out/" "$out/corpus"
"$out/fuzz_ipv4" "$limit" -max_len=1600 -timeout=5 -print_final_stats=1 \
	-artifact_prefix="$out/ipv4-" "$out/corpus-ipv4"
