#!/usr/bin/env bash
# Configure (once) and build dpdk-forwarder into BUILDDIR (default: build).
#   scripts/build.sh [BUILDDIR] [meson setup options...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
if [ ! -f "$dir/build.ninja" ]; then
	rm -rf "$dir" # a set-up that failed half-way leaves a folder meson refuses
	if ! out=$(meson setup "$dir" "$@" 2>&1); then
		echo "$out" | tail -n 20 >&2
		exit 1
	fi
elif [ $# -gt 0 ]; then
	meson configure "$dir" "$@"
fi
bash scripts/dpdk-sdk-headers.sh "$dir/dpdk-sdk/include" >/dev/null
ninja -C "$dir"
