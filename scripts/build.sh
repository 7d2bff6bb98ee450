#!/usr/bin/env bash
# Configure (once) and build dpdk-forwarder into BUILDDIR (default: build).
#   scripts/build.sh [BUILDDIR] [meson setup options...]
# Says what it does and about how long it takes; when the output is not a
# terminal (CI, a log), ninja's line per compiled file is left out and only
# warnings and errors show (FWD_BUILD_VERBOSE=1 keeps them).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
start=$SECONDS
# CC=clang for a tree first configured with another compiler (or before the
# compiler was recorded in .fwd-cc): meson cannot change it in place, so the
# tree is configured again from scratch
if [ -n "${CC:-}" ] && [ -f "$dir/build.ninja" ] && [ "$(cat "$dir/.fwd-cc" 2>/dev/null)" != "$CC" ]; then
	echo "build: $dir was configured with another compiler than CC=$CC: configuring it again"
	rm -rf "$dir"
fi
if [ ! -f "$dir/build.ninja" ]; then
	echo "build: configuring $dir (meson setup, about 10 s)"
	rm -rf "$dir" # a set-up that failed half-way leaves a folder meson refuses
	if ! out=$(meson setup "$dir" "$@" 2>&1); then
		echo "$out" | tail -n 20 >&2
		exit 1
	fi
	# what the set-up leaves out, one line each (-Dfec_pmd=auto without the SDK headers)
	echo "$out" | sed -n 's/^Message: \(fec_pmd: not built.*\)/build: \1/p' >&2
	echo "${CC:-}" >"$dir/.fwd-cc"
	echo "build: building $dir from scratch (about 1 min on 2 cores, 3 with sanitizers)"
elif [ $# -gt 0 ]; then
	echo "build: reconfiguring $dir ($*)"
	meson configure "$dir" "$@"
	echo "build: building $dir (what changed; up to 1 min on 2 cores)"
else
	echo "build: building $dir (what changed; up to 1 min on 2 cores)"
fi
# the FEC PMD's driver-SDK headers are fetched by meson at configure time
# (-Dfec_pmd, drivers/net/fec_pmd/meson.build), which says in one line when
# they cannot be had
quiet=()
if [ ! -t 1 ] && [ -z "${FWD_BUILD_VERBOSE:-}" ]; then
	quiet=(--quiet)
fi
ninja -C "$dir" "${quiet[@]}"
echo "build: $dir done in $((SECONDS - start)) s"
