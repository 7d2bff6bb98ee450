#!/usr/bin/env bash
# The longer runs on emulated PCI NICs (CI runs only the smoke: meson test
# --suite vm-smoke). One guest at a time, about 1-2 minutes each under TCG:
#   smoke   io, 1000 + 200 mixed frames both ways, xstats      (igb)
#   mac     mac mode, source/destination MAC rewrite            (igb)
#   route   two subnets, malformed IPv4, TTL 1, checksum offload (igb)
#   rss     2 RX queues per port, RSS, 2 worker lcores (-smp 3) (igb)
#   e1000e  io mode on net_e1000_em                             (e1000e)
#
#   scripts/vm-test.sh [CASE...]     all of them when none is named
# Ends with "N passed, N failed"; exit status 0 when all passed.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh build >/dev/null || {
	echo "vm-test: build failed" >&2
	exit 1
}
[ $# -gt 0 ] || set -- smoke mac route rss e1000e
export DPDK_FORWARDER=$PWD/build/app/dpdk-forwarder
pass=0 fail=0
for c in "$@"; do
	t0=$(date +%s)
	/usr/bin/python3 tests/vm/vm_test.py "$c"
	st=$?
	echo "vm-test: $c: $([ $st -eq 0 ] && echo ok || echo "FAILED ($st)") in $(($(date +%s) - t0)) s"
	if [ $st -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
