#!/usr/bin/env bash
# Install what dpdk-forwarder needs on Debian 12, and nothing already there.
# Safe to re-run. Needs root (or sudo) only when something is missing.
#
#   scripts/setup.sh            build and test dependencies
#   scripts/setup.sh --bench    also what the benchmarks need (valgrind)
set -euo pipefail

pkgs=(
	build-essential pkg-config meson ninja-build
	libdpdk-dev dpdk dpdk-dev          # DPDK 22.11, testpmd, dumpcap, telemetry client
	libnuma-dev libpcap-dev
	python3 python3-scapy python3-pexpect
	clang-format                       # the lint target
	clang libclang-rt-14-dev           # libFuzzer and the sanitizers' runtimes
	dpkg-dev xz-utils                  # apt-get source, for the driver-SDK headers
)
[ "${1:-}" = "--bench" ] && pkgs+=(valgrind)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

if [ ${#missing[@]} -gt 0 ]; then
	echo "setup: installing ${missing[*]}"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
		"${missing[@]}" >/dev/null
fi

# scapy is Debian's, under /usr/bin/python3 (a pyenv python3 does not see it).
/usr/bin/python3 -c 'import scapy.all' 2>/dev/null || {
	echo "setup: /usr/bin/python3 cannot import scapy" >&2
	exit 1
}
echo "setup: ok (DPDK $(pkg-config --modversion libdpdk))"
