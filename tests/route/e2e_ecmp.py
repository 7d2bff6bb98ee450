#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""End-to-end tests of ECMP routes (issue 17): the real binary on net_pcap
vdevs, scapy frames in and out. A route over four static neighbours on
port 1; a few hundred flows in; every frame out must go to a member's MAC,
each flow's frames to one member, the flows spread over all of them; with
a member's neighbour deleted (the shell's neigh del, from a command file)
its flows, and only its flows, move to the others, and nothing is lost.

    e2e_ecmp.py CASE | --list | --check-registered CASE...

Builds on e2e_route.py's topology (port p is 10.p.0.1/24). meson runs one
test() per case.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
sys.path.insert(0, HERE)
import fwdtest as ft  # noqa: E402
from fwdtest import check, check_eq  # noqa: E402
import e2e_route as er  # noqa: E402

from scapy.layers.inet import IP, TCP, UDP  # noqa: E402
from scapy.layers.l2 import Ether  # noqa: E402
from scapy.packet import Raw  # noqa: E402

MEMBERS = ["10.1.0.%d" % (2 + k) for k in range(4)]
N_FLOWS = 400
PER_FLOW = 3


def member_mac(k):
    return "02:00:00:00:01:%02x" % (0x10 + k)


def ecmp_config(c, name="ecmp.ini", members=MEMBERS):
    neigh = {er.nbr_ip(0): er.nbr_mac(0)}
    neigh.update({ip: member_mac(k) for k, ip in enumerate(members)})
    route = "route = 172.16.0.0/16 " + " ".join("via " + ip for ip in members)
    return er.config(c, 2, [route], neigh=neigh, name=name)


def flow_frames():
    """N_FLOWS flows (UDP and TCP, many sources, ports and destinations), PER_FLOW
    frames each, interleaved; frame seq s is flow s % N_FLOWS."""
    out = []
    for s in range(N_FLOWS * PER_FLOW):
        f = s % N_FLOWS
        l4 = UDP(sport=1000 + f, dport=53) if f % 3 else \
            TCP(sport=2000 + f, dport=80 + f % 7, flags="A")
        head = Ether(src=er.host_mac(0), dst=er.port_mac(0)) / \
            IP(src="10.0.0.%d" % (9 + f % 50), dst="172.16.%d.%d" % (f % 13, 1 + f % 29), id=s) / l4
        pay = ft.tag(0, 0, s)
        out.append(Ether(bytes(head / Raw(pay + b"e" * 16))))
    return out


def members_of(outs, n_in):
    """{flow: member index} from port 1's frames, checking each frame is
    routed right to one of the members' MACs and each flow sticks to one."""
    macs = {member_mac(k): k for k in range(len(MEMBERS))}
    got = er.by_tag(outs[1])
    check_eq(len(got), n_in, "frames out of port 1")
    check_eq(len(outs[0]), 0, "frames out of port 0")
    flow = {}
    for (_, s), f in got.items():
        e = Ether(f)
        check(e.dst in macs, "frame %d to %s, no member's MAC" % (s, e.dst))
        check_eq(e.src, er.port_mac(1), "frame %d source MAC" % s)
        check_eq(e[IP].ttl, 63, "frame %d TTL" % s)
        k = macs[e.dst]
        fl = s % N_FLOWS
        check(flow.setdefault(fl, k) == k,
              "flow %d on members %d and %d" % (fl, flow[fl], k))
    return flow


def check_spread(flow, members, what):
    """Each member in @members has between half and twice its share of the flows."""
    share = len(flow) / len(members)
    for k in members:
        n = sum(1 for v in flow.values() if v == k)
        check(share / 2 <= n <= share * 2,
              "%s: member %d has %d flows, its share is %.0f" % (what, k, n, share))


