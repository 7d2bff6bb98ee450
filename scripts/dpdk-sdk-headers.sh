#!/usr/bin/env bash
# Debian's libdpdk-dev lacks the driver-SDK headers a PMD needs. Use them when the
# installed DPDK ships them after all; else take them from the Debian source
# package of the exact installed DPDK version; put them in DEST (default
# build/dpdk-sdk/include). Nothing of it is committed.
# Safe to re-run: does nothing when the headers are already there for this version.
# Never fails silently: when the headers cannot be had, one line on stderr says
# why and the exit is 1 (meson's fec_pmd=auto then builds everything else).
#
#   scripts/dpdk-sdk-headers.sh [DEST]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-build/dpdk-sdk/include}
headers=(lib/ethdev/ethdev_driver.h lib/ethdev/ethdev_vdev.h
	drivers/bus/vdev/bus_vdev_driver.h lib/eal/include/dev_driver.h
	lib/eal/include/bus_driver.h)
die() {
	echo "dpdk-sdk-headers: $*" >&2
	exit 1
}

version=$(dpkg-query -W -f='${Version}' libdpdk-dev 2>/dev/null) ||
	die "libdpdk-dev is not installed (scripts/setup.sh installs it)"
stamp="$dest/.version"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$version" ]; then
	exit 0
fi

# the installed DPDK's own, when its package ships them
incdir=$(pkg-config --variable=includedir libdpdk 2>/dev/null || true)
found=()
for h in "${headers[@]}"; do
	f=$(find /usr/include "$incdir" -name "$(basename "$h")" -print -quit 2>/dev/null || true)
	[ -n "$f" ] && found+=("$f")
done
if [ ${#found[@]} -eq ${#headers[@]} ]; then
	mkdir -p "$dest"
	cp "${found[@]}" "$dest/"
	echo "$version" >"$stamp"
	echo "dpdk-sdk-headers: $dest has the driver-SDK headers libdpdk-dev $version ships"
	exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

# A deb-src entry mirroring the binary sources, if there is none yet.
if ! apt-get source --print-uris "dpdk=$version" 2>/dev/null | grep -q "orig.tar"; then
	src=/etc/apt/sources.list.d/dpdk-forwarder-src.sources
	if [ -f /etc/apt/sources.list.d/debian.sources ]; then
		sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources |
			$sudo tee "$src" >/dev/null
	else
		grep -h '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' |
			$sudo tee /etc/apt/sources.list.d/dpdk-forwarder-src.list >/dev/null
	fi
	$sudo bash "$here/apt-get-wait.sh" update -qq || die "apt-get update failed (no network?)"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v dpkg-source >/dev/null || die "no dpkg-source (dpkg-dev): cannot fetch the DPDK $version source"
if ! (cd "$work" && bash "$here/apt-get-wait.sh" source --download-only -qq "dpdk=$version" >"$work/log" 2>&1); then
	die "cannot fetch Debian's DPDK $version source ($(grep -m1 -E 'E:|Err' "$work/log" | cut -c1-120))"
fi
orig=$(ls "$work"/dpdk_*.orig.tar.* 2>/dev/null | head -n 1) || true
[ -n "$orig" ] || die "Debian's DPDK $version source has no orig tarball"
top=$(set +o pipefail; tar tf "$orig" | head -n 1 | cut -d/ -f1)
mkdir -p "$dest"
tar xf "$orig" -C "$work" "${headers[@]/#/$top/}" || die "$orig lacks the driver-SDK headers"
for h in "${headers[@]}"; do
	cp "$work/$top/$h" "$dest/"
done
echo "$version" >"$stamp"
echo "dpdk-sdk-headers: $dest has the driver-SDK headers of DPDK $version"
