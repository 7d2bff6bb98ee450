#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""The FPM listener's intake of a zebra-like burst (app/route/sync/rt_fpm_listen.c):
three next-hop objects (two gateways and their group), then N /24 routes
naming them by RTA_NH_ID, sent at once by the Python FPM client of
tests/route/e2e_fpm.py to the forwarder (net_null ports, interactive), and
`show fpm` polled until every route is counted. Prints the time from the
first byte sent to the last route counted (polling included: an upper
bound), and what the sweep after it marked. Never run by the tests.

    bench/route/fpm_burst.py [BUILDDIR] [ROUTES]   (build, 100000)
"""
import importlib.util
import os
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
build = sys.argv[1] if len(sys.argv) > 1 else "build"
n_routes = int(sys.argv[2]) if len(sys.argv) > 2 else 100000
os.environ["DPDK_FORWARDER"] = os.path.abspath(os.path.join(build, "app", "dpdk-forwarder"))
sys.path.insert(0, os.path.join(ROOT, "tests", "route"))
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
spec = importlib.util.spec_from_file_location(
    "e2e_fpm", os.path.join(ROOT, "tests", "route", "e2e_fpm.py"))
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
import fwdtest as ft  # noqa: E402

c = ft.Case("fpm-burst")
try:
    port = m.free_port()
    sh = m.enl.shell_mod().Shell(c, c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]),
                                 ["--config", m.fpm_config(c, port)])
    z = m.Client(port)
    msgs = [m.nexthop(1, gw="10.0.0.2"), m.nexthop(2, gw="10.1.0.2"), m.nexthop(3, group=[1, 2])]
    msgs += [m.route("%d.%d.%d.0/24" % (100 + (i >> 16), (i >> 8) & 255, i & 255), nh_id=1 + i % 3)
             for i in range(n_routes)]
    data = b"".join(m.frame(x) for x in msgs)
    t0 = time.monotonic()
    z.raw(data)
    while True:
        n = m.fpm(sh)
        if n["received"] >= n_routes:
            break
        time.sleep(0.05)
    t = time.monotonic() - t0
    print("fpm: %d routes (%d applied) in %.2f s: %.0f routes/s" % (
        n_routes, n["applied"], t, n_routes / t))
    # the connection's sweep waits for the replay to end: it marked every route
    while n["resyncs"] == 0:
        time.sleep(0.1)
        n = m.fpm(sh)
    print("fpm: the sweep after the burst: %d marked, %d swept" % (n["last_marked"], n["swept"]))
    z.close()
    sh.quit()
finally:
    c.cleanup()
