#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""Write the input pcaps the examples of README.md and docs/ read.

    /usr/bin/python3 scripts/make-pcaps.py [DIR]        write every file below into DIR (default .)
    /usr/bin/python3 scripts/make-pcaps.py --count FILE...   print how many frames each pcap holds

The frames are fixed (no randomness), so an example's counts are the same on
every machine; the doc test (tests/docs/test_docs.py) runs the examples on
these files and checks the counts the docs show.
"""

import os
import sys

try:
    from scapy.layers.inet import IP, UDP
    from scapy.layers.l2 import Ether
    from scapy.packet import Raw
    from scapy.utils import RawPcapReader, RawPcapWriter
except ImportError as e:
    sys.exit("make-pcaps: scapy is missing (%s): apt-get install python3-scapy "
             "(bash scripts/setup.sh does)" % e)

HOST_MAC = "02:00:00:00:00:02"  # the host the examples' traffic comes from


def pcap_mac(port):
    """The MAC DPDK's net_pcap gives its PORT-th port (02:70:63:61:70 is "pcap")."""
    return "02:70:63:61:70:%02x" % port


def udp(dst_mac, src_ip, dst_ip, sport=1024, dport=9):
    """A 60-byte Ethernet/IPv4/UDP frame (the minimum, without FCS)."""
    return bytes(Ether(src=HOST_MAC, dst=dst_mac) / IP(src=src_ip, dst=dst_ip, ttl=64)
                 / UDP(sport=sport, dport=dport) / Raw(b"\x00" * 18))


# the FEC model's MAC when no mac= is given (drivers/net/fec_pmd/fec_probe.c)
FEC_MAC = "02:00:00:fe:c0:00"


def l2_frames(count, port, dst_mac=None):
    """COUNT frames for the L2 modes (io, mac, macswap), to DST_MAC (default:
    net_pcap's port PORT)."""
    return [udp(dst_mac or pcap_mac(port), "10.%d.0.2" % port, "10.%d.0.2" % (1 - port), 1024 + i)
            for i in range(count)]


def router_frames():
    """Into port 0 of config/router.ini (10.0.0.1/24): 100 frames to
    172.16.0.1-100, routed via 10.1.0.2 (a static [neigh]) out of port 1, then
    4 to 192.0.2.1-4, the blackhole route: dropped and counted as `blackhole`."""
    fwd = [udp(pcap_mac(0), "10.0.0.2", "172.16.0.%d" % (i + 1)) for i in range(100)]
    bh = [udp(pcap_mac(0), "10.0.0.2", "192.0.2.%d" % (i + 1)) for i in range(4)]
    return fwd + bh


# file name: (frames, who reads it)
FILES = {
    "in0.pcap": (lambda: l2_frames(64, 0), "README: the two-pcap mac example, port 0"),
    "in1.pcap": (lambda: l2_frames(64, 1), "README: the two-pcap mac example, port 1"),
    "route-in.pcap": (router_frames, "README: the router example (config/router.ini), port 0"),
    "pcap_in.pcap": (lambda: l2_frames(32, 0), "docs/fec_pmd.md: the net_pcap port beside net_fec0"),
    # to the MAC's own address: its filter drops other frames until promiscuous
    # mode is on, and the wire delivers from dev_start, before the app turns it on
    "fec_in.pcap": (lambda: l2_frames(32, 0, FEC_MAC), "docs/fec_pmd.md: the FEC model's wire input"),
    "a.pcap": (lambda: l2_frames(32, 0), "docs/user-guide.md: scripts/vm-run.sh --in 0=a.pcap"),
}


def write_pcap(path, frames):
    w = RawPcapWriter(path, linktype=1, sync=True)  # DLT_EN10MB
    w._write_header(None)  # an empty file is still a valid pcap
    for f in frames:
        w.write(f)
    w.close()


def count(paths):
    status = 0
    for p in paths:
        try:
            n = sum(1 for _ in RawPcapReader(p))
        except (OSError, EOFError, ValueError) as e:
            print("%s: %s" % (p, e), file=sys.stderr)
            status = 1
            continue
        print("%s: %d frames" % (p, n))
    return status


def main(argv):
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if argv[:1] == ["--count"]:
        return count(argv[1:])
    if len(argv) > 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out = argv[0] if argv else "."
    os.makedirs(out, exist_ok=True)
    for name, (make, what) in FILES.items():
        frames = make()
        path = name if out == "." else os.path.join(out, name)
        write_pcap(path, frames)
        print("%s: %d frames (%s)" % (path, len(frames), what))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
