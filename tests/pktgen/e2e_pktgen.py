#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""--fwd pktgen end to end: the real binary generating into net_pcap (every
output packet parsed by scapy: count, sizes, checksums, flows) and into a
net_ring port that loops back to the receive side; every stop path leaves
the pools full.

    e2e_pktgen.py CASE
"""

import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import fwdtest as ft  # noqa: E402
from fwdtest import Fail, check, check_eq  # noqa: E402

from scapy.layers.inet import ICMP, IP, TCP, UDP  # noqa: E402
from scapy.layers.l2 import Dot1Q, Ether  # noqa: E402


def config(c, **keys):
    path = c.path("pg%d.ini" % len(c.prefixes))
    with open(path, "w") as f:
        f.write("[forward]\nfwd = pktgen\n[pktgen]\n")
        for k, v in keys.items():
            f.write("%s = %s\n" % (k.replace("_", "-"), v))
    return path


def run_to_pcap(c, **keys):
    """Generate with the given [pktgen] keys out of port 1 into a pcap; returns (frames, stats)."""
    out = c.path("out%d.pcap" % len(c.prefixes))
    vdevs = ["--vdev", "net_pcap0,tx_pcap=" + c.path("unused%d.pcap" % len(c.prefixes)),
             "--vdev", "net_pcap1,tx_pcap=" + out]
    r = c.run(c.eal(vdevs), ["--config", config(c, **keys)], timeout=60)
    r.check_ok()
    check_eq(r.stats["mbufs_leaked"], 0, "mbufs leaked")
    return ft.read_pcap(out), r.stats


def check_packet(raw, proto, sizes, what):
    """One generated frame: parses, checksums right, size in range (FCS excluded)."""
    p = Ether(raw)
    check(IP in p, "%s: not IPv4" % what)
    ip = p[IP]
    want_ip = IP(bytes(ip))
    del want_ip.chksum
    check_eq(ip.chksum, IP(bytes(want_ip)).chksum, "%s: IPv4 checksum" % what)
    l4 = {"udp": UDP, "tcp": TCP, "icmp": ICMP}[proto]
    check(l4 in p, "%s: no %s header" % (what, proto))
    recomputed = l4(bytes(p[l4]))
    got = recomputed.chksum
    del recomputed.chksum
    if proto == "icmp":
        fresh = ICMP(bytes(recomputed))
    else:
        fresh = (IP(src=ip.src, dst=ip.dst, proto=ip.proto) / recomputed)
        fresh = IP(bytes(fresh))[l4]
    check_eq(got, fresh.chksum, "%s: %s checksum" % (what, proto))
    check(sizes[0] <= len(raw) + 4 <= sizes[1],
          "%s: %d bytes with FCS, want %d-%d" % (what, len(raw) + 4, sizes[0], sizes[1]))


def case_count_matrix(c):
    """Exactly `count` packets leave, for counts not multiple of the burst or the clone."""
    for count in (1, 33, 257):
        for clone in (1, 3, 16):
            for burst in (1, 7, 32):
                frames, st = run_to_pcap(c, proto="udp", size=64, count=count, clone=clone,
                                         burst=burst, flows=4)
                what = "count %d clone %d burst %d" % (count, clone, burst)
                check_eq(len(frames), count, what + ": packets out")
                check_eq(ft.port_stats(st, 1)["opackets"], count, what + ": port counter")
                check_eq(st["pktgen"][0]["tx"]["tx_pkts"], count, what + ": generator counter")
                check_packet(frames[-1], "udp", (64, 64), what + ", last packet")


def case_streams(c):
    """Protocols, sizes, VLAN and flows: every packet checked."""
    for proto in ("udp", "tcp", "icmp"):
        frames, _ = run_to_pcap(c, proto=proto, size="64-1518", count=200, flows=8,
                                src_port="1000-1007", burst=16)
        check_eq(len(frames), 200, proto + ": count")
        for i, f in enumerate(frames):
            check_packet(f, proto, (64, 1518), "%s packet %d" % (proto, i))
        sizes = {len(f) for f in frames}
        check(len(sizes) > 20, "%s: range of sizes used (%d distinct)" % (proto, len(sizes)))
    frames, _ = run_to_pcap(c, proto="udp", size="imix", count=120, flows=3,
                            src_ip="10.0.0.1-10.0.0.3", vlan=100)
    # IMIX 7:4:1 of 64/576/1500 bytes on the wire (FCS included, the VLAN tag inside them)
    sizes = [len(f) + 4 for f in frames]
    check_eq(sorted(set(sizes)), [64, 576, 1500], "imix sizes")
    check_eq([sizes.count(n) for n in (64, 576, 1500)], [70, 40, 10], "imix weights 7:4:1")
    srcs = {}
    for i, f in enumerate(frames):
        p = Ether(f)
        check(Dot1Q in p and p[Dot1Q].vlan == 100, "packet %d: VLAN 100" % i)
        srcs[p[IP].src] = srcs.get(p[IP].src, 0) + 1
    check_eq(sorted(srcs), ["10.0.0.1", "10.0.0.2", "10.0.0.3"], "flows over the source range")
    check(max(srcs.values()) - min(srcs.values()) <= 1, "round-robin spreads flows evenly")


def case_loopback(c):
    """net_ring loops the generated packets back: the receive side counts them all, in order."""
    r = c.run(c.eal(["--vdev", "net_ring0"]),
              ["--config", config(c, proto="udp", size="64-256", count=5000, flows=16, clone=4),
               "--port-topology", "loop"], timeout=60)
    r.check_ok()
    rx = r.stats["pktgen"][0]["rx"]
    check_eq(rx["rx_pkts"], 5000, "received")
    check_eq(rx["signed_pkts"], 5000, "carrying our signature")
    check_eq((rx["lost"], rx["reorder"], rx["dup"]), (0, 0, 0), "loss, reorder, duplicates")
    check(0 < rx["lat_min_ns"] <= rx["lat_avg_ns"] <= rx["lat_max_ns"], "latency measured")
    check_eq(r.stats["drops"]["pktgen_rx"], 5000, "received packets counted as pktgen_rx")
    check_eq(r.stats["mbufs_leaked"], 0, "mbufs leaked")


def case_sigterm(c):
    """An endless clone stream stopped by SIGTERM: exit 0, every reference settled."""
    run = c.start(c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]),
                  ["--config", config(c, count=0, clone=8, size=64), "--stats-period", "0.2",
                   "--stats-file", c.path("s.json")])
    run.wait_line("=== stats", 20)
    run.p.send_signal(signal.SIGTERM)
    rc, out, err = run.finish(20)
    check_eq(rc, 0, "exit status\n" + err[-1500:])
    st = ft.load_stats(c.path("s.json"))
    check_eq(st["mbufs_leaked"], 0, "mbufs leaked (clone references not settled?)")
    check(st["pktgen"][0]["tx"]["tx_pkts"] > 1000, "it was generating")


def sent_so_far(pcap):
    """Frames in a pcap the forwarder is still writing (a half-written record counts 0)."""
    try:
        return ft.pcap_count(pcap)
    except (OSError, Fail):
        return 0


def case_shell(c):
    """pktgen set/start/stop/show from the shell; a bad key or value leaves the stream as it was."""
    out = c.path("out.pcap")
    vdevs = ["--vdev", "net_pcap0,tx_pcap=" + c.path("u.pcap"), "--vdev", "net_pcap1,tx_pcap=" + out]
    cmds = ("pktgen set count 40\npktgen set size 128\npktgen set nosuch 1\n"
            "pktgen set size 5\nshow pktgen\npktgen start\n")
    p = subprocess.Popen(c._argv(c.eal(vdevs), ["-i", "--config", config(c, count=10, size=64),
                                                "--stats-file", c.path("s.json")]),
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, cwd=c.dir)
    p.stdin.write(cmds)
    p.stdin.flush()
    # end of input quits: give the 40 packets time to leave first (no fixed wait: poll the pcap)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and sent_so_far(out) < 40:
        time.sleep(0.05)
    stdout, stderr = p.communicate(timeout=30)
    p.stdout, p.stderr = stdout, stderr
    check_eq(p.returncode, 0, "exit status\n" + stderr[-1500:])
    check("pktgen count = 40" in p.stdout, "count set")
    check("unknown key 'nosuch'" in p.stdout, "unknown key refused")
    check("is not N, MIN-MAX" in p.stdout, "bad size refused")
    check("size = 128" in p.stdout, "show pktgen shows the stream")
    frames = ft.read_pcap(out)
    check_eq(len(frames), 40, "packets after pktgen start")
    check_eq({len(f) for f in frames}, {124}, "128-byte frames (124 without FCS)")
    st = ft.load_stats(c.path("s.json"))
    check_eq(st["mbufs_leaked"], 0, "mbufs leaked")


def case_restart(c):
    """pktgen start, stop, start, then set (which rebuilds the generators and their fragpool
    templates): every run sends its whole count, sequence numbers go on across a restart and start
    over after a set, and nothing leaks at the end."""
    out = c.path("out.pcap")
    vdevs = ["--vdev", "net_pcap0,tx_pcap=" + c.path("u.pcap"), "--vdev", "net_pcap1,tx_pcap=" + out]
    p = subprocess.Popen(c._argv(c.eal(vdevs), ["-i", "--config", config(c, count=20, size=64),
                                                "--stats-file", c.path("s.json")]),
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, cwd=c.dir)

    def send_and_wait(cmds, frames):
        p.stdin.write(cmds)
        p.stdin.flush()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and sent_so_far(out) < frames:
            time.sleep(0.05)

    send_and_wait("pktgen start\n", 20)
    send_and_wait("pktgen stop\npktgen start\n", 40)
    send_and_wait("pktgen set size 100\n", 60)
    stdout, stderr = p.communicate(timeout=30)
    p.stdout, p.stderr = stdout, stderr
    check_eq(p.returncode, 0, "exit status\n" + stderr[-1500:])
    frames = ft.read_pcap(out)
    check_eq(len(frames), 60, "three runs of 20")
    check_eq([len(f) for f in frames], [60] * 40 + [96] * 20, "sizes: 64, 64, then 100 after set")
    seqs = []
    for raw in frames:
        pkt = Ether(raw)
        check(pkt.haslayer(UDP), "UDP frame")
        payload = bytes(pkt[UDP].payload)
        check_eq(payload[0], 0xA7, "signature magic")
        seqs.append(int.from_bytes(payload[4:8], sys.byteorder))
    check_eq(seqs, list(range(40)) + list(range(20)), "sequence numbers")
    st = ft.load_stats(c.path("s.json"))
    check_eq(st["mbufs_leaked"], 0, "mbufs leaked")


def case_bad_config(c):
    r = c.run(c.eal(["--vdev", "net_null0"]), ["--config", config(c, clone=999)])
    check(r.rc == 1, "exit 1 for a bad [pktgen] value, got %r" % r.rc)
    r.check_error(r"pg\d+\.ini:4: ")
    r = c.run(c.eal(["--vdev", "net_null0"]), ["--config", config(c, colour="red")])
    r.check_error(r"unknown key 'colour' in \[pktgen\]")


CASES = {n[5:]: f for n, f in globals().items() if n.startswith("case_")}


if __name__ == "__main__":
    sys.exit(ft.run_cases(sys.argv, CASES, "pktgen-", "tests/pktgen/meson.build"))
