#!/usr/bin/env bash
# Install what dpdk-forwarder needs on Debian 12 (DPDK 22.11) or Debian 13 (DPDK
# 24.11), and nothing already there. Package names follow the release: no
# version in a name (the clang runtimes are those of the release's clang).
# Safe to re-run. Needs root (or sudo) only when something is missing.
#
#   scripts/setup.sh            build and test dependencies
#   scripts/setup.sh --bench    also what the benchmarks need (valgrind)
#   scripts/setup.sh --vm [igb|imx8mp]...
#                               also what scripts/vm-run.sh needs for those
#                               machines (all when none is named): QEMU 10
#                               from Debian's bookworm-backports, busybox-static,
#                               kmod, cpio (imx8mp: device-tree-compiler)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

pkgs=(
	build-essential pkg-config meson ninja-build
	libdpdk-dev dpdk dpdk-dev          # DPDK (22.11 or 24.11), testpmd, dumpcap, telemetry client
	libnuma-dev libpcap-dev libmnl-dev
	python3 python3-scapy python3-pexpect
	frr                                # zebra with dplane_fpm_nl for route-fpm-e2e-frr (~10 MB)
	bird2                              # BIRD 2 for route-nlsync-e2e-bird (protocol kernel into a namespace)
	iputils-ping traceroute            # route-twin-e2e-ping, -traceroute: the real tools through the router
	iproute2 procps                    # ip netns, ps: the route tests (a minimal install has neither)
	ethtool                            # the user guide's traffic through the router: veth checksum offload off
	strace                             # route-twin-e2e-slow-start: holds the forwarder inside its ports' start
	python3-matplotlib                 # bench/plot.py (the benchmark plots in docs/img)
	python3-prometheus-client prometheus # tools/dpdk-forwarder-exporter, promtool for its test
	clang-format                       # the lint target
	clang                              # libFuzzer and the sanitizers' runtimes: libclang-rt-N-dev below
	dpkg-dev xz-utils                  # apt-get source, for the driver-SDK headers
	man-db groff-base                  # tests/install renders the man page (man -l)
)
# name=suite pairs installed with -t SUITE (QEMU 10 is in bookworm-backports only)
backports=()
case "${1:-}" in
--bench) pkgs+=(valgrind) ;;
--vm)
	shift
	[ $# -gt 0 ] || set -- igb imx8mp
	pkgs+=(busybox-static kmod cpio)
	for m in "$@"; do
		case "$m" in
		igb) backports+=(qemu-system-x86) ;;
		imx8mp) backports+=(qemu-system-arm) pkgs+=(device-tree-compiler) ;; # fdtput: VM_IMX_LAYOUT=nxp
		*)
			echo "setup: --vm: unknown machine '$m' (igb, imx8mp)" >&2
			exit 2
			;;
		esac
	done
	;;
"") ;;
*)
	echo "usage: scripts/setup.sh [--bench | --vm [igb|imx8mp]...]" >&2
	exit 2
	;;
esac

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

. /etc/os-release
# a fresh root may have no package lists yet: read them once before asking
has_candidate() { # PKG: the release has it (no grep -q: its early exit fails the pipe)
	[[ "$(apt-cache policy "$1" 2>/dev/null)" =~ Candidate:\ [0-9] ]]
}
updated=
if ! has_candidate libdpdk-dev; then
	echo "setup: apt-get update (about 10 s)"
	$sudo bash "$here/apt-get-wait.sh" update -qq
	updated=1
fi
# the runtimes matching the clang this release installs (14 on Debian 12, 19 on 13)
clang_major=$(clang --version 2>/dev/null | sed -n 's/.*clang version \([0-9][0-9]*\).*/\1/p' | head -n 1 || true)
[ -n "$clang_major" ] ||
	clang_major=$(apt-cache depends clang 2>/dev/null | sed -n 's/.*Depends: clang-\([0-9][0-9]*\)$/\1/p' | head -n 1 || true)
[ -n "$clang_major" ] && pkgs+=("libclang-rt-$clang_major-dev")
dpdk_v=$(dpkg-query -W -f='${Version}' libdpdk-dev 2>/dev/null ||
	apt-cache policy libdpdk-dev | sed -n 's/.*Candidate: //p')
echo "setup: ${PRETTY_NAME:-unknown release}: DPDK ${dpdk_v:-none} (libdpdk-dev), clang ${clang_major:-none}"

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

# QEMU from backports: a QEMU older than 10 (bookworm's own is 7.2) lacks the
# igb and imx8mp-evk models, so an installed one counts only when it is 10+.
bp_missing=()
for p in "${backports[@]}"; do
	v=$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null || true)
	case "$v" in
	1:1[0-9].*) ;;
	*) bp_missing+=("$p") ;;
	esac
done
bp_list=/etc/apt/sources.list.d/bookworm-backports.sources
if [ ${#bp_missing[@]} -gt 0 ] && ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
	echo "setup: adding $bp_list"
	printf '%s\n' 'Types: deb' 'URIs: http://deb.debian.org/debian' 'Suites: bookworm-backports' \
		'Components: main' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' |
		$sudo tee "$bp_list" >/dev/null
	updated= # a new list to read
fi

if [ -z "$updated" ] && { [ ${#missing[@]} -gt 0 ] || [ ${#bp_missing[@]} -gt 0 ]; }; then
	echo "setup: apt-get update (about 10 s)"
	$sudo bash "$here/apt-get-wait.sh" update -qq
fi
# a name this release does not have: said once, left out (its tests skip)
absent=()
have=()
for p in "${missing[@]}"; do
	if has_candidate "$p"; then
		have+=("$p")
	else
		absent+=("$p")
	fi
done
[ ${#absent[@]} -eq 0 ] || echo "setup: not in ${PRETTY_NAME:-this release}, left out: ${absent[*]}" >&2
missing=("${have[@]}")
if [ ${#missing[@]} -gt 0 ]; then
	echo "setup: installing ${missing[*]} (about a minute a few packages; apt-get's output is hidden)"
	DEBIAN_FRONTEND=noninteractive $sudo bash "$here/apt-get-wait.sh" install -y -qq --no-install-recommends \
		"${missing[@]}" >/dev/null
fi
if [ ${#bp_missing[@]} -gt 0 ]; then
	echo "setup: installing ${bp_missing[*]} from bookworm-backports (a few minutes: QEMU is large)"
	DEBIAN_FRONTEND=noninteractive $sudo bash "$here/apt-get-wait.sh" install -y -qq --no-install-recommends \
		-t bookworm-backports "${bp_missing[@]}" >/dev/null
fi

# scapy is Debian's, under /usr/bin/python3 (a pyenv python3 does not see it).
/usr/bin/python3 -c 'import scapy.all' 2>/dev/null || {
	echo "setup: /usr/bin/python3 cannot import scapy" >&2
	exit 1
}
echo "setup: ok (DPDK $(pkg-config --modversion libdpdk))"
