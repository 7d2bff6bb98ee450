#!/usr/bin/env bash
# apt-get that waits for another apt or dpkg to finish instead of failing.
#
#   scripts/apt-get-wait.sh APT-GET-ARGUMENTS...
#
# Every apt-get of the project's scripts goes through here (a lint test,
# tests/lint/test_apt_lock.py, holds it): on a shared machine another
# apt-get, unattended-upgrades or a colleague's set-up often holds a lock, and
# a set-up that fails on it fails a test that has nothing wrong.
# DPkg::Lock::Timeout makes apt wait for the dpkg locks (install), but not for
# the package lists' lock (update) nor the archives' (download): those
# failures ("Could not get lock") are retried every APT_LOCK_POLL s (5). The wait is bounded
# by APT_LOCK_WAIT seconds (default 600) for all of it; then the last error
# is shown and apt-get's status returned. Any other failure returns at once.
set -uo pipefail

wait_s=${APT_LOCK_WAIT:-600}
[[ "$wait_s" =~ ^[0-9]+$ ]] || {
	echo "apt-get-wait: APT_LOCK_WAIT wants whole seconds, not '$wait_s'" >&2
	exit 2
}
start=$SECONDS
err=$(mktemp "${TMPDIR:-/tmp}/apt-get-wait.XXXXXX") || exit 1
trap 'rm -f "$err"' EXIT
said=0
while :; do
	apt-get -o DPkg::Lock::Timeout="$wait_s" "$@" 2>"$err"
	st=$?
	if [ "$st" -eq 0 ] || ! grep -q 'Could not get lock\|Unable to lock\|Unable to acquire the dpkg' "$err" ||
		[ $((SECONDS - start)) -ge "$wait_s" ]; then
		cat "$err" >&2
		exit "$st"
	fi
	if [ "$said" = 0 ]; then
		echo "apt-get-wait: another apt or dpkg holds a lock; waiting (up to $wait_s s):" \
			"$(grep -m1 'Could not get lock\|Unable to' "$err")" >&2
		said=1
	fi
	sleep "${APT_LOCK_POLL:-5}"
done
