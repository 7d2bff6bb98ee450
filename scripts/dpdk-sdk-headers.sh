#!/usr/bin/env bash
# Debian's libdpdk-dev lacks the driver-SDK headers a PMD needs. Take them from
# the Debian source package of the exact installed DPDK version and put them
# in DEST (default build/dpdk-sdk/include). Nothing of it is committed.
# Safe to re-run: does nothing when the headers are already there for this version.
#
#   scripts/dpdk-sdk-headers.sh [DEST]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-build/dpdk-sdk/include}
headers=(lib/ethdev/ethdev_driver.h lib/ethdev/ethdev_vdev.h
	drivers/bus/vdev/bus_vdev_driver.h lib/eal/include/dev_driver.h
	lib/eal/include/bus_driver.h)

version=$(dpkg-query -W -f='${Version}' libdpdk-dev)
stamp="$dest/.version"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$version" ]; then
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
	$sudo bash "$here/apt-get-wait.sh" update -qq
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && bash "$here/apt-get-wait.sh" source --download-only -qq "dpdk=$version" >/dev/null 2>&1)
orig=$(ls "$work"/dpdk_*.orig.tar.* | head -n 1)
top=$(set +o pipefail; tar tf "$orig" | head -n 1 | cut -d/ -f1)
mkdir -p "$dest"
tar xf "$orig" -C "$work" "${headers[@]/#/$top/}"
for h in "${headers[@]}"; do
	cp "$work/$top/$h" "$dest/"
done
echo "$version" >"$stamp"
echo "dpdk-sdk-headers: $dest has the driver-SDK headers of DPDK $version"