def case_spread_sticky(c):
    """Router alone and flow stage: every frame to a member, each flow on
    one member (the same with flowsort off and on: both hash the 5-tuple),
    the flows spread over all four."""
    cfg = ecmp_config(c)
    frames = flow_frames()
    per_mode = {}
    for mode in ("off", "on"):
        r, outs = er.run_route(c, [frames, []], cfg, app=["--flowsort", mode])
        flow = members_of(outs, len(frames))
        check_spread(flow, range(4), "flowsort " + mode)
        er.check_drops(r.stats, {})
        check_eq(er.forwarded(r.stats), len(frames), "frames the fast path forwarded")
        per_mode[mode] = flow
    check_eq(per_mode["on"], per_mode["off"], "member of each flow, flowsort on vs off")


def case_failover(c):
    """A member's neighbour deleted from the shell (command file): its flows
    move to the other three, no other flow moves, nothing is lost; show
    route lists the nexthops; a route added from the shell over two of them
    takes traffic too."""
    cfg = ecmp_config(c)
    frames = flow_frames()
    r, outs = er.run_route(c, [frames, []], cfg, app=["--flowsort", "off"])
    before = members_of(outs, len(frames))
    lost = 2
    # and a shell-added ECMP route, to the same members but one
    extra = [Ether(bytes(Ether(src=er.host_mac(0), dst=er.port_mac(0)) /
                         IP(src="10.0.0.9", dst="172.17.0.%d" % (1 + i), id=i) /
                         UDP(sport=7000 + i, dport=53) / Raw(ft.tag(0, 0, 5000 + i))))
             for i in range(40)]
    cmds = c.path("cmds.txt")
    with open(cmds, "w") as f:
        f.write("neigh del %s\n" % MEMBERS[lost])
        f.write("route add 172.17.0.0/16 via %s via %s dev 1 via %s\n"
                % (MEMBERS[0], MEMBERS[1], MEMBERS[3]))
        f.write("route add 172.18.0.0/16 via %s dev 1 via %s\n" % (MEMBERS[0], MEMBERS[0]))
        f.write("show route\n")
    for mode in ("off", "on"):
        r, outs = er.run_route(c, [frames + extra, []], cfg,
                               app=["--flowsort", mode, "--cmdline-file", cmds])
        out = r.stdout
        check(re.search(r"172\.16\.0\.0/16 proto static age \d\d:\d\d:\d\d\n" + "".join(
            r"\tnexthop via %s dev 1\n" % re.escape(ip) for ip in MEMBERS), out) is not None,
            "show route's nexthop lines:\n" + out)
        check(re.search(r"172\.17\.0\.0/16 proto shell age [\d:]+\n", out) is not None, "the shell's ECMP route in show route")
        check("given twice" in out, "a duplicate next hop refused:\n" + out)
        shell_extra = [f for f in outs[1] if ft.untag(f)[2] >= 5000]
        check_eq(len(shell_extra), len(extra), "frames of the shell's route")
        for f in shell_extra:
            check(Ether(f).dst in (member_mac(0), member_mac(1), member_mac(3)),
                  "shell route frame to %s" % Ether(f).dst)
        outs = [outs[0], [f for f in outs[1] if ft.untag(f)[2] < 5000]]
        after = members_of(outs, len(frames))
        moved = [fl for fl in after if after[fl] != before[fl]]
        check(all(before[fl] == lost for fl in moved),
              "flowsort %s: flows moved that were not on the lost member: %r" % (
                  mode, [(fl, before[fl], after[fl]) for fl in moved if before[fl] != lost]))
        check_eq(sorted(moved), sorted(fl for fl in before if before[fl] == lost),
                 "flowsort %s: every flow of the lost member moved" % mode)
        check_spread(after, [0, 1, 3], "flowsort %s, member %d lost" % (mode, lost))
        er.check_drops(r.stats, {})
        check_eq(er.forwarded(r.stats), len(frames) + len(extra), "frames forwarded")


CASES = {n[5:]: f for n, f in list(globals().items()) if n.startswith("case_")}


if __name__ == "__main__":
    sys.exit(ft.run_cases(sys.argv, CASES, "ecmp-", "tests/route/meson.build"))
