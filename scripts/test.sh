#!/usr/bin/env bash
# Set up, build and run every test; the last line is "N passed, N failed".
# Each step says what it does and about how long it takes (in all about 18
# minutes on 2 cores from scratch).
# This is the README's second command and what CI runs (.ci/run).
#
# Three builds: build/ (release, as users run it: every
# suite), build-debian13/ (release, in a Debian 13 root against DPDK 24.11:
# scripts/test-debian13.sh) and build-asan/
# (clang, ASan + UBSan, and the libFuzzer targets: every suite but the VM smoke,
# whose guest runs the release binary, and the docs' commands, which show what
# a user runs and run once on build/; the fuzz suite runs only there).
#   scripts/test.sh                 everything
#   FWD_NO_ASAN=1 scripts/test.sh   skip the sanitizer build (quicker, local use)
#   FWD_DEBIAN13=0 scripts/test.sh  skip the Debian 13 run (scripts/test-debian13.sh)
#   scripts/test.sh ARGS...         passed to both `meson test` runs (e.g. --suite unit)
set -uo pipefail
cd "$(dirname "$0")/.."
fail() {
	echo "$1" >&2
	echo "0 passed, 1 failed"
	exit 1
}
start=$SECONDS
say() { echo "test: $* [$((SECONDS - start)) s so far]"; }
say "checking the packages (seconds; a few minutes when some must be installed)"
bash scripts/setup.sh || fail "set-up failed"
say "building the release tree build/ (about 1 min from scratch)"
bash scripts/build.sh build || fail "build failed"

status=0
logs=()
d13_pid=
if [ "${FWD_DEBIAN13:-1}" != 0 ]; then
	# the first time on a machine the Debian 13 root takes some 17 min beside other
	# work, yet 1.6 min of CPU (debootstrap, then the set-up's packages): made beside
	# the tests at nice 19 with what they leave idle (renice_tree gives it its own
	# priority when they are done), it is ready when its run comes (test-debian13.sh
	# waits for it on the root's lock); made already, this takes seconds
	say "making the Debian 13 root and its packages in the background at nice 19 (seconds once made; the first time 1.6 min of CPU, some 17 min beside other work; log: build/debian13-root.log)"
	nice -n 19 bash scripts/debian13-root.sh bash scripts/setup.sh >build/debian13-root.log 2>&1 &
	d13_pid=$!
fi
run_suite() { # BUILDDIR PROCESSES LOGBASE [meson test args]
	local dir=$1 procs=$2 logbase=$3
	shift 3
	rm -f "$dir/meson-logs/$logbase.json"
	echo "=== meson test -C $dir --num-processes $procs --logbase $logbase $*"
	meson test -C "$dir" --print-errorlogs --num-processes "$procs" --logbase "$logbase" "$@" || status=1
	logs+=("$dir/meson-logs/$logbase.json")
}

renice_tree() { # PID NICENESS: a process and every descendant (best effort: lowering needs root)
	local child
	renice -n "$2" -p "$1" >/dev/null 2>&1 || true
	for child in $(pgrep -P "$1"); do
		renice_tree "$child" "$2"
	done
}

asan_pid=
if [ -z "${FWD_NO_ASAN:-}" ]; then
	# clang, with the fuzzers (-Dfuzz=true): they link the objects this tree
	# builds anyway, so CI compiles no file a third time. It builds beside the
	# release tests at nice 19: it takes the CPU they leave idle (daemons'
	# timers, guests booting, processes starting) and yields the rest to them.
	say "building the sanitizer tree build-asan/ with clang and the fuzzers, in the background at nice 19 (about 4 min of CPU from scratch)"
	CC=clang nice -n 19 bash scripts/build.sh build-asan -Dfuzz=true \
		-Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debugoptimized \
		>build/asan-build.log 2>&1 &
	asan_pid=$!
fi
say "running every test on build/ (about 5 min on 2 cores; one line a test)"
run_suite build "$(nproc)" testlog --no-suite soak --no-suite mutation "$@" # the soak: meson test -C build --suite soak
if [ -n "$asan_pid" ]; then
	say "waiting for the sanitizer build (its output: build/asan-build.log)"
	# The release tests are done: the build now runs at this script's own
	# priority. Left at nice 19 beside other work on the machine (two CPU hogs)
	# it got about 1 % of a CPU and would have taken hours.
	renice_tree "$asan_pid" "$(nice)"
	if wait "$asan_pid"; then
		grep -E "warning|error" build/asan-build.log >&2 || true
		# one test more than CPUs: alone, this phase left a third of the CPU
		# idle (tests waiting on daemons, timers, process start-up)
		say "running the tests again under ASan and UBSan, and the fuzzers (about 6 min)"
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
			run_suite build-asan "$(($(nproc) + 1))" testlog --no-suite vm --no-suite soak --no-suite docs --no-suite mutation "$@"
	else
		tail -n 30 build/asan-build.log >&2
		echo "sanitizer build failed" >&2
		status=1
	fi
fi
# the second run: Debian 13 and DPDK 24.11 in a debootstrap root (about 8 min
# with the root made, 13.5 on a busy shared VM; the first time on a machine it
# waits for what the root's making above has not done yet; skipped, in one line
# and counted as skipped, where it cannot be made). FWD_DEBIAN13=0 leaves it out.
if [ -n "$d13_pid" ]; then
	wait "$d13_pid" # its failure (no network) is test-debian13.sh's one line
	say "Debian 13 (DPDK 24.11): set-up, build and the unit, route, e2e, shell and docs suites in a trixie root (about 8 min, after the root's making if still under way)"
	# its root, if still being made, is what the run waits for now: at this
	# script's priority from here (see the sanitizer build's)
	[ -n "$d13_pid" ] && renice_tree "$d13_pid" "$(nice)"
	bash scripts/test-debian13.sh "$@" || status=1
	logs+=("build-debian13/meson-logs/testlog.json")
else
	say "Debian 13 run left out (FWD_DEBIAN13=0)"
fi
if [ $# -eq 0 ]; then
	# last, alone: the sample mutates this checkout and rebuilds in build/
	# (scripts/mutate.py --in-place), which nothing else may use meanwhile
	say "mutation testing: the sample of tests/mutation/mutants.ini (about 2 min)"
	FWD_MUTATION_IN_PLACE=$PWD/build run_suite build 1 mutationlog --suite mutation
fi
say "done"
/usr/bin/python3 scripts/test-summary.py "${logs[@]}" || status=1
exit $status
