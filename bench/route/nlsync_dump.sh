#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
#
# The netlink sync's first resync of a big FIB (app/route/sync/rt_nlsync.c):
# N /24 routes put in a namespace of its own with `ip -batch`, then the
# forwarder started on it (net_null ports, --duration 0.2); prints its log
# line "netlink: resync: N routes marked, 0 swept, in T s" (the dump, every
# route applied, the sweep). Root (ip netns). Never run by the tests.
#   bench/route/nlsync_dump.sh [BUILDDIR] [ROUTES]   (build, 100000)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-build}/app/dpdk-forwarder
n=${2:-100000}
ns=nlbench$$
dir=$(mktemp -d)
ip netns add "$ns"
trap 'ip netns del "$ns"; rm -rf "$dir"' EXIT
ip -n "$ns" link set lo up
ip -n "$ns" link add nl0 type veth peer name nl0p
ip -n "$ns" link set nl0 up
ip -n "$ns" link set nl0p up
ip -n "$ns" addr add 10.0.0.5/24 dev nl0
/usr/bin/python3 -c "
for i in range($n):
    print('route add %d.%d.%d.0/24 via 10.0.0.%d' % (20 + i // 65536, i // 256 % 256, i % 256, 2 + i % 100))
" | ip -n "$ns" -batch -
printf '[forward]\nfwd = route\n[port 0]\nip = 10.0.0.1/24\nnetlink-ifname = nl0\n[port 1]\nip = 10.1.0.1/24\n[route]\nnetlink-netns = %s\n' \
	"$ns" >"$dir/nl.ini"
nice -n 10 "$bin" --no-huge -m 512 --no-pci --file-prefix "$ns" --lcores 0@0,1@1 --vdev net_null0 \
	--vdev net_null1 -- --config "$dir/nl.ini" --duration 0.2 2>&1 | grep "netlink: resync"
