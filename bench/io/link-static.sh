#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
#
# Link a second dpdk-forwarder from the objects of BUILDDIR against DPDK's
# static archives instead of its shared libraries, for scripts/bench-io.sh
# (STATIC=1). The project's own build is not changed.
#
#   bench/io/link-static.sh BUILDDIR OUTFILE
#
# It replays the build's own link command with every librte_*.so swapped for
# its .a, and the vdev drivers the benchmark and the e2e tests use linked
# whole (their constructors register them). Why bother: a PMD in a shared
# object reaches rte_lcore_id() through __tls_get_addr on every mempool
# get/put; linked into the executable, that TLS access is one instruction
# (docs/benchmarks.md has the count).
# shellcheck disable=SC2054 # -Wl,... are single words
set -euo pipefail
builddir=$1
out=$2
libdir=$(pkg-config --variable=libdir libdpdk)
drivers=(librte_net_null librte_net_pcap librte_net_ring librte_bus_vdev librte_mempool_ring)

case $out in
/*) ;;
*) out=$PWD/$out ;;
esac
cmd=$(ninja -C "$builddir" -t commands app/dpdk-forwarder | tail -1)
args=()
for a in $cmd; do
	case $a in
	app/dpdk-forwarder) args+=("$out") ;;
	-Wl,--start-group)
		# the drivers whole, inside the group so that their own references
		# into ethdev, mbuf, ... resolve against the archives below
		args+=("$a" -Wl,--whole-archive)
		for d in "${drivers[@]}"; do
			args+=("$libdir/$d.a")
		done
		args+=(-Wl,--no-whole-archive)
		;;
	"$libdir"/librte_*.so)
		base=$(basename "$a" .so)
		if [ -f "$libdir/$base.a" ]; then
			args+=("$libdir/$base.a")
		else
			args+=("$a")
		fi
		;;
	*) args+=("$a") ;;
	esac
done
# What the archives need from the system (pkg-config --static would list every
# driver's, e.g. libsystemd and rdma-core, which these drivers do not use).
cd "$builddir"
"${args[@]}" -lpcap -lnuma -lbsd -ldl -lpthread -lm
