#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""Soak (issue 19): each mode at full rate on net_null for SECONDS, sampling
the forwarder's RSS (/proc/PID/status VmRSS), its rte_malloc heap in use
(/eal/heap_info) and its counters (/forwarder/stats) every second over the
telemetry socket; the RSS after warm-up must stay within a bound, the heap
flat, every sample's counters must add up (rx >= tx + dropped, the rest in
flight) and only grow; at the end every mbuf back and the balance holds
(check_balance()). Route mode churns a route and a neighbour from a
--cmdline-file. Prints a table; exit 1 on any failure.

    scripts/soak.py [SECONDS_PER_MODE]      (default 60; build/app/dpdk-forwarder)
"""
import json
import os
import socket
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "e2e"))
os.environ.setdefault("DPDK_FORWARDER", os.path.join(HERE, "..", "build", "app", "dpdk-forwarder"))
import fwdtest as ft  # noqa: E402

MBUF_SLACK = 512  # mbufs in use may exceed the first half's most by a few bursts
HEAP_BOUND = 64 * 1024  # bytes the rte_malloc heap in use may grow after warm-up
RSS_BOUND_KB = 2048  # growth allowed between the sample after warm-up (a fifth in) and the last


def telemetry(prefix, cmd):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.settimeout(5)
    try:
        s.connect("/var/run/dpdk/%s/dpdk_telemetry.v2" % prefix)
        json.loads(s.recv(4096))  # the greeting
        s.send(cmd.encode())
        return json.loads(s.recv(1 << 20))[cmd.split(",")[0]]
    finally:
        s.close()


def check_counters(samples, fails, generated):
    """Each snapshot adds up (what was received, plus the slow path's own
    frames, covers what was sent and dropped: the rest is in flight; a
    generator sends what it did not receive), and no counter goes back."""
    prev = None
    for st in samples:
        slow_tx = sum(v.get("slow_tx", 0) for v in st.values() if isinstance(v, dict))
        if not generated and st["rx_pkts"] + slow_tx < st["tx_pkts"] + st["dropped"]:
            fails.append("a snapshot does not add up: %r" % st)
            return
        if prev is not None and any(st[k] < prev[k] for k in ("rx_pkts", "tx_pkts", "dropped")):
            fails.append("a counter went back: %r then %r" % (prev, st))
            return
        prev = st


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


TEARDOWN_S = 4  # seconds before the exit that are the teardown's, not the run's


def soak(c, mode, secs):
    app = ["--fwd", mode]
    if mode == "route":
        app = ["--config", os.path.join(HERE, "..", "config", "router.ini")]
        cmds = c.path("churn.txt")
        with open(cmds, "w") as f:  # a route and a neighbour, deleted and added, again and again
            f.write("start\n")
            for _ in range(int(secs * 4)):
                f.write("route add 172.17.0.0/16 via 10.1.0.2\nneigh del 10.1.0.2\nsleep 0.1\n"
                        "neigh add 10.1.0.2 02:00:00:00:01:02\nroute del 172.17.0.0/16\n"
                        "sleep 0.1\n")
        app += ["--cmdline-file", cmds]
    sfile = c.path("%s.json" % mode)
    run = c.start(c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]),
                  app + ["--duration", str(secs), "--stats-file", sfile])
    samples, heap, counters = [], [], []  # (time, RSS kB), (time, heap bytes), snapshots
    prefix = c.prefixes[-1]
    t0 = time.monotonic()
    while run.p.poll() is None and time.monotonic() - t0 < secs + 60:
        try:
            samples.append((time.monotonic(), rss_kb(run.p.pid)))
        except OSError:
            break
        try:
            heap.append((time.monotonic(), telemetry(prefix, "/eal/heap_info,0")["Alloc_size"]))
            st = telemetry(prefix, "/forwarder/stats")
            if st.get("state") == "forwarding":
                counters.append(st)
        except (OSError, ValueError, KeyError, TypeError):
            pass  # not up yet, or going away
        time.sleep(1)
    # the last seconds are the teardown: its mempool audit walks every mbuf and
    # makes the pool's untouched pages resident (tens of MB), which is no growth
    gone = time.monotonic()
    samples = [kb for when, kb in samples if when < gone - TEARDOWN_S] or [kb for _, kb in samples]
    heap = [b for when, b in heap if when < gone - TEARDOWN_S]
    rc, out, err = run.finish(60)
    s = ft.load_stats(sfile)
    fails = []
    if rc != 0:
        fails.append("exit %r: %s" % (rc, err[-300:]))
    warm = samples[min(len(samples) - 1, max(1, len(samples) // 5))] if samples else 0
    end = max(samples[-3:]) if samples else 0
    # a short run ends before warm-up (the no-huge heap and the route tables are touched
    # lazily, tens of MB): its RSS is printed, not checked
    if secs >= 20 and end - warm > RSS_BOUND_KB:
        fails.append("RSS grew %d kB after warm-up" % (end - warm))
    hwarm = heap[min(len(heap) - 1, max(1, len(heap) // 5)):] if heap else []
    if secs >= 20 and hwarm and max(hwarm) - hwarm[0] > HEAP_BOUND:
        fails.append("heap in use grew %d bytes after warm-up" % (max(hwarm) - hwarm[0]))
    if secs >= 20 and len(counters) < secs / 2:
        fails.append("only %d counter snapshots" % len(counters))
    check_counters(counters, fails, mode == "pktgen")
    # mbufs out of the pools: bounded by rings and caches, so flat unless one leaks
    use = [st.get("mbufs_in_use", 0) for st in counters]
    if secs >= 20 and len(use) >= 6:
        h = len(use) // 2
        if max(use[h:]) > max(use[1:h]) + MBUF_SLACK:
            fails.append("mbufs in use grew: at most %d in the first half, %d in the second" %
                         (max(use[1:h]), max(use[h:])))
    pkts = 0
    lost = None
    if s is None:
        fails.append("no stats file")
    else:
        lost = s["mbufs_leaked"] + sum(mp["size"] - mp["available"] for mp in s["mempools"])
        if lost:
            fails.append("%d mbufs lost" % lost)
        try:
            ft.check_balance(s)
        except ft.Fail as e:
            fails.append(str(e))
        pkts = sum(lc["rx_pkts"] for lc in s["lcores"]) + sum(
            g["tx"]["tx_pkts"] for g in s.get("pktgen", []))
    return dict(mode=mode, secs=secs, pkts=pkts, rss_start=warm, rss_end=end, lost=lost,
                heap=(hwarm[0], max(hwarm)) if hwarm else (0, 0), snaps=len(counters),
                in_use=max((st.get("mbufs_in_use", 0) for st in counters), default=0),
                fails=fails)


def main():
    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 60
    rows = []
    for mode in ("io", "mac", "macswap", "rxonly", "route", "pktgen"):
        c = ft.Case("soak-" + mode)
        try:
            rows.append(soak(c, mode, secs))
        finally:
            c.cleanup()
    print("| mode | seconds | packets | RSS after warm-up (kB) | RSS at end (kB) | heap in use after warm-up / max (bytes) | counter snapshots | most mbufs in use | mbufs lost | result |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print("| %s | %g | %d | %d | %d | %d / %d | %d | %d | %s | %s |" % (
              r["mode"], r["secs"], r["pkts"], r["rss_start"], r["rss_end"], r["heap"][0],
              r["heap"][1], r["snaps"], r["in_use"], r["lost"],
              "ok" if not r["fails"] else "; ".join(r["fails"])[:300]))
    return 1 if any(r["fails"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
