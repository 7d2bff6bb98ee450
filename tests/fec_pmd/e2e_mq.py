#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""End to end with 3 RX rings: dpdk-forwarder --fwd io between net_fec0
(model, thread mode, looped-back wire, rcmr=[1:4-5,2:6-7]) and a net_pcap
port, one worker polling net_fec0's RX queues 0, 1 and 2 (--map). Frames of
VLAN priority 0..7 and untagged ones go out through the FEC's TX, come back
classified by the MAC's RCMR: the forwarder's per-queue counts must show
PCP 0-3 and untagged on queue 0, 4-5 on queue 1, 6-7 on queue 2, and every
frame must reach out.pcap unchanged."""
import json
import os
import subprocess
import sys
import tempfile

from e2e_wire_pcap import own_prefix  # noqa: E402
from scapy.all import IP, UDP, Dot1Q, Ether, Raw, rdpcap, wrpcap

PER_PCP = 20


def ring_of(pcp):
    if pcp is None or pcp < 4:
        return 0
    return 1 if pcp < 6 else 2


def main():
    fwd = os.environ["DPDK_FORWARDER"]
    with tempfile.TemporaryDirectory(prefix="fec_mq_") as d:
        inp, out, st = (os.path.join(d, n) for n in ("in.pcap", "out.pcap", "st.json"))
        pkts, want_q = [], [0, 0, 0]
        for i in range(PER_PCP):
            for pcp in list(range(8)) + [None]:
                e = Ether(dst="02:00:00:fe:c0:00", src="02:11:22:33:44:55")
                if pcp is not None:
                    e = e / Dot1Q(prio=pcp, vlan=7)
                pkts.append(e / IP(src="10.0.0.1", dst="10.0.0.2") /
                            UDP(sport=1000 + i, dport=2000 + (pcp or 0)) / Raw(b"x" * 40))
                want_q[ring_of(pcp)] += 1
        wrpcap(inp, pkts)
        cmd = [fwd, "-l", "0,1", "--no-huge", "-m", "256", "--no-pci",
               "--file-prefix", own_prefix("fec_mq"),
               "--vdev", "net_fec0,backend=model,mode=thread,wire=loop,rcmr=[1:4-5,2:6-7]",
               "--vdev", "net_pcap0,rx_pcap=%s,tx_pcap=%s" % (inp, out),
               "--", "--fwd", "io", "--map", "(0,0,1),(0,1,1),(0,2,1),(1,0,1)",
               "--duration", "2", "--stats-file", st]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=60, check=False)
        if r.returncode != 0:
            print(r.stdout.decode(errors="replace"))
            print("not ok - forwarder exit %d" % r.returncode)
            return 1
        stats = json.load(open(st))
        got_q = [0, 0, 0]
        for lc in stats["lcores"]:
            for q in lc["rx_queues"]:
                if q["port"] == 0 and q["queue"] < 3:
                    got_q[q["queue"]] += q["pkts"]
        fec = next(p for p in stats["ports"] if p["name"] == "net_fec0")
        got = sorted(bytes(p) for p in rdpcap(out))
        fails = []
        if got_q != want_q:
            fails.append("net_fec0 RX queues %s, want %s" % (got_q, want_q))
        if got != sorted(bytes(p) for p in pkts):
            fails.append("out.pcap: %d frames, want the %d sent" % (len(got), len(pkts)))
        if fec["imissed"] or fec["ierrors"] or fec["oerrors"] or stats["mbufs_leaked"]:
            fails.append("errors/leaks: %s" % fec)
        print("1..1")
        if fails:
            print("not ok 1 - " + "; ".join(fails))
            return 1
        print("ok 1 - %d frames through net_fec0's 3 RX rings by VLAN priority: %s"
              % (len(pkts), got_q))
        return 0


if __name__ == "__main__":
    sys.exit(main())
