#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""End to end: dpdk-forwarder --fwd io between net_fec0 (model, thread mode,
looped-back wire) and a net_pcap port. Every frame of in.pcap goes out through
the FEC driver's TX, comes back through its RX and lands in out.pcap; frames
and counters are compared (short frames come back padded to 60 by the MAC)."""
import json
import os
import subprocess
import sys
import tempfile

from e2e_wire_pcap import own_prefix  # noqa: E402
from scapy.all import IP, UDP, Ether, Raw, rdpcap, wrpcap

N = 300


def main():
    fwd = os.environ["DPDK_FORWARDER"]
    with tempfile.TemporaryDirectory(prefix="fec_e2e_") as d:
        inp, out, st = (os.path.join(d, n) for n in ("in.pcap", "out.pcap", "st.json"))
        pkts = [Ether(dst="02:00:00:fe:c0:00", src="02:11:22:33:44:55") /
                IP(src="10.0.0.1", dst="10.0.0.2") / UDP(sport=1000 + i, dport=2000) /
                Raw(bytes([i % 256]) * (i * 7 % 1400)) for i in range(N)]
        wrpcap(inp, pkts)
        cmd = [fwd, "-l", "0,1", "--no-huge", "-m", "256", "--no-pci",
               "--file-prefix", own_prefix("fec_e2e"),
               "--vdev", "net_fec0,backend=model,mode=thread,wire=loop",
               "--vdev", "net_pcap0,rx_pcap=%s,tx_pcap=%s" % (inp, out),
               "--", "--fwd", "io", "--duration", "2", "--stats-file", st]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=60, check=False)
        if r.returncode != 0:
            print(r.stdout.decode(errors="replace"))
            print("not ok - forwarder exit %d" % r.returncode)
            return 1
        sent = [bytes(p) for p in pkts]
        want = [b + bytes(max(0, 60 - len(b))) for b in sent]
        got = [bytes(p) for p in rdpcap(out)]
        stats = json.load(open(st))
        fec = next(p for p in stats["ports"] if p["name"] == "net_fec0")
        fails = []
        if got != want:
            same = sum(a == b for a, b in zip(got, want))
            fails.append("out.pcap: %d frames, %d equal to the %d sent" % (len(got), same, N))
        if fec["ipackets"] != N or fec["opackets"] != N:
            fails.append("net_fec0 ipackets %d opackets %d" % (fec["ipackets"], fec["opackets"]))
        if fec["ibytes"] != sum(len(w) for w in want) or fec["obytes"] != fec["ibytes"]:
            fails.append("net_fec0 bytes %d/%d" % (fec["ibytes"], fec["obytes"]))
        if fec["imissed"] or fec["ierrors"] or fec["oerrors"] or stats["mbufs_leaked"]:
            fails.append("errors/leaks: %s" % fec)
        print("1..1")
        if fails:
            print("not ok 1 - " + "; ".join(fails))
            return 1
        print("ok 1 - %d frames through net_fec0 both ways, counters agree" % N)
        return 0


if __name__ == "__main__":
    sys.exit(main())
