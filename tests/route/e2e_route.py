#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""End-to-end tests of --fwd route: scapy pcaps in, the real binary on
net_pcap vdevs, every output frame checked against what a router must send
(MACs, TTL, header checksum recomputed by scapy, ICMP errors, fragments that
scapy reassembles, ARP), and every drop counted under its reason in the
stats file.

    e2e_route.py CASE | --list | --check-registered CASE...

meson runs one test() per case (tests/route/meson.build).
"""

import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import fwdtest as ft  # noqa: E402
from fwdtest import Fail, check, check_eq  # noqa: E402

from scapy.layers.inet import ICMP, IP, TCP, UDP, IPOption, defragment  # noqa: E402
from scapy.layers.inet6 import IPv6  # noqa: E402
from scapy.layers.l2 import ARP, Dot1Q, Ether  # noqa: E402
from scapy.packet import Raw  # noqa: E402
from scapy.utils import checksum  # noqa: E402

# ---------------------------------------------------------------- topology


def port_mac(p):
    """net_pcap port p's MAC (the PMD derives it from the port's index)."""
    return "02:70:63:61:70:%02x" % p


def port_ip(p):
    return "10.%d.0.1" % p


def nbr_ip(p):
    """The static neighbour on port p's network, a gateway for routes."""
    return "10.%d.0.2" % p


def nbr_mac(p):
    return "02:00:00:00:%02x:02" % p


def host_mac(p):
    """The sender of the crafted frames on port p."""
    return "06:00:00:00:%02x:09" % p


ALL_REASONS = None  # filled from the first stats file: every route drop reason must be there


def config(c, n_ports, routes=(), neigh=None, mtu=None, extra="", name="rt.ini"):
    """Write a route config: port p is 10.p.0.1/24; neigh defaults to one
    static neighbour per port (10.p.0.2 = nbr_mac(p)); mtu = {port: mtu}."""
    lines = ["[forward]", "fwd = route"]
    for p in range(n_ports):
        lines += ["[port %d]" % p, "ip = %s/24" % port_ip(p)]
        if mtu and p in mtu:
            lines.append("mtu = %d" % mtu[p])
    lines.append("[route]")
    lines += list(routes)
    lines.append("[neigh]")
    if neigh is None:
        neigh = {nbr_ip(p): nbr_mac(p) for p in range(n_ports)}
    lines += ["%s = %s" % kv for kv in neigh.items()]
    path = c.path(name)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n" + extra)
    return path


def run_route(c, inputs, cfg, duration="1", infinite=(), app=()):
    """Run --fwd route on len(inputs) net_pcap ports (inputs[p] = frames
    received on port p). Returns (result, outputs) with outputs[p] the frames
    port p sent. The run must succeed and leak nothing."""
    vdevs, outs = c.pcap_ports([[list(map(bytes, fr))] for fr in inputs], infinite=infinite)
    r = c.run(c.eal(vdevs), ["--config", cfg, "--duration", duration] + list(app))
    r.check_ok()
    outputs = [ft.read_pcap(o[0]) for o in outs]
    check_route_stats(r, inputs, outputs)
    return r, outputs


def check_route_stats(r, inputs, outputs):
    """What every clean route run must show: no leak, every mbuf back, port
    counters equal to the pcaps, every route reason present."""
    global ALL_REASONS
    st = r.stats
    check(st is not None, "no stats file\n" + r.describe())
    check_eq(st["mode"], "route", "mode in the stats file")
    check_eq(st["mbufs_leaked"], 0, "mbufs_leaked")
    for mp in st["mempools"]:
        check_eq(mp["available"], mp["size"], "mempool %s available at exit" % mp["name"])
    for p, frames in enumerate(inputs):
        ps = ft.port_stats(st, p)
        check_eq(ps["ipackets"], len(frames), "port %d ipackets vs its rx pcap" % p)
        check_eq(ps["ibytes"], sum(len(bytes(f)) for f in frames), "port %d ibytes" % p)
        for k in ("imissed", "ierrors", "oerrors", "rx_nombuf"):
            check_eq(ps[k], 0, "port %d %s" % (p, k))
    if outputs is not None:
        for p, frames in enumerate(outputs):
            ps = ft.port_stats(st, p)
            check_eq(ps["opackets"], len(frames), "port %d opackets vs its tx pcap" % p)
            check_eq(ps["obytes"], sum(map(len, frames)), "port %d obytes vs its tx pcap" % p)
    check("route" in st, "no 'route' member in the stats file")
    # nothing vanishes, in a worker or the slow path, and at exit nothing is
    # left in flight uncounted (held for ARP, on a ring)
    ft.check_balance(st)
    reasons = set(st["drops"])
    for want in ("not_ipv4", "ip_cksum", "martian_src", "ttl_exceeded", "arp_hold_full"):
        check(want in reasons, "drop reason %s missing from the stats file" % want)
    if ALL_REASONS is None:
        ALL_REASONS = sorted(reasons)


def check_drops(st, want):
    """The stats file's drops are exactly @want (reason -> count), others 0."""
    got = {k: v for k, v in st["drops"].items() if v}
    check_eq(got, {k: v for k, v in want.items() if v}, "drops by reason")


def slow(st):
    return st["route"]["slow_path"]


def forwarded(st):
    return sum(lc["forwarded"] for lc in st["route"]["lcores"])


# ---------------------------------------------------------------- packet checks


def ip_bytes(frame):
    """The IPv4 datagram of an Ethernet frame, cut at its total length."""
    check(len(frame) >= 34 and frame[12:14] == b"\x08\x00", "not an IPv4 frame: %s" % frame.hex())
    tot = int.from_bytes(frame[16:18], "big")
    return frame[14:14 + tot]


def check_ip_header(frame, what):
    """Header checksum right (recomputed by scapy) and the frame carries
    exactly the datagram (no padding left)."""
    ihl = (frame[14] & 0xF) * 4
    hdr = frame[14:14 + ihl]
    check(checksum(hdr) == 0, "%s: bad IPv4 header checksum %s" % (what, hdr.hex()))
    pkt = Ether(frame)
    want = pkt[IP].chksum
    del pkt[IP].chksum
    again = Ether(bytes(pkt))[IP].chksum
    check_eq(want, again, "%s: header checksum vs scapy's recomputation" % what)
    check_eq(len(frame), 14 + int.from_bytes(frame[16:18], "big"),
             "%s: frame length vs 14 + IP total length" % what)


def expect_forwarded(frame, orig, out_port, dst_mac, what):
    """@frame is @orig routed out of @out_port to @dst_mac: new MACs, TTL - 1,
    a right checksum, everything else (options, payload) untouched."""
    orig = bytes(orig)
    check_eq(ft.mac_str(frame[0:6]), dst_mac, "%s: destination MAC" % what)
    check_eq(ft.mac_str(frame[6:12]), port_mac(out_port), "%s: source MAC" % what)
    check_ip_header(frame, what)
    got, want = ip_bytes(frame), ip_bytes(orig)
    check_eq(len(got), len(want), "%s: IP length" % what)
    check_eq(got[8], want[8] - 1, "%s: TTL" % what)
    check(got[:8] == want[:8] and got[9:10] == want[9:10] and got[12:] == want[12:],
          "%s: bytes other than TTL/checksum changed\n  got  %s\n  want %s" %
          (what, got.hex(), want.hex()))


def check_icmp_error(frame, orig, in_port, typ, code, what, mtu=None):
    """@frame is a well-formed ICMP error of @typ/@code about @orig, sent back
    out of @in_port (the port's MAC and address, to the sender's MAC), quoting
    the original header and at least 8 bytes of its data, as received."""
    orig = bytes(orig)
    oip = ip_bytes(orig)
    check_eq(ft.mac_str(frame[0:6]), ft.mac_str(orig[6:12]), "%s: dst MAC = the sender's" % what)
    check_eq(ft.mac_str(frame[6:12]), port_mac(in_port), "%s: src MAC = input port's" % what)
    check_ip_header(frame, what)
    p = Ether(frame)
    ip = p[IP]
    check_eq(ip.src, port_ip(in_port), "%s: ICMP error source address" % what)
    check_eq(ip.dst, IP(oip).src, "%s: ICMP error destination" % what)
    check_eq(ip.proto, 1, "%s: protocol" % what)
    check(ip.ttl > 1, "%s: TTL %d" % (what, ip.ttl))
    check(ip.len <= 576, "%s: ICMP error of %d bytes (RFC 1812: at most 576)" % (what, ip.len))
    icmp = ip_bytes(frame)[ip.ihl * 4:]
    check_eq(checksum(icmp), 0, "%s: ICMP checksum" % what)
    check_eq((icmp[0], icmp[1]), (typ, code), "%s: ICMP type/code" % what)
    if mtu is None:
        check_eq(icmp[4:8], b"\0\0\0\0", "%s: unused word" % what)
    else:
        check_eq(int.from_bytes(icmp[6:8], "big"), mtu, "%s: next-hop MTU" % what)
        check_eq(icmp[4:6], b"\0\0", "%s: unused half word" % what)
    quote = icmp[8:]
    ohl = (oip[0] & 0xF) * 4
    check(len(quote) >= min(len(oip), ohl + 8),
          "%s: quotes %d bytes, want the %d-byte header + 8" % (what, len(quote), ohl))
    check(oip.startswith(quote), "%s: the quote is not the original datagram as received\n"
          "  quote %s\n  orig  %s" % (what, quote.hex(), oip[:len(quote)].hex()))


