#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
#
# Static links for scripts/bench-route.sh, against the librte_*.a archives of
# Debian's libdpdk-dev, so that l3fwd and dpdk-forwarder are compared with
# the same linkage. With shared libraries every rte_lcore_id() in a PMD or
# the mempool goes through __tls_get_addr (about 11 instructions per packet,
# docs/benchmarks-route.md); linked into the executable it is one load. The
# archives keep their local symbols, so callgrind names every function.
#
#   bench/route/link-static.sh forwarder BUILDDIR OUTFILE
#       replay BUILDDIR's link of app/dpdk-forwarder with archives
#   bench/route/link-static.sh objects OUTFILE OBJ...
#       link the objects (DPDK's l3fwd) with the archives
#
# The vdev drivers the benchmark uses are linked whole: nothing references
# them, their constructors register them.
# shellcheck disable=SC2054 # -Wl,... are single words
set -euo pipefail
libdir=$(pkg-config --variable=libdir libdpdk)
drivers=(librte_net_pcap librte_net_null librte_net_ring librte_bus_vdev librte_mempool_ring)
# what the archives we pull in need from the system (pkg-config --static
# would add every driver's, e.g. libsystemd and rdma-core)
syslibs=(-lpcap -lnuma -lbsd -lelf -lz -ldl -lpthread -lm)

# and ethdev whole: since 23.x its telemetry commands (/ethdev/stats, which
# bench/route/tstat.py reads) are in an object of their own that nothing calls,
# registered by a constructor; left out, they answer null
drivers+=(librte_ethdev)
whole=(-Wl,--whole-archive)
for d in "${drivers[@]}"; do
	whole+=("$libdir/$d.a")
done
whole+=(-Wl,--no-whole-archive)
# every library archive (not the drivers), in one group: the linker takes
# only the objects something references, in any order
group=(-Wl,--start-group)
for a in "$libdir"/librte_*.a; do
	case $(basename "$a") in
	librte_net_* | librte_bus_* | librte_mempool_* | librte_common_* | librte_crypto_* | \
		librte_baseband_* | librte_compress_* | librte_dma_* | librte_event_* | \
		librte_raw_* | librte_regex_* | librte_vdpa_* | librte_gpu_*) ;;
	*) group+=("$a") ;;
	esac
done
group+=(-Wl,--end-group)

abs() {
	case $1 in
	/*) echo "$1" ;;
	*) echo "$PWD/$1" ;;
	esac
}

case ${1:-} in
forwarder)
	builddir=$2
	out=$(abs "$3")
	cmd=$(ninja -C "$builddir" -t commands app/dpdk-forwarder | tail -1)
	args=()
	for a in $cmd; do
		case $a in
		app/dpdk-forwarder) args+=("$out") ;;
		"$libdir"/librte_*.so | -lrte_* | -Wl,--as-needed) ;; # replaced by the archives
		*) args+=("$a") ;;
		esac
	done
	cd "$builddir"
	"${args[@]}" "${whole[@]}" "${group[@]}" "${syslibs[@]}"
	;;
objects)
	out=$(abs "$2")
	shift 2
	cc -o "$out" "$@" "${whole[@]}" "${group[@]}" "${syslibs[@]}"
	;;
*)
	echo "usage: $0 forwarder BUILDDIR OUTFILE | objects OUTFILE OBJ..." >&2
	exit 2
	;;
esac
