#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""Input pcaps of bench/route/full-table.sh: 64-byte IPv4/UDP frames to destinations drawn
across the routed space of bench/route/mkfulltable.py's synthetic full table.

    mkfullpcap.py [--interleave G] OUTDIR FLOWS [TRAIN] [ROUTES] [SEED]

FLOWS distinct flows (destination address and UDP source port both differ), each destination
inside a route picked at random from the table that `mkfulltable.py OUTDIR ROUTES 65536 SEED`
writes (defaults 1 000 000 routes, seed 1), so nearly every destination is in a tbl24 line of
its own. Flow i goes to port i % 2 (OUTDIR/in0.pcap, OUTDIR/in1.pcap), for that port's MAC
(net_pcap's 02:70:63:61:70:0N, which the router checks and l3fwd ignores). Each flow's frame
is written TRAIN times in a row (default 1): with TRAIN 8 a 32-packet burst holds 4 flows.

With --interleave G each port's flows are taken G at a time and each such group is written
round-robin TRAIN times (A B C D A B C D ... for G 4): the same packets and the same number of
them, but a flow's packets are not next to each other. With G 4 and TRAIN 8 a 32-packet burst
holds 4 flows of 8 packets each, interleaved: without grouping every packet starts a run of
its own (a flow-table lookup each), grouped they are 4 lookups (issue 17's flowsort case).

The frames are written as raw pcap records (scapy takes minutes for a million of them).
"""

import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mkfulltable as mk  # noqa: E402  (next to this file)


def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def frame(port, f, dst):
    eth = bytes.fromhex("0270636170%02x" % port) + bytes.fromhex("0200000000%02x" % port) + \
        b"\x08\x00"
    src = 0xc0a80000 | port << 8 | (1 + f % 250)
    # a 64-byte frame as bench/route/mkpcap.py writes (the UDP payload fills it; no FCS)
    payload = b"\0" * (64 - 14 - 20 - 8)
    ulen = 8 + len(payload)
    hdr = struct.pack("!BBHHHBBHII", 0x45, 0, 20 + ulen, 0, 0, 64, 17, 0, src, dst)
    hdr = hdr[:10] + struct.pack("!H", csum(hdr)) + hdr[12:]
    udp = struct.pack("!HHHH", 1024 + (f // 2) % 60000, 9, ulen, 0)
    out = eth + hdr + udp + payload
    assert len(out) == 64
    return out


def write_pcap(path, frames):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        rec = struct.pack("<IIII", 0, 0, 64, 64)
        for fr in frames:
            f.write(rec)
            f.write(fr)


def main():
    args = sys.argv[1:]
    group = 0
    if len(args) > 1 and args[0] == "--interleave":
        group = int(args[1])
        args = args[2:]
        if group < 1:
            sys.exit("mkfullpcap.py: --interleave takes a number of flows, 1 or more")
    if len(args) < 2:
        sys.exit(__doc__)
    outdir, flows = args[0], int(args[1])
    train = int(args[2]) if len(args) > 2 else 1
    n = int(args[3]) if len(args) > 3 else 1000000
    seed = int(args[4]) if len(args) > 4 else 1
    routes = mk.generate(n, 65536, seed)
    rnd = random.Random(seed + 17)
    seen = set()
    per_port = ([], [])
    while len(seen) < flows:
        a, plen, _ = routes[rnd.randrange(len(routes))]
        dst = a | (rnd.getrandbits(32 - plen) if plen < 32 else 0)
        # a short route may cover reserved space (100.0.0.0/8 covers port 1's connected
        # 100.64.0.0/10, where a destination is a neighbour to resolve, not a route)
        if dst in seen or mk.reserved(dst):
            continue
        f = len(seen)
        seen.add(dst)
        per_port[f % 2].append(frame(f % 2, f, dst))
    for port in (0, 1):
        frames = per_port[port]
        if group:
            # each group of G flows round-robin, TRAIN times: A B C D A B C D ...
            out = [fr for g in range(0, len(frames), group) for _ in range(train)
                   for fr in frames[g:g + group]]
        else:
            out = [fr for fr in frames for _ in range(train)]
        write_pcap(os.path.join(outdir, "in%d.pcap" % port), out)


if __name__ == "__main__":
    main()