def check_arp_request(frame, port, target, what):
    a = Ether(frame)
    check(ARP in a, "%s: not ARP: %s" % (what, a.summary()))
    check_eq(a.dst, "ff:ff:ff:ff:ff:ff", "%s: Ethernet destination" % what)
    check_eq(a.src, port_mac(port), "%s: Ethernet source" % what)
    check_eq((a[ARP].op, a[ARP].hwsrc, a[ARP].psrc, a[ARP].pdst),
             (1, port_mac(port), port_ip(port), target), "%s: ARP fields" % what)


def udp(src, dst, seq, size=100, ttl=64, port=0, flags=0, src_mac=None, dst_mac=None, **ipkw):
    """An IPv4/UDP frame of @size bytes for port @port's router MAC, tagged."""
    ipkw.setdefault("id", seq)
    head = Ether(src=src_mac or host_mac(port), dst=dst_mac or port_mac(port)) / \
        IP(src=src, dst=dst, ttl=ttl, flags=flags, **ipkw) / UDP(sport=4000 + seq, dport=53)
    pay = ft.tag(port, 0, seq)
    pay += bytes((seq + i) & 0xFF for i in range(max(0, size - len(head) - len(pay))))
    return head / Raw(pay)


def by_tag(frames):
    """{(port, seq): frame} of tagged frames; each tag at most once."""
    d = {}
    for f in frames:
        t = ft.untag(f)
        check(t is not None, "output frame without a tag: %s" % f.hex())
        key = (t[0], t[2])
        check(key not in d, "frame %r sent twice" % (key,))
        d[key] = f
    return d


def check_order(frames, what):
    """Frames from one input port keep their order on an output port."""
    last = {}
    for f in frames:
        p, _, s = ft.untag(f)
        if s <= last.get(p, -1):
            raise Fail("%s: frame %d from port %d after %d" % (what, s, p, last[p]))
        last[p] = s


def _sum16(b):
    s = sum(int.from_bytes(b[i:i + 2], "big") for i in range(0, len(b), 2))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def _with_id(f, ident, cksum=None):
    """Frame @f with IP id @ident and a recomputed (or the given) checksum."""
    b = bytearray(bytes(f))
    b[18:20] = ident.to_bytes(2, "big")
    b[24:26] = b"\0\0"
    if cksum is None:
        cksum = ~_sum16(bytes(b[14:34])) & 0xFFFF
    b[24:26] = cksum.to_bytes(2, "big")
    return Ether(bytes(b))


def cksum_edge(seq, port, dst, out_cksum):
    """A frame whose header checksum after the TTL decrement is @out_cksum
    (0x0000 and 0xfffe/0x0001 are where a bare 'cksum + 0x100' goes wrong),
    found by choosing the IP id."""
    f = bytes(udp("10.%d.0.9" % port, dst, seq, port=port, size=80))
    for ident in range(65536):
        h = bytearray(f[14:34])
        h[4:6] = ident.to_bytes(2, "big")
        h[8] -= 1
        h[10:12] = b"\0\0"
        if (~_sum16(bytes(h))) & 0xFFFF == out_cksum:
            return _with_id(f, ident)
    raise Fail("no id gives checksum %#x" % out_cksum)


def neg_zero_cksum(seq, port, dst):
    """A frame whose header checksum is 0xffff, the other zero of one's
    complement: valid (the header sums to 0xffff), though a full
    recomputation would write 0x0000. Found by choosing the IP id."""
    f = bytes(udp("10.%d.0.9" % port, dst, seq, port=port, size=80))
    for ident in range(65536):
        h = bytearray(f[14:34])
        h[4:6] = ident.to_bytes(2, "big")
        h[10:12] = b"\0\0"
        if _sum16(bytes(h)) == 0xFFFF:
            return _with_id(f, ident, 0xFFFF)
    raise Fail("no id gives a header sum of 0xffff")


# ---------------------------------------------------------------- forwarding


def check_routed(outputs, inputs, expect, n_ports):
    """expect[(in_port, seq)] = (out_port, dst_mac) for every input frame;
    each output port sends exactly its frames, each routed right, in order."""
    origs = {}
    for p, frames in enumerate(inputs):
        for f in frames:
            t = ft.untag(bytes(f))
            origs[(t[0], t[2])] = f
    check_eq(sorted(expect), sorted(origs), "test bug: every input needs an expectation")
    for out in range(n_ports):
        got = by_tag(outputs[out])
        want = sorted(k for k, v in expect.items() if v[0] == out)
        check_eq(sorted(got), want, "port %d: which frames came out" % out)
        for k, f in got.items():
            expect_forwarded(f, origs[k], out, expect[k][1], "port %d frame %r" % (out, k))
        check_order(outputs[out], "port %d" % out)


def case_fwd_2port(c):
    """Both directions, static and default routes, a connected host, the
    hairpin back out of the input port, sizes 54..1514, TCP/ICMP, IP options,
    Ethernet padding, and the checksum edges of the TTL update."""
    cfg = config(c, 2, ["route = 172.16.0.0/16 via 10.1.0.2", "route = 0.0.0.0/0 via 10.0.0.2"],
                 neigh={nbr_ip(0): nbr_mac(0), nbr_ip(1): nbr_mac(1),
                        "10.1.0.7": "02:00:00:00:01:07"})
    to1, to0 = (1, nbr_mac(1)), (0, nbr_mac(0))
    in0, in1, expect = [], [], {}

    def add(lst, port, f, where):
        f = Ether(bytes(f))
        lst.append(f)
        t = ft.untag(bytes(f))
        expect[(port, t[2])] = where

    s0 = "10.0.0.9"
    for i, size in enumerate([60, 64, 128, 333, 1000, 1514]):
        add(in0, 0, udp(s0, "172.16.%d.1" % i, i, size=size), to1)
    add(in0, 0, udp(s0, "172.16.9.9", 6, ttl=2), to1)    # leaves with TTL 1
    add(in0, 0, udp(s0, "172.16.9.9", 7, ttl=255), to1)
    tcp = Ether(src=host_mac(0), dst=port_mac(0)) / IP(src=s0, dst="172.16.3.3", id=8) / \
        TCP(sport=1234, dport=80, flags="PA") / Raw(ft.tag(0, 0, 8) + b"x" * 40)
    add(in0, 0, tcp, to1)
    ping = Ether(src=host_mac(0), dst=port_mac(0)) / IP(src=s0, dst="172.16.3.4", id=9) / \
        ICMP(type=8, id=7, seq=9) / Raw(ft.tag(0, 0, 9) + b"p" * 20)
    add(in0, 0, ping, to1)
    # options pass through untouched: record route (not filled in) and NOPs
    opts = [IPOption(b"\x07\x07\x04" + b"\0" * 4), IPOption(b"\x01"), IPOption(b"\x00")]
    add(in0, 0, udp(s0, "172.16.4.4", 10, size=120, options=opts), to1)
    add(in0, 0, udp(s0, "10.1.0.7", 11), (1, "02:00:00:00:01:07"))  # connected, static neigh
    add(in0, 0, udp(s0, "8.8.8.8", 12), to0)                         # default route, hairpin
    # 54-byte datagram padded to 60 by "Ethernet": the padding must not be sent on
    pad = Ether(bytes(udp(s0, "172.16.5.5", 13, size=54)) + b"\0" * 6)
    add(in0, 0, pad, to1)
    add(in0, 0, cksum_edge(14, 0, "172.16.6.6", 0x0000), to1)
    add(in0, 0, cksum_edge(15, 0, "172.16.6.7", 0x0001), to1)
    add(in0, 0, cksum_edge(16, 0, "172.16.6.8", 0xFFFE), to1)
    add(in0, 0, neg_zero_cksum(17, 0, "172.16.6.9"), to1)
    add(in0, 0, udp(s0, "172.16.7.7", 18, tos=0xB8, flags="DF", size=200), to1)
    s1 = "10.1.0.9"
    for i in range(8):
        add(in1, 1, udp(s1, "192.0.2.%d" % (i + 1), i, port=1, size=64 + 50 * i), to0)
    add(in1, 1, udp(s1, nbr_ip(0), 8, port=1), to0)
    add(in1, 1, udp(s1, "172.16.0.1", 9, port=1), to1)  # hairpin on port 1
    r, outs = run_route(c, [in0, in1], cfg)
    check_routed(outs, [in0, in1], expect, 2)
    check_drops(r.stats, {})
    check_eq(forwarded(r.stats), len(in0) + len(in1), "frames the fast path forwarded")
    check_eq(slow(r.stats)["ctl_rx"], 0, "frames handed to the slow path")


