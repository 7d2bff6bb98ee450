#!/usr/bin/env bash
# CI's second run: Debian 13 (trixie) and its DPDK 24.11, in a root made from
# Debian's own packages (scripts/debian13-root.sh: debootstrap once, reused on
# this machine). In it, as a new user would: scripts/setup.sh, scripts/build.sh
# into build-debian13/, then the unit, route, e2e, shell and docs suites.
# Its meson log is build-debian13/meson-logs/testlog.json, which
# scripts/test.sh counts in its closing line.
#
# When the root cannot be made (no network, not root) it says so in one line
# and writes a log of one skipped test, so the run counts as skipped, not failed.
#
#   scripts/test-debian13.sh [meson test args...]
set -uo pipefail
cd "$(dirname "$0")/.."
dir=build-debian13
log=$dir/meson-logs/testlog.json
start=$SECONDS
say() { echo "test-debian13: $* [$((SECONDS - start)) s so far]"; }
skip() { # WHY: one line, one skipped test in the log
	echo "test-debian13: skipped: $1"
	mkdir -p "$dir/meson-logs"
	local m=${1//\\/\\\\}
	m=${m//\"/\\\"} # a JSON string
	printf '{"name": "debian13", "result": "SKIP", "stdout": "%s"}\n' "$m" >"$log"
	exit 0
}
rm -f "$log"

say "making or reusing the Debian 13 root (a few minutes the first time on a machine)"
bash scripts/debian13-root.sh 2>"$dir.root-err"
rc=$?
why=$(tail -n 1 "$dir.root-err" 2>/dev/null)
rm -f "$dir.root-err"
case $rc in
0) ;;
3) skip "${why#debian13-root: }" ;;
*) skip "scripts/debian13-root.sh failed ($rc): $why" ;;
esac

# the suites that need no VM, fuzzer or sanitizer; namespaces work in the root
# (it shares the host's kernel), so the route tests run there as on Debian 12
suites=(--suite unit --suite route --suite e2e --suite shell --suite docs)
procs=$(nproc)
# a deprecated DPDK call is an error here: 24.11 deprecates names 22.11 has, which the tree
# calls only through lib/compat/dpdk_compat.h (a file that forgets it warned on every use)
say "set-up, build and the unit, route, e2e, shell and docs suites inside it (about 10 min on 2 cores)"
bash scripts/debian13-root.sh bash -c '
	set -e
	bash scripts/setup.sh
	bash scripts/build.sh "$1" -Dc_args=-Werror=deprecated-declarations
	shift
	echo "=== meson test -C '"$dir"' $*"
	meson test -C '"$dir"' --print-errorlogs "$@"
' - "$dir" --num-processes "$procs" "${suites[@]}" "$@"
status=$?
[ -f "$log" ] || {
	echo "test-debian13: no test ran (set-up or build failed inside the root)" >&2
	exit 1
}
say "done"
exit $status
