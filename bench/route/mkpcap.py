#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""Input pcaps of scripts/bench-route.sh: FLOWS 64-byte IPv4/UDP frames per
port, each for the receiving port's MAC (net_pcap's 02:70:63:61:70:0N, which
the router checks and l3fwd ignores), routed by l3fwd's default LPM table to
the other port: port 0 sends to 198.18.1.0/24, port 1 to 198.18.0.0/24. The
flows differ in destination address and UDP source port.

    mkpcap.py FLOWS OUTDIR      (writes OUTDIR/in0.pcap and OUTDIR/in1.pcap)
"""

import os
import sys

from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Raw
from scapy.utils import wrpcap


def frames(port, flows):
    out = []
    for f in range(flows):
        p = Ether(src="02:00:00:00:%02x:09" % port, dst="02:70:63:61:70:%02x" % port) / \
            IP(src="192.168.%d.%d" % (port, 1 + f % 250), dst="198.18.%d.%d" % (1 - port, f % 256),
               ttl=64) / UDP(sport=1024 + f, dport=9)
        p = p / Raw(b"\0" * (64 - len(p)))
        assert len(p) == 64
        out.append(p)
    return out


def main():
    flows, outdir = int(sys.argv[1]), sys.argv[2]
    for port in (0, 1):
        wrpcap(os.path.join(outdir, "in%d.pcap" % port), frames(port, flows))


if __name__ == "__main__":
    main()