def case_fwd_4port(c):
    """Four ports, one worker: longest prefix match (/16, /24, /32, default,
    dev), every port to every other, MACs of the right port and neighbour."""
    cfg = config(c, 4, ["route = 172.16.0.0/16 via 10.1.0.2", "route = 172.16.5.0/24 via 10.2.0.2",
                        "route = 172.16.5.7 via 10.3.0.2",
                        "route = 172.17.0.0/16 via 10.3.0.2 dev 3",
                        "route = 0.0.0.0/0 via 10.0.0.2"])
    dests = [("172.16.9.9", 1), ("172.16.5.1", 2), ("172.16.5.7", 3), ("172.16.5.8", 2),
             ("172.17.1.1", 3), ("9.9.9.9", 0), ("172.16.4.255", 1), ("172.16.6.0", 1)]
    dests += [(nbr_ip(p), p) for p in range(4)]
    inputs, expect = [], {}
    for p in range(4):
        frames = []
        for i, (dst, out) in enumerate(dests * 2):
            frames.append(udp("10.%d.0.9" % p, dst, i, port=p, size=60 + 37 * i))
            expect[(p, i)] = (out, nbr_mac(out))
        inputs.append(frames)
    r, outs = run_route(c, inputs, cfg)
    check_routed(outs, inputs, expect, 4)
    check_drops(r.stats, {})
    check_eq(forwarded(r.stats), 4 * len(dests) * 2, "frames the fast path forwarded")


# ---------------------------------------------------------------- ICMP errors


def case_icmp_errors(c):
    """Time exceeded, net and host unreachable, fragmentation needed with the
    next-hop MTU: well-formed, back out of the input port; none about an ICMP
    error, a non-first fragment or a blackholed packet."""
    cfg = config(c, 2, ["route = 172.16.0.0/16 via 10.1.0.2", "reject = 198.51.100.0/24",
                        "blackhole = 192.0.2.0/24"], mtu={0: 1100, 1: 1000})
    s0 = "10.0.0.9"
    err_about = Ether(src=host_mac(0), dst=port_mac(0)) / IP(src=s0, dst="172.16.1.1", ttl=1) / \
        ICMP(type=3, code=1) / IP(src="172.16.1.1", dst=s0) / UDP(sport=1, dport=2)
    in0 = [
        udp(s0, "172.16.1.1", 0, ttl=1),                       # 11/0
        udp(s0, "172.16.1.1", 1, ttl=0),                       # 11/0
        udp(s0, "203.0.113.5", 2),                             # 3/0
        udp(s0, "198.51.100.7", 3),                            # 3/1
        udp(s0, "172.16.1.1", 4, size=1414, flags="DF"),       # 3/4, MTU 1000
        udp(s0, "192.0.2.1", 5),                               # blackhole: silent
        err_about,                                             # about an error: silent
        udp(s0, "172.16.1.1", 7, ttl=1, frag=100),             # not the first fragment: silent
        Ether(src=host_mac(0), dst=port_mac(0)) / IP(src=s0, dst="172.16.2.2", ttl=1, id=8) /
        ICMP(type=8, id=1, seq=8) / Raw(ft.tag(0, 0, 8) + b"q" * 30),  # 11/0 about a query
        udp(s0, "172.16.1.1", 9, ttl=1, size=150,
            options=[IPOption(b"\x07\x0b\x04" + b"\0" * 8), IPOption(b"\x00")]),  # 11/0 + options
        udp(s0, "172.16.1.1", 10, size=999 + 14, flags="DF"),  # exactly 999: forwarded
        udp(s0, "172.16.1.1", 11, size=1014, flags="DF", ttl=1),  # TTL first: 11/0
    ]
    s1 = "10.1.0.9"
    in1 = [
        udp(s1, "10.0.0.5", 0, port=1, ttl=1),                  # connected network: 11/0
        udp(s1, "203.0.113.9", 1, port=1),                      # 3/0
        udp(s1, nbr_ip(0), 2, port=1, size=1214, flags="DF"),   # 3/4, MTU 1100
        udp(s1, nbr_ip(0), 3, port=1, size=1114, flags="DF"),   # 1100 bytes: forwarded
    ]
    r, outs = run_route(c, [in0, in1], cfg)
    errs0 = [(0, 11, 0, None), (1, 11, 0, None), (2, 3, 0, None), (3, 3, 1, None),
             (4, 3, 4, 1000), (8, 11, 0, None), (9, 11, 0, None), (11, 11, 0, None)]
    errs1 = [(0, 11, 0, None), (1, 3, 0, None), (2, 3, 4, 1100)]
    for port, inp, errs, fwd_in in ((0, in0, errs0, [(1, 3)]), (1, in1, errs1, [(0, 10)])):
        icmp = [f for f in outs[port]
                if Ether(f).haslayer(ICMP) and Ether(f)[IP].src == port_ip(port)]
        other = [f for f in outs[port] if f not in icmp]
        check_eq(len(icmp), len(errs), "ICMP errors out of port %d" % port)
        for f, (seq, typ, code, mtu) in zip(icmp, errs):
            check_icmp_error(f, inp[seq], port, typ, code, "port %d: error about frame %d" %
                             (port, seq), mtu=mtu)
        # the frame the other port forwarded to this one
        check_eq(len(other), 1, "forwarded frames out of port %d" % port)
        src_port, seq = fwd_in[0]
        expect_forwarded(other[0], (in0, in1)[src_port][seq], port, nbr_mac(port),
                         "port %d forwarded frame" % port)
    check_drops(r.stats, {"ttl_exceeded": 8, "no_route": 2, "reject": 1, "frag_needed": 2,
                          "blackhole": 1})
    sp = slow(r.stats)
    check_eq((sp["icmp_errors"], sp["icmp_suppressed"], sp["icmp_ratelimited"]), (11, 2, 0),
             "ICMP errors sent, suppressed, rate-limited")


# ---------------------------------------------------------------- fragmentation


def check_fragments(frags, orig, out_port, mtu, what, more_after=False):
    """@frags (in order) are @orig cut for @mtu: each routed like a frame
    (MACs, TTL - 1, checksum), offsets contiguous, MF on all but the last,
    copied options on every fragment and the rest on the first only; scapy
    reassembles them into the original datagram."""
    oip = IP(ip_bytes(bytes(orig)))
    check(len(frags) >= 2, "%s: %d fragments" % (what, len(frags)))
    off = 0
    copied = b"".join(bytes(o) for o in oip.options if bytes(o)[0] & 0x80)
    for i, f in enumerate(frags):
        w = "%s fragment %d" % (what, i)
        check_eq(ft.mac_str(f[0:6]), nbr_mac(out_port), "%s: destination MAC" % w)
        check_eq(ft.mac_str(f[6:12]), port_mac(out_port), "%s: source MAC" % w)
        check_ip_header(f, w)
        ip = IP(ip_bytes(f))
        check(ip.len <= mtu, "%s: %d bytes for MTU %d" % (w, ip.len, mtu))
        check_eq((ip.src, ip.dst, ip.id, ip.proto, ip.tos, ip.ttl),
                 (oip.src, oip.dst, oip.id, oip.proto, oip.tos, oip.ttl - 1), "%s: header" % w)
        check_eq(ip.frag * 8, off + oip.frag * 8, "%s: offset" % w)
        last = i == len(frags) - 1
        check_eq(bool(ip.flags.MF), not last or more_after, "%s: MF" % w)
        check(not ip.flags.DF, "%s: DF set" % w)
        if not last:
            check_eq((ip.len - ip.ihl * 4) % 8, 0, "%s: payload a multiple of 8" % w)
        opts = ip_bytes(f)[20:ip.ihl * 4]
        if i == 0:
            check_eq(opts, ip_bytes(bytes(orig))[20:oip.ihl * 4], "%s: options" % w)
        else:
            check_eq(opts.rstrip(b"\0"), copied, "%s: only the copied options" % w)
        off += ip.len - ip.ihl * 4
    check_eq(off, oip.len - oip.ihl * 4, "%s: payload bytes over all fragments" % what)
    if more_after:
        return
    whole = defragment([Ether(f) for f in frags])
    check_eq(len(whole), 1, "%s: scapy reassembles one datagram" % what)
    got = whole[0][IP]
    check_eq(bytes(got.payload), bytes(oip.payload), "%s: reassembled payload" % what)
    check_eq((got.src, got.dst, got.id, got.ttl), (oip.src, oip.dst, oip.id, oip.ttl - 1),
             "%s: reassembled header" % what)


