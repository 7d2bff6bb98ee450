#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
#
# DPDK's examples/l3fwd for the route benchmarks (scripts/bench-route.sh,
# bench/route/full-table.sh), built from the Debian source package of the
# installed DPDK in a scratch directory (nothing of it is kept in the tree),
# with the compiler flags meson gives ours and linked statically
# (bench/route/link-static.sh).
#
#   bench/route/build-l3fwd.sh BUILDDIR WORKDIR [full]
#
# Writes WORKDIR/l3fwd, WORKDIR/l3fwd.cflags (the flags, one line) and
# WORKDIR/l3fwd.orig (the source archive's name). DPDK_ORIG=path uses that
# dpdk_<version>.orig.tar.* instead of downloading it with apt-get source
# (a deb-src entry is added if there is none, as scripts/dpdk-sdk-headers.sh
# does). Without DPDK_ORIG, Debian's dpdk-doc of the installed version, when
# it is installed, is the source instead (it ships examples/ in
# /usr/share/dpdk/examples): where the source package cannot be fetched
# (Debian 13's 24.11 answers 404 on some mirrors), `apt-get install dpdk-doc`.
#
# Changes made to the scratch copy, and nothing else:
#  - always: l3fwd (22.11 and 24.11) asks for RX checksum offload, which net_pcap
#    lacks (rte_eth_dev_configure fails with -22), so the request is cleared;
#  - "full": the lookup tables are sized for a full table, as issue 17's
#    comparison asks: LPM 2 M rules and 65 536 tbl8 groups, FIB 2 M routes
#    and 65 536 tbl8 groups (IPv4; IPv6 as it is).
set -euo pipefail
cd "$(dirname "$0")/../.."
apt_wait=$PWD/scripts/apt-get-wait.sh # waits for another apt-get's lock
builddir=$1
work=$2
consts=${3:-}
py=/usr/bin/python3
log() { echo "build-l3fwd: $*" >&2; }

version=$(dpkg-query -W -f='${Version}' libdpdk-dev)
examples=/usr/share/dpdk/examples
docver=$(dpkg-query -W -f='${Version}' dpdk-doc 2>/dev/null || true)
if [ -z "${DPDK_ORIG:-}" ] && [ "$docver" = "$version" ] && [ -f $examples/l3fwd/main.c ]; then
	log "l3fwd's source from dpdk-doc $docver ($examples)"
	top=dpdk-doc-$docver
	mkdir -p "$work/$top/examples"
	cp -r $examples/l3fwd $examples/common "$work/$top/examples/"
	orig=dpdk-doc_$docver
elif [ -z "${DPDK_ORIG:-}" ]; then
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	if ! apt-get source --print-uris "dpdk=$version" 2>/dev/null | grep -q "orig.tar"; then
		if [ -f /etc/apt/sources.list.d/debian.sources ]; then
			sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources |
				$sudo tee /etc/apt/sources.list.d/dpdk-forwarder-src.sources >/dev/null
		else
			grep -h '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' |
				$sudo tee /etc/apt/sources.list.d/dpdk-forwarder-src.list >/dev/null
		fi
		$sudo bash "$apt_wait" update -qq
	fi
	log "fetching the source of DPDK $version"
	(cd "$work" && bash "$apt_wait" source --download-only -qq "dpdk=$version" >/dev/null 2>&1)
	DPDK_ORIG=$(find "$work" -maxdepth 1 -name 'dpdk_*.orig.tar.*' | head -n 1)
	if [ -z "$DPDK_ORIG" ]; then
		log "cannot fetch Debian's DPDK $version source: install dpdk-doc (its examples), or set DPDK_ORIG=dpdk_<version>.orig.tar.xz"
		exit 1
	fi
fi
if [ -n "${DPDK_ORIG:-}" ]; then
	top=$(set +o pipefail; tar tf "$DPDK_ORIG" | head -n 1 | cut -d/ -f1)
	tar xf "$DPDK_ORIG" -C "$work" "$top/examples/l3fwd" "$top/examples/common"
	orig=$(basename "$DPDK_ORIG")
fi
l3src=$work/$top/examples/l3fwd

# Replace the whole line matching $2 in file $1 by $3; fail if it is not there
# (a new DPDK that moved it must not silently give a different l3fwd).
patch_line() { # file regex replacement
	cp "$1" "$1.orig"
	sed -i "s|$2|$3|" "$1"
	if cmp -s "$1" "$1.orig"; then
		log "no line matching '$2' in $1"
		exit 1
	fi
}
patch_line "$l3src/main.c" '^\(\t\t\.offloads = \)RTE_ETH_RX_OFFLOAD_CHECKSUM,$' \
	'\10, /* bench: no RX checksum offload on net_pcap */'
if [ "$consts" = full ]; then
	patch_line "$l3src/l3fwd_lpm.c" '^#define IPV4_L3FWD_LPM_MAX_RULES .*$' \
		'#define IPV4_L3FWD_LPM_MAX_RULES (2 << 20) /* bench: full table */'
	patch_line "$l3src/l3fwd_lpm.c" '^#define IPV4_L3FWD_LPM_NUMBER_TBL8S .*$' \
		'#define IPV4_L3FWD_LPM_NUMBER_TBL8S (1 << 16) /* bench: full table */'
	patch_line "$l3src/l3fwd_fib.c" '^\tconfig_ipv4\.max_routes = (1 << 16);$' \
		'\tconfig_ipv4.max_routes = (2 << 20); /* bench: full table */'
	patch_line "$l3src/l3fwd_fib.c" '^\tconfig_ipv4\.dir24_8\.num_tbl8 = (1 << 15);$' \
		'\tconfig_ipv4.dir24_8.num_tbl8 = (1 << 16); /* bench: full table */'
fi

srcs=$(sed -n 's/^SRCS-y *+\?:\?= *//p' "$l3src/Makefile" | tr '\n' ' ')
read -ra dpdk_cflags < <(pkg-config --cflags libdpdk)
# the flags meson gives ours: buildtype release, pkg-config's (DPDK's -march),
# or the build's -Dmarch when it has one
march=$(meson introspect --buildoptions "$builddir" 2>/dev/null |
	$py -c 'import json,sys; print(next((o["value"] for o in json.load(sys.stdin) if o["name"] == "march"), ""))' ||
	true)
cflags=(-O3 "${dpdk_cflags[@]}")
[ -n "$march" ] && cflags+=(-march="$march")
cflags+=(-DALLOW_EXPERIMENTAL_API -I"$l3src/../common")
log "building l3fwd${consts:+ ($consts table)} ($srcs)"
objs=()
for s in $srcs; do
	cc "${cflags[@]}" -c "$l3src/$s" -o "$work/${s%.c}.o"
	objs+=("$work/${s%.c}.o")
done
bash bench/route/link-static.sh objects "$work/l3fwd" "${objs[@]}"
echo "${cflags[*]}" >"$work/l3fwd.cflags"
echo "$orig" >"$work/l3fwd.orig"