def case_fragment(c):
    """Larger than the output MTU with DF clear: fragments that scapy
    reassembles to the original, options copied by their copy bit."""
    cfg = config(c, 2, ["route = 172.16.0.0/16 via 10.1.0.2"], mtu={1: 576})
    s0 = "10.0.0.9"
    stream_rr = [IPOption(b"\x88\x04\x12\x34"), IPOption(b"\x07\x07\x04" + b"\0" * 4),
                 IPOption(b"\x01")]  # stream id (copied), record route (not), NOP
    in0 = [
        udp(s0, "172.16.1.1", 0, size=1414),             # 1400-byte datagram
        udp(s0, "172.16.1.1", 1, size=576 + 14),         # exactly the MTU: not cut
        udp(s0, "172.16.1.1", 2, size=577 + 14),         # one byte over
        udp(s0, "172.16.1.1", 3, size=1200, options=stream_rr),
        udp(s0, "172.16.1.1", 4, size=1014, flags="MF"),  # the first fragment of something
        Ether(src=host_mac(0), dst=port_mac(0)) / IP(src=s0, dst="172.16.2.2", id=5) /
        TCP(sport=5, dport=80, flags="A") / Raw(ft.tag(0, 0, 5) + bytes(range(256)) * 6),
    ]
    in0 = [Ether(bytes(f)) for f in in0]
    r, outs = run_route(c, [in0, []], cfg)
    check_eq(outs[0], [], "nothing back out of port 0")
    groups = {}
    for f in outs[1]:
        groups.setdefault(IP(ip_bytes(f)).id, []).append(f)
    check_eq(sorted(groups), list(range(6)), "IP ids out of port 1")
    expect_forwarded(outs[1][[IP(ip_bytes(f)).id for f in outs[1]].index(1)], in0[1], 1,
                     nbr_mac(1), "the 576-byte datagram")
    check_eq(len(groups[1]), 1, "the 576-byte datagram is not cut")
    for i in (0, 2, 3, 4, 5):
        check_fragments(groups[i], in0[i], 1, 576, "datagram %d" % i, more_after=(i == 4))
    check_drops(r.stats, {})
    sp = slow(r.stats)
    check_eq(sp["fragmented"], 5, "datagrams fragmented")
    check_eq(sp["fragments"], sum(len(groups[i]) for i in (0, 2, 3, 4, 5)), "fragments")


# ---------------------------------------------------------------- ARP


def arp_reply(port, ip, mac, to_ip=None):
    return Ether(src=mac, dst=port_mac(port)) / ARP(op=2, hwsrc=mac, psrc=ip, hwdst=port_mac(port),
                                                     pdst=to_ip or port_ip(port))


def arp_request(port, ip, mac, target, **kw):
    return Ether(src=mac, dst="ff:ff:ff:ff:ff:ff") / \
        ARP(op=1, hwsrc=mac, psrc=ip, pdst=target, **kw)


def case_arp_resolve(c):
    """Next hops without a static neighbour: an ARP request each, the packets
    held, and released in their order when the reply comes (the replies sit in
    port 1's input, which the worker polls after port 0's in the same pass)."""
    cfg = config(c, 2, ["route = 172.16.0.0/16 via 10.1.0.2"], neigh={nbr_ip(0): nbr_mac(0)})
    gw_mac, host7_mac = "02:00:00:00:01:22", "02:00:00:00:01:77"
    s0 = "10.0.0.9"
    in0 = [udp(s0, "172.16.%d.1" % i, i, size=60 + 40 * i) for i in range(10)]
    in0 += [udp(s0, "10.1.0.7", 10 + i) for i in range(3)]  # on-link host, ARP for itself
    in1 = [arp_reply(1, nbr_ip(1), gw_mac), arp_reply(1, "10.1.0.7", host7_mac)]
    r, outs = run_route(c, [in0, in1], cfg)
    o = outs[1]
    check_eq(len(o), 2 + 13, "frames out of port 1 (2 ARP requests + 13 released)")
    check_arp_request(o[0], 1, nbr_ip(1), "first frame")
    check_arp_request(o[1], 1, "10.1.0.7", "second frame")
    for i in range(13):
        expect_forwarded(o[2 + i], in0[i], 1, gw_mac if i < 10 else host7_mac,
                         "released frame %d" % i)
    check_eq([ft.untag(f)[2] for f in o[2:]], list(range(13)), "released in arrival order")
    check_eq(outs[0], [], "nothing out of port 0")
    check_drops(r.stats, {})
    sp = slow(r.stats)
    check_eq((sp["arp_requests"], sp["arp_held"], sp["arp_released"], sp["arp_resolved"]),
             (2, 13, 13, 2), "arp_requests, arp_held, arp_released, arp_resolved")
    check_eq(sp["arp_in"], 2, "arp_in (the two replies)")


def case_arp_hold_limit(c):
    """A next hop that never answers: 64 packets held, the rest dropped as
    arp_hold_full, three requests a second apart, then the held ones dropped
    as arp_failed."""
    cfg = config(c, 2, ["route = 172.16.0.0/16 via 10.1.0.2"], neigh={})
    in0 = [udp("10.0.0.9", "172.16.0.1", i) for i in range(70)]
    r, outs = run_route(c, [in0, []], cfg, duration="3.6")
    check_eq(len(outs[1]), 3, "ARP requests out of port 1 (and nothing else)")
    for i, f in enumerate(outs[1]):
        check_arp_request(f, 1, nbr_ip(1), "request %d" % i)
    check_eq(outs[0], [], "nothing out of port 0")
    check_drops(r.stats, {"arp_hold_full": 6, "arp_failed": 64})
    check_eq(slow(r.stats)["arp_held"], 64, "arp_held")


def case_arp_held_at_exit(c):
    """Frames still held for a next hop that never answered when the run
    ends are counted (arp_held_at_exit), not freed silently: at exit rx =
    forwarded + drops, with nothing in flight (config/router.ini's default
    route, 100 frames, 1 s)."""
    cfg = config(c, 2, ["route = 0.0.0.0/0 via 10.0.0.254"], neigh={})
    in0 = [udp("10.0.0.9", "198.18.0.%d" % (i + 1), i) for i in range(100)]
    r, outs = run_route(c, [in0, []], cfg, duration="1")
    # the ARP request retransmitted after 1 s may be left on the ring to the sending worker
    queued = r.stats["drops"]["ctl_queued_at_exit"]
    check(queued <= 1, "ctl_queued_at_exit %d: only a retransmitted request may be" % queued)
    check_drops(r.stats, {"arp_hold_full": 36, "arp_held_at_exit": 64,
                          "ctl_queued_at_exit": queued})
    check_eq(slow(r.stats)["arp_held"], 64, "arp_held")
    check_eq(r.stats["route"]["in_flight"], {"queued": 0, "held": 0, "tx_ring": 0},
             "in flight at exit")
    check("arp_held_at_exit 64" in r.stdout, "the final stats name the held frames\n" +
          r.describe())
    check(all(ARP in Ether(f) for f in outs[0]), "only ARP requests out of port 0")


def case_stop_in_flight(c):
    """At a shell stop the held frames are still in flight and shown as such
    (the balance holds with them); clear fwd stats clears the slow path's
    counters and drops too (ttl_exceeded, icmp_errors), not just the lcores';
    the session still balances at quit."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "shell"))
    from run import Shell  # noqa: E402
    cfg = config(c, 2, ["route = 172.16.0.0/16 via 10.1.0.2", "route = 0.0.0.0/0 via 10.0.0.254"],
                 neigh={nbr_ip(1): nbr_mac(1)})
    frames = [udp("10.0.0.9", "198.18.0.%d" % (i + 1), i) for i in range(20)]
    frames += [udp("10.0.0.9", "172.16.0.1", 20 + i, ttl=1) for i in range(10)]
    inp = ft.write_pcap(c.path("in0.pcap"), [bytes(f) for f in frames])
    empty = ft.write_pcap(c.path("empty.pcap"), [])
    vdevs = ["--vdev", "net_pcap0,rx_pcap=%s" % inp, "--vdev", "net_pcap1,rx_pcap=%s" % empty]
    sh = Shell(c, c.eal(vdevs), ["--config", cfg])
    sh.cmd("start")
    time.sleep(0.5)
    sh.cmd("stop")
    out = sh.cmd("show fwd stats")
    check("route in flight: to slow path 0 held 20 " in out, "20 frames held at stop:\n" + out)
    check("ttl_exceeded 10" in out, "ttl_exceeded before the clear:\n" + out)
    sh.cmd("clear fwd stats")
    out = sh.cmd("show fwd stats")
    # (an ARP retransmission may come after the clear: ctl_tx is not checked)
    check("ttl_exceeded" not in out and "route slow path: ctl_rx 0 " in out and
          "icmp_errors 0 " in out and "arp_held 0 " in out,
          "clear fwd stats leaves the slow path's counters:\n" + out)
    check("held 20 " in out, "the held frames are state, not counters: still there\n" + out)
    st = sh.quit()  # checks the balance, with what was in flight at the clear
    check_eq(st["route"]["in_flight_at_clear"]["held"], 20, "held at the clear")
    # held until the exit, or until the third unanswered request (3 s) on a slow machine
    check_eq(st["drops"]["arp_held_at_exit"] + st["drops"]["arp_failed"], 20,
             "arp_held_at_exit + arp_failed")


def case_arp_answer(c):
    """ARP requests for the port's address answered, the requester learnt
    (a packet to it goes out without an ARP request); anything else counted
    as arp_bad."""
    cfg = config(c, 2, [], neigh={})
    me = host_mac(0)
    in0 = [
        arp_request(0, "10.0.0.9", me, port_ip(0)),                    # answered
        arp_request(0, "10.0.0.8", "06:00:00:00:00:08", "10.0.0.77"),  # not ours: arp_bad
        arp_request(0, "10.0.0.8", "06:00:00:00:00:08", port_ip(1)),   # other port's: arp_bad
        arp_request(0, "10.0.0.9", me, port_ip(0)),                    # again: answered
        arp_request(0, "10.0.0.8", "06:00:00:00:00:08", port_ip(0), hwlen=8),  # arp_bad
        Ether(src=me, dst="ff:ff:ff:ff:ff:ff", type=0x0806) / Raw(b"\x00\x01\x08\x00"),  # arp_bad
        arp_request(0, "10.0.0.8", "01:00:5e:00:00:01", port_ip(0)),  # group sender: arp_bad
        arp_request(0, "10.0.0.9", me, "10.0.0.77"),  # known sender, other target: refresh
    ]
    in1 = [udp("10.1.0.9", "10.0.0.9", 0, port=1)]
    r, outs = run_route(c, [in0, in1], cfg)
    o = outs[0]
    check_eq(len(o), 3, "frames out of port 0: two ARP replies, one forwarded")
    # The replies come from the slow path and the forwarded frame from the worker's fast path
    # once the requester is learnt: under load the forwarded frame can overtake the second reply.
    replies = [f for f in o if ARP in Ether(f)]
    others = [f for f in o if ARP not in Ether(f)]
    check_eq(len(replies), 2, "ARP replies out of port 0")
    for i in (0, 1):
        a = Ether(replies[i])
        check_eq((a.dst, a.src, a.type), (me, port_mac(0), 0x0806), "reply %d: Ethernet" % i)
        check_eq((a[ARP].hwtype, a[ARP].ptype, a[ARP].hwlen, a[ARP].plen, a[ARP].op),
                 (1, 0x0800, 6, 4, 2), "reply %d: ARP header" % i)
        check_eq((a[ARP].hwsrc, a[ARP].psrc, a[ARP].hwdst, a[ARP].pdst),
                 (port_mac(0), port_ip(0), me, "10.0.0.9"), "reply %d: addresses" % i)
    expect_forwarded(others[0], in1[0], 0, me, "the packet to the learnt neighbour")
    check_eq(outs[1], [], "nothing out of port 1")
    check_drops(r.stats, {"arp_bad": 5})
    sp = slow(r.stats)
    check_eq((sp["arp_replies"], sp["arp_requests"]), (2, 0), "arp_replies, arp_requests")
    # every ARP frame ends counted: used (two answered, one refresh) or arp_bad
    check_eq(sp["arp_in"], 3, "arp_in")


# ---------------------------------------------------------------- ping


def echo(port, dst, seq, size=64, **ipkw):
    ipkw.setdefault("src", "10.%d.0.9" % port)
    return Ether(src=host_mac(port), dst=port_mac(port)) / \
        IP(dst=dst, id=seq, **ipkw) / ICMP(type=8, id=0x4242, seq=seq) / \
        Raw(ft.tag(port, 0, seq) + bytes((i * 7) & 0xFF for i in range(max(0, size - 54))))


def case_ping(c):
    """ICMP echo to the router's addresses answered out of the input port;
    echo to a subnet broadcast, a bad ICMP checksum, UDP to the router: not."""
    cfg = config(c, 2, [])
    bad = echo(0, port_ip(0), 3)
    bad[ICMP].chksum = 0x1234
    in0 = [
        echo(0, port_ip(0), 0),
        echo(0, port_ip(1), 1),  # the router's other address
        echo(0, port_ip(0), 2, options=[IPOption(b"\x07\x07\x04" + b"\0" * 4), IPOption(b"\x00")]),
        bad,
        udp("10.0.0.9", port_ip(0), 4),
        echo(0, "10.0.0.255", 5),
        echo(0, port_ip(0), 6, ttl=1),
        echo(0, port_ip(0), 7, size=1400),
    ]
    in0 = [Ether(bytes(f)) for f in in0]
    r, outs = run_route(c, [in0, []], cfg)
    o = outs[0]
    answered = [0, 1, 2, 6, 7]
    check_eq([ft.untag(f)[2] for f in o], answered, "requests answered, in order")
    for f, seq in zip(o, answered):
        req = in0[seq]
        w = "reply to %d" % seq
        check_eq((ft.mac_str(f[0:6]), ft.mac_str(f[6:12])), (host_mac(0), port_mac(0)),
                 "%s: MACs" % w)
        check_ip_header(f, w)
        ip = Ether(f)[IP]
        check_eq((ip.src, ip.dst, ip.ihl, ip.proto), (req[IP].dst, req[IP].src, 5, 1),
                 "%s: IP header" % w)
        check(ip.ttl > 1, "%s: TTL %d" % (w, ip.ttl))
        icmp = ip_bytes(f)[20:]
        check_eq(checksum(icmp), 0, "%s: ICMP checksum" % w)
        check_eq((icmp[0], icmp[1]), (0, 0), "%s: type/code" % w)
        check_eq(icmp[4:], bytes(req[ICMP])[4:], "%s: id, seq and data" % w)
    check_eq(outs[1], [], "nothing out of port 1")
    check_drops(r.stats, {"local_other": 3})
    check_eq(slow(r.stats)["echo_replies"], 5, "echo_replies")


def case_icmp_no_bcast_src(c):
    """No ICMP error, nor echo reply, to a source that names no single host
    (RFC 1812 4.3.2.7): a connected network's broadcast or network address
    (the fast path cannot know them: the table does). Every generator: time
    exceeded, net and host unreachable, fragmentation needed. The same
    frames from a host get their error."""
    cfg = config(c, 2, ["route = 172.16.0.0/16 via 10.1.0.2", "reject = 198.51.100.0/24"],
                 mtu={1: 576})
    frames, n = [], 0
    for src in ("10.0.0.255", "10.0.0.0", "10.1.0.255", "10.0.0.9"):
        frames += [
            udp(src, "172.16.1.1", n, ttl=1),                         # 11/0
            udp(src, "203.0.113.5", n + 1),                           # 3/0
            udp(src, "198.51.100.7", n + 2),                          # 3/1
            udp(src, "172.16.1.1", n + 3, size=1014, flags="DF"),     # 3/4
            echo(0, port_ip(0), n + 4, src=src),                      # echo reply
        ]
        n += 5
    frames = [Ether(bytes(f)) for f in frames]
    r, outs = run_route(c, [frames, []], cfg)
    got = [Ether(f) for f in outs[0]]
    check_eq(sorted(set(p[IP].dst for p in got)), ["10.0.0.9"],
             "ICMP errors and echo replies only to the host")
    check_eq(len(got), 5, "four errors and one echo reply to the host")
    sp = slow(r.stats)
    check_eq((sp["icmp_errors"], sp["icmp_suppressed"], sp["echo_replies"]), (4, 12, 1),
             "errors sent, suppressed, echo replies")
    check_drops(r.stats, {"ttl_exceeded": 4, "no_route": 4, "reject": 4, "frag_needed": 4,
                          "martian_src": 3})


def padded(f, pad):
    """Frame @f with @pad bytes of L2 padding after its datagram."""
    return Ether(bytes(f) + bytes((i * 13) & 0xFF for i in range(pad)))


def case_padding_multiseg(c):
    """A valid datagram with L2 padding is forwarded without it, however
    long the padding: 1400 bytes (in the last segment) or 5000 (over more
    segments of the mbuf chain net_pcap builds for a 5 kB frame); a
    datagram that fills a multi-segment frame goes unchanged."""
    cfg = config(c, 2, ["route = 172.16.0.0/16 via 10.1.0.2"], mtu={1: 9000})
    s0 = "10.0.0.9"
    in0 = [
        padded(udp(s0, "172.16.0.1", 0, size=100), 1400),
        padded(udp(s0, "172.16.0.1", 1, size=100), 5000),
        padded(udp(s0, "172.16.0.1", 2, size=3000), 3000),   # ends in the 2nd segment
        padded(udp(s0, "172.16.0.1", 3, size=4110), 2),      # ends 2 bytes before the chain's end
        udp(s0, "172.16.0.1", 4, size=6000),                  # no padding, three segments
        padded(udp(s0, "172.16.0.1", 5, size=60), 4),
    ]
    r, outs = run_route(c, [in0, []], cfg)
    check_routed(outs, [in0, []], {(0, i): (1, nbr_mac(1)) for i in range(len(in0))}, 2)
    check_drops(r.stats, {})


def case_ping_multiseg(c):
    """An echo request larger than an mbuf (a chain of segments) is
    answered: in one frame where the port's MTU allows it, in fragments
    (DF clear) that scapy reassembles where it does not; with options, they
    are dropped from the reply as for a one-segment request."""
    cfg = config(c, 2, [], mtu={1: 9000})
    opts = [IPOption(b"\x07\x07\x04" + b"\0" * 4), IPOption(b"\x00")]
    in0 = [echo(0, port_ip(0), 0, size=3014), echo(0, port_ip(0), 1, size=6014, options=opts)]
    in1 = [echo(1, port_ip(1), 0, size=3014), echo(1, port_ip(1), 1, size=6014, options=opts)]
    in0, in1 = [Ether(bytes(f)) for f in in0], [Ether(bytes(f)) for f in in1]
    r, outs = run_route(c, [in0, in1], cfg)
    # port 0: MTU 1500, replies in fragments
    whole = defragment([Ether(f) for f in outs[0]])
    check_eq(len(whole), 2, "port 0: the two replies reassembled")
    for f in outs[0]:
        check_ip_header(f, "port 0 fragment")
        check(len(f) - 14 <= 1500, "port 0: a %d-byte fragment for MTU 1500" % (len(f) - 14))
    check(len(outs[0]) >= 2 + 5, "port 0: %d fragments" % len(outs[0]))
    replies = [(0, p) for p in sorted(whole, key=lambda p: p[IP].id)]
    # port 1: MTU 9000, one frame each (sent as the chain it is)
    check_eq(len(outs[1]), 2, "port 1: two replies, not fragmented")
    replies += [(1, Ether(f)) for f in outs[1]]
    for port, rep in replies:
        req = (in0, in1)[port][rep[IP].id]
        w = "port %d reply to %d" % (port, rep[IP].id)
        check_eq((rep[IP].src, rep[IP].dst, rep[IP].ihl, rep[IP].flags.MF),
                 (req[IP].dst, req[IP].src, 5, 0), "%s: IP header" % w)
        icmp = bytes(rep[IP].payload)
        check_eq(checksum(icmp), 0, "%s: ICMP checksum" % w)
        check_eq(icmp[0], 0, "%s: type" % w)
        check_eq(icmp[4:], bytes(req[ICMP])[4:], "%s: id, seq and data" % w)
    sp = slow(r.stats)
    check_eq((sp["echo_replies"], sp["fragmented"]), (4, 2), "echo_replies, fragmented")
    check_drops(r.stats, {})


# ---------------------------------------------------------------- malformed input


def raw_ip(frame_bytes, patch):
    """Patch bytes of a frame: patch = {offset: bytes}."""
    b = bytearray(frame_bytes)
    for off, v in patch.items():
        b[off:off + len(v)] = v
    return bytes(b)


def fix_cksum(b):
    """Recompute the IPv4 header checksum of frame bytes @b after a patch."""
    b = bytearray(b)
    ihl = (b[14] & 0xF) * 4
    b[24:26] = b"\0\0"
    b[24:26] = checksum(bytes(b[14:14 + ihl])).to_bytes(2, "big")
    return bytes(b)


def corpus():
    """[(reason, frame bytes)]: each frame must be dropped under its reason."""
    good = bytes(udp("10.0.0.9", "172.16.1.1", 0, size=100))
    hdr = lambda **kw: bytes(Ether(src=host_mac(0), dst=port_mac(0)) /
                             IP(**dict(dict(src="10.0.0.9", dst="172.16.1.1"), **kw)) /
                             UDP(sport=1, dport=2) / Raw(b"m" * 40))
    c = [
        ("ip_truncated", good[:10]),                      # not even an Ethernet header
        ("ip_truncated", good[:14]),
        ("ip_truncated", good[:33]),                      # one byte short of an IP header
        ("ip_version", fix_cksum(raw_ip(good, {14: b"\x65"}))),
        ("ip_version", fix_cksum(raw_ip(good, {14: b"\x55"}))),
        ("ip_ihl", fix_cksum(raw_ip(good, {14: b"\x44"}))),
        ("ip_ihl", raw_ip(good, {14: b"\x40"})),
        ("ip_ihl", fix_cksum(raw_ip(good, {14: b"\x4f"}))[:14 + 56]),  # 60-byte header, 56 there
        ("ip_len", fix_cksum(raw_ip(good, {16: (19).to_bytes(2, "big")}))),
        ("ip_len", fix_cksum(raw_ip(good, {16: (0).to_bytes(2, "big")}))),
        ("ip_len", fix_cksum(raw_ip(good, {16: (87).to_bytes(2, "big")}))),  # frame has 86
        ("ip_len", fix_cksum(raw_ip(good, {16: (65535).to_bytes(2, "big")}))),
        ("ip_cksum", raw_ip(good, {24: b"\x12\x34"})),
        ("ip_cksum", raw_ip(good, {22: b"\x05"})),  # TTL changed, checksum not
        ("ip_cksum", raw_ip(good, {24: b"\x00\x00"})),
        ("martian_src", hdr(src="0.1.2.3")),
        ("martian_src", hdr(src="0.0.0.0")),
        ("martian_src", hdr(src="127.0.0.1")),
        ("martian_src", hdr(src="224.0.0.1")),
        ("martian_src", hdr(src="240.0.0.1")),
        ("martian_src", hdr(src="255.255.255.255")),
        ("martian_dst", hdr(dst="0.0.0.0")),
        ("martian_dst", hdr(dst="0.1.2.3")),
        ("martian_dst", hdr(dst="127.0.0.1")),
        ("mcast_dst", hdr(dst="224.0.0.5")),
        ("mcast_dst", hdr(dst="239.1.1.1")),
        ("mcast_dst", hdr(dst="240.0.0.1")),
        ("mcast_dst", hdr(dst="255.255.255.255")),
        ("not_ipv4", bytes(Ether(src=host_mac(0), dst=port_mac(0)) /
                           IPv6(src="2001:db8::1", dst="2001:db8::2") / UDP())),
        ("not_ipv4", bytes(Ether(src=host_mac(0), dst=port_mac(0)) / Dot1Q(vlan=5) /
                           IP(src="10.0.0.9", dst="172.16.1.1") / UDP())),
        ("not_ipv4", bytes(Ether(src=host_mac(0), dst=port_mac(0), type=0x88CC) / Raw(b"\0" * 46))),
        ("not_ipv4", bytes(Ether(src=host_mac(0), dst=port_mac(0), type=0x1234) / Raw(b"\0" * 46))),
        ("l2_other_host", raw_ip(good, {0: ft.mac_bytes("02:70:63:61:70:07")})),
        ("l2_other_host", raw_ip(good, {0: ft.mac_bytes("02:00:00:00:00:99")})),
        ("l2_bcast_fwd", raw_ip(good, {0: b"\xff" * 6})),
        ("l2_bcast_fwd", raw_ip(good, {0: ft.mac_bytes("01:00:5e:00:00:01")})),
        ("l2_bcast_fwd", raw_ip(bytes(udp("10.0.0.9", "203.0.113.1", 1)), {0: b"\xff" * 6})),
        ("blackhole", bytes(udp("10.0.0.9", "192.0.2.1", 2))),
    ]
    return c


def case_malformed(c):
    """Every frame of a malformed corpus dropped and counted under its own
    reason; nothing sent, no ICMP error about any of them, nothing leaked."""
    cfg = config(c, 2, ["route = 172.16.0.0/16 via 10.1.0.2", "blackhole = 192.0.2.0/24"])
    cases = corpus()
    want = {}
    for reason, _ in cases:
        want[reason] = want.get(reason, 0) + 1
    r, outs = run_route(c, [[f for _, f in cases], []], cfg)
    check_eq(outs, [[], []], "frames sent")
    check_drops(r.stats, want)
    check_eq(forwarded(r.stats), 0, "forwarded")
    check_eq(slow(r.stats)["ctl_rx"], 0, "frames handed to the slow path")
    missing = set(ALL_REASONS) & {"ip_truncated", "ip_version", "ip_ihl", "ip_len", "ip_cksum",
                                   "martian_src", "martian_dst", "mcast_dst", "not_ipv4",
                                   "l2_other_host", "l2_bcast_fwd", "blackhole"}
    check_eq(missing - set(want), set(), "input reasons the corpus does not cover")


def case_malformed_fuzz(c):
    """Random byte flips and cuts of good frames: the run stays clean, every
    mbuf comes back, and whatever comes out is a well-formed IPv4 frame from
    one of our ports (forwarded, or an ICMP error)."""
    import random
    rng = random.Random(7)
    cfg = config(c, 2, ["route = 172.16.0.0/16 via 10.1.0.2", "route = 0.0.0.0/0 via 10.0.0.2"])
    base = [bytes(udp("10.0.0.9", "172.16.%d.1" % i, i, size=60 + 20 * i, ttl=1 + i % 3))
            for i in range(20)]
    frames = []
    for i in range(400):
        b = bytearray(base[i % len(base)])
        for _ in range(rng.randrange(1, 4)):
            pos = rng.randrange(12, min(len(b), 40))
            b[pos] = rng.randrange(256)
        if rng.random() < 0.3:
            b = b[:rng.randrange(1, len(b) + 1)]
        if rng.random() < 0.5 and len(b) >= 34:
            b = bytearray(fix_cksum(bytes(b)) if (b[14] & 0xF) >= 5 and
                          14 + (b[14] & 0xF) * 4 <= len(b) else b)
        frames.append(bytes(b))
    r, outs = run_route(c, [frames, []], cfg)
    for p in (0, 1):
        for i, f in enumerate(outs[p]):
            check_eq(ft.mac_str(f[6:12]), port_mac(p), "port %d frame %d: source MAC" % (p, i))
            check_ip_header(f, "port %d frame %d" % (p, i))
    st = r.stats
    check(sum(st["drops"].values()) > 100, "most of the fuzzed frames are dropped")
    check(forwarded(st) > 0, "some fuzzed frames are still good")


# ---------------------------------------------------------------- the shell


def case_route_shell(c):
    """route add/del from the shell while traffic runs: the next packets go
    where the table says, blackhole and no-route counted."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "shell"))
    from run import Shell, port_counter, wait_for  # noqa: E402
    cfg = config(c, 3, ["route = 172.16.0.0/16 via 10.1.0.2"])
    src = [udp("10.0.0.9", "172.16.0.%d" % (i + 1), i) for i in range(8)]
    inp = ft.write_pcap(c.path("in0.pcap"), [bytes(f) for f in src])
    empty = ft.write_pcap(c.path("empty.pcap"), [])
    # no tx_pcap: what the ports send is counted and dropped (a pcap would grow
    # by the gigabyte at this rate)
    vdevs = ["--vdev", "net_pcap0,rx_pcap=%s,infinite_rx=1" % inp,
             "--vdev", "net_pcap1,rx_pcap=%s" % empty, "--vdev", "net_pcap2,rx_pcap=%s" % empty]
    sh = Shell(c, c.eal(vdevs), ["--config", cfg])

    def tx(p):
        return port_counter(sh, p, "tx")

    def growing(p):
        a = tx(p)
        return wait_for(lambda: tx(p) > a + 1000, "port %d sending" % p)

    def still(p):
        time.sleep(0.2)  # what was routed before the change has left
        a = tx(p)
        time.sleep(0.3)
        b = tx(p)
        check_eq(b, a, "port %d tx while it should get nothing" % p)

    check("forwarding started: route mode" in sh.cmd("start"), "start")
    growing(1)
    still(2)
    out = sh.cmd("route add 172.16.0.0/24 via 10.2.0.2")
    check("error" not in out.lower() and "bad" not in out.lower(), "route add: " + out)
    check("172.16.0.0/24 via 10.2.0.2 dev 2" in sh.cmd("show route"), "the /24 in show route")
    growing(2)
    still(1)
    out = sh.cmd("route del 172.16.0.0/24")
    check("error" not in out.lower(), "route del: " + out)
    check("172.16.0.0/24" not in sh.cmd("show route"), "the /24 gone from show route")
    growing(1)
    still(2)
    sh.cmd("route add 172.16.0.0/24 blackhole")
    still(1)
    still(2)
    sh.cmd("route del 172.16.0.0/24")
    sh.cmd("route del 172.16.0.0/16")
    still(1)
    out = sh.cmd("route del 172.16.0.0/16")
    check("172.16.0.0/16" in out and ("no" in out.lower() or "not" in out.lower()),
          "deleting a route twice says so: " + out)
    sh.cmd("route add 172.16.0.0/16 via 10.2.0.2")
    growing(2)
    still(1)
    sh.cmd("stop")
    st = sh.quit()
    check_eq(st["mbufs_leaked"], 0, "mbufs_leaked")
    for mp in st["mempools"]:
        check_eq(mp["available"], mp["size"], "mempool %s available" % mp["name"])
    check(st["drops"]["blackhole"] > 0, "blackholed packets counted")
    check(st["drops"]["no_route"] > 0, "no-route packets counted")
    check(slow(st)["icmp_errors"] > 0 and slow(st)["icmp_ratelimited"] > 0,
          "ICMP net unreachable sent, then rate-limited: %r" % slow(st))


# ---------------------------------------------------------------- bad config


def bad_config(c, body, line, pattern):
    """A config that must be refused: exit status 1 and one error line that
    starts with file:line."""
    path = c.path("bad.ini")
    with open(path, "w") as f:
        f.write("[forward]\nfwd = route\n" + body)
    r = c.run(c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]),
              ["--config", path, "--duration", "1"], stats=False)
    check_eq(r.rc, 1, "exit status\n" + r.describe())
    r.check_error("^%s:%d: %s" % (re.escape(path), line, pattern))
    check("final stats" not in r.stdout, "no forwarding run after a config error")


def case_bad_config_overlap(c):
    bad_config(c, "[port 0]\nip = 10.0.0.1/16\n[port 1]\nip = 10.0.1.1/24\n", 6,
               r"10\.0\.1\.1/24 overlaps port 0's network 10\.0\.0\.0/16")
    bad_config(c, "[port 0]\nip = 10.0.0.1/24\n[route]\nroute = 172.16.0.0/16 via 10.0.0.2\n"
               "blackhole = 172.16.0.0/16\n", 7, r".*172\.16\.0\.0/16.*already")
    bad_config(c, "[port 0]\nip = 10.0.0.1/24\n[route]\nroute = 10.0.0.0/24 via 10.0.0.2\n", 6,
               r".*10\.0\.0\.0/24.*own network")
    bad_config(c, "[port 0]\nip = 10.0.0.1/24\n[route]\nroute = 172.16.0.1/16 via 10.0.0.2\n", 6,
               r".*host bits")


def case_bad_config_nexthop(c):
    bad_config(c, "[port 0]\nip = 10.0.0.1/24\n[route]\nroute = 172.16.0.0/16 via 10.9.0.2\n", 6,
               r"next hop 10\.9\.0\.2 is not on any connected network")
    bad_config(c, "[port 0]\nip = 10.0.0.1/24\n[port 1]\nip = 10.1.0.1/24\n[route]\n"
               "route = 172.16.0.0/16 via 10.0.0.2 dev 1\n", 8, r".*10\.0\.0\.2")
    bad_config(c, "[port 0]\nip = 10.0.0.1/24\n[neigh]\n10.5.0.2 = 02:00:00:00:00:01\n", 6,
               r"neighbour 10\.5\.0\.2 is not on any connected network")


def case_bad_config_neigh_addr(c):
    """One rule for gateways and static neighbours, in the config file and
    the shell: not the router's address, nor a connected network's network
    or broadcast address (both refused at their file:line, before EAL)."""
    base = "[port 0]\nip = 10.0.0.1/24\n[port 1]\nip = 10.1.0.1/24\n"
    for a in ("10.1.0.0", "10.1.0.255", "10.1.0.1"):
        bad_config(c, base + "[neigh]\n%s = 02:00:00:00:00:01\n" % a, 8,
                   r"neighbour %s is the (network or broadcast address of a connected network|"
                   r"router's own address)" % re.escape(a))
        bad_config(c, base + "[route]\nroute = 172.16.0.0/16 via %s\n" % a, 8,
                   r"next hop %s is the (network or broadcast address of a connected network|"
                   r"router's own address)" % re.escape(a))
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "shell"))
    from run import Shell  # noqa: E402
    cfg = config(c, 2, [])
    sh = Shell(c, c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]), ["--config", cfg])
    for a in ("10.1.0.0", "10.1.0.255", "10.1.0.1"):
        out = sh.cmd("neigh add %s 02:00:00:00:00:01" % a)
        check("neighbour %s not added: neighbour %s is the " % (a, a) in out, "neigh add: " + out)
        out = sh.cmd("route add 172.16.0.0/16 via %s" % a)
        check("route 172.16.0.0/16 not added: next hop %s is the " % a in out, "route add: " + out)
    check("neighbour 10.1.0.7 added" in sh.cmd("neigh add 10.1.0.7 02:00:00:00:00:07"), "neigh add")
    sh.quit()


def case_bad_config_origin(c):
    """An error the table finds after EAL start (here the next hops run out
    at the 1020th gateway) names the config line, not just "route config",
    and the limit reached by its config name."""
    routes = "".join("route = 172.%d.%d.0/24 via 10.0.%d.%d\n" % (16 + i // 256, i % 256,
                                                                i // 200, 2 + i % 200)
                     for i in range(1024))
    path = c.path("bad.ini")
    with open(path, "w") as f:
        f.write("[forward]\nfwd = route\nmax-next-hops = 1024\n[port 0]\n"
                "ip = 10.0.0.1/16\n[port 1]\nip = 10.1.0.1/24\n[route]\n" + routes)
    r = c.run(c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]),
              ["--config", path, "--duration", "1"], stats=False)
    r.check_error(r"^%s:(\d+): no free next hop \(max-next-hops 1024\)" % re.escape(path))
    line = int(re.search(r":(\d+): ", r.error_lines()[0]).group(1))
    check(9 < line <= 9 + 1024, "the line named is a route line: %d" % line)


def case_show_route(c):
    """show route: each kind in the words it is written in (an on-link route
    is 'dev N', not 'dev dev N')."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "shell"))
    from run import Shell  # noqa: E402
    cfg = config(c, 2, ["route = 0.0.0.0/0 dev 1", "route = 172.16.0.0/16 via 10.1.0.2",
                        "blackhole = 192.0.2.0/24", "reject = 198.51.100.0/24"])
    sh = Shell(c, c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]), ["--config", cfg])
    raw = [l.strip() for l in sh.cmd("show route").splitlines() if l.strip()]
    # every line ends with its source and age; the config's routes are "static", the
    # port's and the neighbours' "kernel" (as ip route calls connected routes)
    for l in raw:
        check(re.search(r" proto (static|kernel) age \d\d:\d\d:\d\d$", l) is not None,
              "show route: no 'proto SRC age HH:MM:SS' at the end of %r" % l)
    lines = set(re.sub(r" proto \w+ age \S+$", "", l) for l in raw)
    for want, src in (("0.0.0.0/0 dev 1", "static"), ("172.16.0.0/16 via 10.1.0.2 dev 1", "static"),
                      ("192.0.2.0/24 blackhole", "static"), ("198.51.100.0/24 reject", "static"),
                      ("10.0.0.0/24 connected dev 0", "kernel"),
                      ("10.0.0.1/32 local dev 0", "kernel"),
                      ("10.1.0.2/32 neighbour dev 1", "kernel")):
        check(want in lines, "show route: no line %r in %r" % (want, sorted(raw)))
        check(any(l.startswith(want + " proto " + src + " ") for l in raw),
              "show route: %r is not proto %s in %r" % (want, src, sorted(raw)))
    check(not any("dev dev" in l for l in lines), "show route: 'dev dev' in %r" % sorted(lines))
    # show route longer: the routes inside, or a line that says there are none
    out = sh.cmd("show route longer 172.16.0.0/12")
    check(re.search(r"^172\.16\.0\.0/16 via 10\.1\.0\.2 dev 1 proto static ", out, re.M)
          is not None, "show route longer 172.16.0.0/12: " + out)
    check("no route" not in out, out)
    for arg, want in (("203.0.113.0/24", "no route within 203.0.113.0/24"),
                      ("172.17.0.0/16", "no route within 172.17.0.0/16"),
                      ("10.1.0.3", "no route within 10.1.0.3/32")):
        out = sh.cmd("show route longer " + arg)
        check_eq(out.strip(), want, "show route longer %s" % arg)
    sh.quit()


def case_bad_config_mtu(c):
    for v in ("67", "9217", "0", "15x", "-1"):
        bad_config(c, "[port 0]\nip = 10.0.0.1/24\nmtu = %s\n" % v, 5,
                   r"mtu '%s' is not a number in 68\.\.9216" % re.escape(v))


def case_bad_config_port(c):
    # ports exist only after EAL has probed them: the error still names the line
    bad_config(c, "[port 0]\nip = 10.0.0.1/24\n[port 5]\nmtu = 1400\nip = 10.5.0.1/24\n", 6,
               r"\[port 5\]: no such port")


def case_bad_config_mbuf_memory(c):
    """--mbuf-size 65535 with -m 512: the mbuf pool takes nearly all of the
    EAL's memory and the table finds none. The error names the pool and what
    it holds, and says what to change; it once blamed the table alone
    ("give the EAL more memory with -m, or lower them")."""
    cfg = config(c, 2, [])
    r = c.run(c.eal(["--vdev", "net_null0", "--vdev", "net_null1"], mem=512),
              ["--config", cfg, "--mbuf-size", "65535", "--duration", "1"], stats=False)
    r.check_error(r"^cannot create the routing table \(.*\): Cannot allocate memory: the mbuf "
                  r"pool holds (\d+) MiB of the EAL's 512 MiB \((\d+) mbufs of --mbuf-size "
                  r"65535, \d+ MiB left\); give the EAL more memory with -m, or a smaller "
                  r"--mbuf-size or --total-num-mbufs")
    check("final stats" not in r.stdout, "no run without a table\n" + r.describe())


def case_echo_flood_arp(c):
    """A flood of echo requests at the router's address with ARP requests mixed
    in (1 in 50): every ARP request answered (ARP has its own share of the ring
    to the slow path: none dropped as arp_punt_full), echo replies bounded by
    icmp-echo-rate (50 a second, a burst of 32) over the run's wall time, and
    every other request counted, as echo_rate or punt_full (issue 37: 1.35 M
    replies in 3 s, 51 % of the ARP punts lost)."""
    rate, n = 50, 5000
    cfg = config(c, 2, ["icmp-echo-rate = %d" % rate])
    req = bytes(echo(0, port_ip(0), 1))
    arp = bytes(arp_request(0, "10.0.0.9", host_mac(0), port_ip(0)))
    in0 = [Ether(arp) if i % 50 == 25 else Ether(req) for i in range(n)]
    n_arp = sum(1 for i in range(n) if i % 50 == 25)
    t0 = time.monotonic()
    r, outs = run_route(c, [in0, []], cfg, duration="2")
    wall = time.monotonic() - t0
    sp, drops = slow(r.stats), r.stats["drops"]
    n_echo = n - n_arp
    replies = [f for f in outs[0] if ICMP in Ether(f)]
    arp_out = [f for f in outs[0] if ARP in Ether(f)]
    check_eq(len(arp_out), n_arp, "ARP replies out of port 0 (every request answered)")
    check_eq((sp["arp_replies"], drops["arp_punt_full"]), (n_arp, 0), "arp_replies, arp_punt_full")
    for f in arp_out[:3]:
        a = Ether(f)[ARP]
        check_eq((a.op, a.hwsrc, a.psrc, a.pdst), (2, port_mac(0), port_ip(0), "10.0.0.9"),
                 "an ARP reply")
    check_eq(len(replies), sp["echo_replies"], "echo replies out of port 0")
    check(1 <= sp["echo_replies"] <= 32 + rate * wall,
          "echo replies %d: at most 32 + %d/s over %.1f s" % (sp["echo_replies"], rate, wall))
    check_eq(sp["echo_replies"] + drops["echo_rate"] + drops["punt_full"], n_echo,
             "every echo request answered or counted (echo_replies + echo_rate + punt_full)")
    check_eq(outs[1], [], "nothing out of port 1")


def case_bad_config_echo_rate(c):
    for v in ("0", "100000001", "1e3", "-5"):
        bad_config(c, "[port 0]\nip = 10.0.0.1/24\n[route]\nicmp-echo-rate = %s\n" % v, 6,
                   r"icmp-echo-rate '%s' is not a number of replies per second in "
                   r"1\.\.100000000" % re.escape(v))


CASES = {n[5:]: f for n, f in list(globals().items()) if n.startswith("case_")}


if __name__ == "__main__":
    sys.exit(ft.run_cases(sys.argv, CASES, "route-", "tests/route/meson.build"))
