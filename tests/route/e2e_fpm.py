#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""End-to-end tests of the FPM listener (issue 18, app/route/sync/rt_fpm_listen.c):
the real binary with [route] fpm-listen on 127.0.0.1, fed by a Python FPM
client (zebra's framing: version 1, type 1, a 16-bit length; netlink
messages built with struct), checked through `show route` (proto fpm),
`show fpm` and /forwarder/fpm:

- sync: next-hop objects (gateway, group, blackhole) and routes naming them
  by RTA_NH_ID (moving when an object is replaced in place), inline gateways and RTA_MULTIPATH, a blackhole route, a
  delete and a replace; what is refused counted by reason (unknown id,
  protocol kernel, a prefix the config has, an IPv6 next hop, a message of
  another type); then the client goes, its routes stay, a new connection
  replays fewer routes and the sweep removes the others; a second client
  replaces the first;
- bad_frames: bad version, bad type, a short length, a netlink message past
  its frame, a close in mid-frame, and random bytes: each counted by reason,
  the connection closed, the forwarder still answering and its routes kept;
- forward: frames through net_pcap ports follow FPM routes (a next-hop
  object, an ECMP group, a blackhole object);
- sigterm: SIGTERM ends the forwarder with a client in mid-frame;
- frr: real FRR zebra (-M dplane_fpm_nl) in a namespace of the test's own,
  the forwarder started there: zebra.conf's static routes appear as proto
  fpm, and zebra restarted with fewer routes leaves no stale one (root and
  /usr/lib/frr/zebra only: skips (77) else);
- idle_candidate: a connection made while a session is live is held: one
  that says nothing (or sends a bad frame) is closed and counted, the live
  session and its routes untouched; one that sends a valid frame takes over;
- peers: fpm-allow: a peer outside it is closed at once and counted
  (refused_peers in show fpm, telemetry, the stats file);
- log_flood: hundreds of connections in a burst write a bounded number of
  log lines; the rest is counted (logs_suppressed);
- twin_ns: the two-peer layout (e2e_twin's namespaces: the forwarder in dp,
  its twins and zebra's side in rtr, zebra reaching fpm-listen over a veth):
  a client in rtr is allowed by default, its netlink-ifname twins resolve
  in rtr and a route through another interface is refused no_port; a
  client outside rtr (not loopback) is refused (root: skips (77) else);
- bad_config: fpm-listen, fpm-allow and fpm-sweep-delay refused with their
  line; fpm-listen on a non-loopback address without fpm-allow refused.

    e2e_fpm.py CASE | --list | --check-registered CASE...
"""

import json
import os
import random
import re
import signal
import socket
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
sys.path.insert(0, HERE)
import fwdtest as ft  # noqa: E402
from fwdtest import Fail, check, check_eq  # noqa: E402
import e2e_route as er  # noqa: E402
import e2e_nlsync as enl  # noqa: E402
from frr import FRR, Frr  # noqa: E402

POLL_S = 10  # bounded polling, not a timing assertion

RTM_NEWROUTE, RTM_DELROUTE, RTM_NEWNEIGH = 24, 25, 28
RTM_NEWNEXTHOP, RTM_DELNEXTHOP = 104, 105
NLM_F_REQUEST, NLM_F_REPLACE, NLM_F_CREATE = 0x1, 0x100, 0x400
RTA_DST, RTA_OIF, RTA_GATEWAY, RTA_PRIORITY, RTA_MULTIPATH, RTA_NH_ID = 1, 4, 5, 6, 9, 30
RTA_ENCAP_TYPE, RTA_ENCAP = 21, 22
NHA_ID, NHA_GROUP, NHA_BLACKHOLE, NHA_OIF, NHA_GATEWAY, NHA_ENCAP_TYPE, NHA_ENCAP = 1, 2, 4, 5, 6, 7, 8
LWTUNNEL_ENCAP_MPLS, LWTUNNEL_ENCAP_IP, LWTUNNEL_ENCAP_SEG6 = 1, 2, 5
NLA_F_NESTED = 0x8000
RTN_UNICAST, RTN_BLACKHOLE = 1, 6
RTPROT_KERNEL, RTPROT_STATIC, RTPROT_BGP = 2, 4, 186
AF_INET, AF_INET6 = 2, 10


def attr(t, payload):
    n = 4 + len(payload)
    return struct.pack("=HH", n, t) + payload + b"\0" * ((4 - n % 4) % 4)


def ip4(a):
    return socket.inet_aton(a)


def nlmsg(t, body, flags=NLM_F_REQUEST):
    return struct.pack("=IHHII", 16 + len(body), t, flags, 0, 0) + body


def encap(etype, attr_type, type_attr):
    """An lwtunnel encap as zebra puts it: the nested @attr_type (an MPLS label
    for MPLS, a destination for IP) and @type_attr of type @etype."""
    inner = attr(1, struct.pack("!I", 100 << 12 | 1 << 8 | 64) if etype == LWTUNNEL_ENCAP_MPLS
                 else attr(1, struct.pack("=Q", 1)) + attr(3, ip4("10.0.0.9")))
    return attr(attr_type | NLA_F_NESTED, inner) + attr(type_attr, struct.pack("=H", etype))


def route(prefix, nh_id=None, gw=None, oif=None, hops=None, rtype=RTN_UNICAST,
          proto=RTPROT_BGP, delete=False, encap_type=None, encap_hop=None):
    """RTM_NEWROUTE (with NLM_F_REPLACE, as zebra sends them) or RTM_DELROUTE;
    @encap_type: a tunnel on the route (or on hop @encap_hop of @hops)."""
    net, plen = prefix.split("/")
    body = struct.pack("=BBBBBBBBI", AF_INET, int(plen), 0, 0, 254, proto, 0, rtype, 0)
    body += attr(RTA_DST, ip4(net)) + attr(RTA_PRIORITY, struct.pack("=I", 20))
    if nh_id is not None:
        body += attr(RTA_NH_ID, struct.pack("=I", nh_id))
    if gw is not None:
        body += attr(RTA_GATEWAY, ip4(gw))
    if oif is not None:
        body += attr(RTA_OIF, struct.pack("=I", oif))
    if encap_type is not None and encap_hop is None:
        body += encap(encap_type, RTA_ENCAP, RTA_ENCAP_TYPE)
    if hops is not None:
        mp = b""
        for i, h in enumerate(hops):
            a = attr(RTA_GATEWAY, ip4(h))
            if encap_type is not None and i == encap_hop:
                a += encap(encap_type, RTA_ENCAP, RTA_ENCAP_TYPE)
            mp += struct.pack("=HBBi", 8 + len(a), 0, 0, 0) + a
        body += attr(RTA_MULTIPATH, mp)
    if delete:
        return nlmsg(RTM_DELROUTE, body)
    return nlmsg(RTM_NEWROUTE, body, NLM_F_REQUEST | NLM_F_CREATE | NLM_F_REPLACE)


def nexthop(nh_id, gw=None, oif=None, group=None, blackhole=False, family=AF_INET,
            delete=False, encap_type=None):
    body = struct.pack("=BBBBI", AF_INET if group is None else 0, 0, RTPROT_BGP, 0, 0)
    if family != AF_INET:
        body = struct.pack("=BBBBI", family, 0, RTPROT_BGP, 0, 0)
    body += attr(NHA_ID, struct.pack("=I", nh_id))
    if gw is not None:
        body += attr(NHA_GATEWAY, ip4(gw) if family == AF_INET else b"\x20\x01" + b"\0" * 14)
    if oif is not None:
        body += attr(NHA_OIF, struct.pack("=I", oif))
    if blackhole:
        body += attr(NHA_BLACKHOLE, b"")
    if encap_type is not None:
        body += encap(encap_type, NHA_ENCAP, NHA_ENCAP_TYPE)
    if group is not None:
        body += attr(NHA_GROUP, b"".join(struct.pack("=IBBH", m, 0, 0, 0) for m in group))
    return nlmsg(RTM_DELNEXTHOP if delete else RTM_NEWNEXTHOP, body,
                 NLM_F_REQUEST | NLM_F_CREATE | NLM_F_REPLACE)


def frame(msg, version=1, mtype=1, length=None):
    return struct.pack("!BBH", version, mtype, len(msg) + 4 if length is None else length) + msg


class Client:
    """zebra's side: a TCP client sending FPM frames."""

    def __init__(self, port, source=None, host="127.0.0.1"):
        self.s = socket.create_connection((host, port), timeout=10,
                                          source_address=(source, 0) if source else None)

    def send(self, *msgs):
        self.s.sendall(b"".join(frame(m) for m in msgs))

    def raw(self, data):
        self.s.sendall(data)

    def closed_by_peer(self, limit=POLL_S):
        """True once the forwarder closed the connection (bounded wait)."""
        self.s.settimeout(limit)
        try:
            return self.s.recv(1) == b""
        except (ConnectionResetError, BrokenPipeError):
            return True
        except socket.timeout:
            return False

    def close(self):
        self.s.close()


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def fpm_config(c, port, routes=(), extra=(), name="fpm.ini", ports=2):
    """The e2e_route topology (port p is 10.p.0.1/24) listening for FPM."""
    lines = ["[forward]", "fwd = route"]
    for p in range(ports):
        lines += ["[port %d]" % p, "ip = %s/24" % er.port_ip(p)]
    lines += ["[route]", "fpm-listen = 127.0.0.1:%d" % port] + list(routes) + list(extra)
    lines.append("[neigh]")
    lines += ["%s = %s" % (er.nbr_ip(p), er.nbr_mac(p)) for p in range(ports)]
    path = c.path(name)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def fpm(sh):
    """show fpm as {counter: value} ('framing.bad_len', ...) with its state."""
    return enl.show_counters(sh, "show fpm", r"fpm: listening on \S+, (\w+)",
                             ("framing", "rejected", "refused", "nh_rejected"), "connects")


def check_balance(n):
    """Every route message was applied, rejected, refused or unresolved; every
    next-hop message applied or rejected."""
    rest = sum(v for k, v in n.items() if k.startswith(("rejected.", "refused.")))
    check_eq(n["received"], n["applied"] + rest + n["unresolved"],
             "received = applied + rejected + refused + unresolved in %r" % n)
    nh = sum(v for k, v in n.items() if k.startswith("nh_rejected."))
    check_eq(n["nexthops_received"], n["nexthops_applied"] + nh,
             "nexthops_received = applied + rejected in %r" % n)


def poll(what, get, want, limit=POLL_S):
    deadline = time.monotonic() + limit
    while True:
        v = get()
        if want(v):
            return v
        if time.monotonic() > deadline:
            raise Fail("%s: not within %d s: %r" % (what, limit, v))
        time.sleep(0.1)


def fpm_routes(r):
    return {p: w for p, (w, proto) in r.items() if proto == "fpm"}


def case_sync(c):
    """Next-hop objects and inline hops, refusals by reason, delete and
    replace, the reconnect's sweep, a second client replacing the first."""
    sm = enl.shell_mod()
    port = free_port()
    cfg = fpm_config(c, port, ["route = 172.31.0.0/16 via 10.1.0.2"], ["fpm-sweep-delay = 500"])
    sh = sm.Shell(c, c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]), ["--config", cfg])
    prefix = c.prefixes[-1]
    check_eq(fpm(sh)["state"], "listening", "state before zebra")
    z = Client(port)
    z.send(nexthop(1, gw="10.0.0.2"), nexthop(2, gw="10.1.0.2"), nexthop(3, group=[1, 2]),
           nexthop(4, blackhole=True),
           nexthop(5, gw="2001::1", family=AF_INET6),    # refused: nh_not_inet
           nexthop(6, group=[1, 77]))                     # refused: nh_unknown
    z.send(route("172.16.0.0/16", nh_id=1),
           route("172.17.0.0/16", nh_id=3),
           route("192.0.2.0/24", nh_id=4),
           route("172.18.0.0/16", gw="10.1.0.3"),
           route("198.51.100.0/24", hops=["10.0.0.2", "10.1.0.3"]),
           route("203.0.113.0/24", rtype=RTN_BLACKHOLE),
           route("172.20.0.0/16", gw="10.0.0.7", proto=RTPROT_STATIC),
           route("172.19.0.0/16", nh_id=99),                    # unresolved
           route("10.9.0.0/24", oif=3, proto=RTPROT_KERNEL),    # refused: kernel
           route("172.31.0.0/16", gw="10.0.0.2"),               # refused: exists
           nlmsg(RTM_NEWNEIGH, b"\0" * 12))                     # other_msg
    want = {
        "172.16.0.0/16": "via 10.0.0.2 dev 0",
        "172.17.0.0/16": "nexthops 10.0.0.2 dev 0, 10.1.0.2 dev 1",
        "192.0.2.0/24": "blackhole",
        "172.18.0.0/16": "via 10.1.0.3 dev 1",
        "198.51.100.0/24": "nexthops 10.0.0.2 dev 0, 10.1.0.3 dev 1",
        "203.0.113.0/24": "blackhole",
        "172.20.0.0/16": "via 10.0.0.7 dev 0",
    }
    r = poll("the first burst", lambda: enl.routes(sh), lambda r: fpm_routes(r) == want)
    check_eq(r["172.31.0.0/16"], ("via 10.1.0.2 dev 1", "static"), "the config's route")
    n = poll("the first sweep", lambda: fpm(sh), lambda n: n["resyncs"] == 1)
    check_eq(n["state"], "in_sync", "state after the sweep")
    check_eq((n["connects"], n["applied"], n["unresolved"], n["swept"]), (1, 7, 1, 0),
             "connects, applied, unresolved, swept")
    check_eq((n["refused.kernel"], n["refused.exists"], n["framing.other_msg"]), (1, 1, 1),
             "refused kernel, exists; other_msg")
    check_eq((n["nexthops_applied"], n["nexthops"], n["nh_rejected.nh_not_inet"],
              n["nh_rejected.nh_unknown"]), (4, 4, 1, 1), "next-hop objects")
    check_balance(n)

    # delete, replace (one hop to another object, a group changing), a blackhole replaced
    z.send(route("172.18.0.0/16", delete=True),
           route("172.16.0.0/16", nh_id=2),
           nexthop(7, gw="10.1.0.5"), nexthop(8, group=[1, 2, 7]),
           route("172.17.0.0/16", nh_id=8),
           route("203.0.113.0/24", gw="10.1.0.9"),
           nexthop(4, delete=True))
    want.pop("172.18.0.0/16")
    want["172.16.0.0/16"] = "via 10.1.0.2 dev 1"
    want["172.17.0.0/16"] = "nexthops 10.0.0.2 dev 0, 10.1.0.2 dev 1, 10.1.0.5 dev 1"
    want["203.0.113.0/24"] = "via 10.1.0.9 dev 1"
    poll("delete and replace", lambda: fpm_routes(enl.routes(sh)), lambda r: r == want)
    n = poll("counters", lambda: fpm(sh), lambda n: n["nexthops_applied"] == 7)
    check_eq(n["nexthops"], 5, "objects after a delete")
    check_balance(n)

    # an object replaced in place (same id): the routes naming it, alone or in a group, move
    z.send(nexthop(2, gw="10.1.0.6"))
    want["172.16.0.0/16"] = "via 10.1.0.6 dev 1"
    want["172.17.0.0/16"] = "nexthops 10.0.0.2 dev 0, 10.1.0.5 dev 1, 10.1.0.6 dev 1"
    poll("routes following their object", lambda: fpm_routes(enl.routes(sh)),
         lambda r: r == want)
    check_eq(fpm(sh)["nexthop_moves"], 2, "routes moved by the object's change")

    # zebra goes: its routes stay; it comes back with fewer: the rest is swept
    z.close()
    poll("the disconnect", lambda: fpm(sh), lambda n: n["state"] == "listening")
    check_eq(fpm_routes(enl.routes(sh)), want, "routes of a client that went stay")
    z = Client(port)
    z.send(nexthop(1, gw="10.0.0.2"), nexthop(2, gw="10.1.0.2"), nexthop(3, group=[1, 2]),
           route("172.16.0.0/16", nh_id=1), route("172.21.0.0/16", gw="10.0.0.3"))
    # a replay that streams for longer than fpm-sweep-delay (500 ms) postpones the sweep
    # until it is quiet: 172.17.0.0/16 comes last and must not be swept meanwhile
    kept = {"172.16.0.0/16": "via 10.0.0.2 dev 0",
            "172.17.0.0/16": "nexthops 10.0.0.2 dev 0, 10.1.0.2 dev 1",
            "172.21.0.0/16": "via 10.0.0.3 dev 0"}
    for i in range(10):
        time.sleep(0.1)
        z.send(route("172.%d.0.0/16" % (40 + i), gw="10.0.0.4"))
        kept["172.%d.0.0/16" % (40 + i)] = "via 10.0.0.4 dev 0"
    z.send(route("172.17.0.0/16", nh_id=3))
    n = poll("the second sweep", lambda: fpm(sh), lambda n: n["resyncs"] == 2)
    check_eq(fpm_routes(enl.routes(sh)), kept, "fpm routes after the reconnect's sweep")
    check_eq((n["swept"], n["last_marked"], n["connects"], n["disconnects"]),
             (len(want) - 2, len(kept), 2, 1), "swept, marked, connects, disconnects")
    check_eq(enl.routes(sh)["172.31.0.0/16"], ("via 10.1.0.2 dev 1", "static"),
             "the config's route after the sweep")

    # a second client replaces the first once it sends a valid frame (the first is closed)
    z2 = Client(port)
    poll("the second connection held", lambda: fpm(sh), lambda n: n["candidates"] == 1)
    z2.send(route("172.16.0.0/16", gw="10.1.0.4"))
    check(z.closed_by_peer(), "the first client was not closed for the second")
    n = poll("the replacement", lambda: fpm(sh), lambda n: n["replaced"] == 1)
    check_eq(n["connects"], 3, "connects")
    poll("a route from the second client", lambda: fpm_routes(enl.routes(sh)),
         lambda r: r.get("172.16.0.0/16") == "via 10.1.0.4 dev 1")
    check_balance(fpm(sh))
    t = sm.TelClient(prefix)
    tel = t.raw("/forwarder/fpm")
    tel = tel["/forwarder/fpm"]
    t.close()
    n = fpm(sh)
    check_eq((tel["listen"], tel["connects"], tel["replaced"], tel["applied"]),
             ("127.0.0.1:%d" % port, 3, 1, n["applied"]), "/forwarder/fpm")
    check_eq(tel["refused"]["kernel"], 1, "telemetry refused.kernel")
    check_eq(tel["nh_rejected"]["nh_not_inet"], 1, "telemetry nh_rejected.nh_not_inet")
    z2.close()
    sh.quit()


def case_bad_frames(c):
    """Each framing error closes its connection and is counted by reason;
    hostile bytes never stop the forwarder; the routes stay."""
    sm = enl.shell_mod()
    port = free_port()
    cfg = fpm_config(c, port, extra=["fpm-sweep-delay = 60000"])
    sh = sm.Shell(c, c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]), ["--config", cfg])
    z = Client(port)
    z.send(route("172.16.0.0/16", gw="10.0.0.2"))
    poll("a route", lambda: fpm_routes(enl.routes(sh)),
         lambda r: r.get("172.16.0.0/16") == "via 10.0.0.2 dev 0")
    good = route("172.17.0.0/16", gw="10.0.0.2")
    bad = {
        "bad_version": frame(good, version=2),
        "bad_type": frame(good, mtype=2),
        "bad_len": frame(good, length=3),
        # the netlink message says it is longer than its frame
        "nl_len": frame(struct.pack("=IHHII", 200, RTM_NEWROUTE, 1, 0, 0) + good[16:]),
        "truncated": frame(good)[:10],
    }
    z.raw(bad["bad_version"])
    check(z.closed_by_peer(), "a bad version did not close the connection")
    for reason in ("bad_type", "bad_len", "nl_len", "truncated"):
        z = Client(port)
        z.raw(bad[reason])
        if reason == "truncated":
            z.close()
        else:
            check(z.closed_by_peer(), "%s did not close the connection" % reason)
        poll(reason, lambda: fpm(sh), lambda n, r=reason: n["framing." + r] == 1)
    # random bytes, and random netlink messages in good frames
    rnd = random.Random(18)
    for i in range(30):
        z = Client(port)
        if i % 2:
            z.raw(bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 400))))
        else:
            m = bytearray(good if i % 4 else nexthop(1, group=[1, 2]))
            for _ in range(rnd.randrange(1, 8)):
                m[rnd.randrange(16, len(m))] = rnd.randrange(256)
            z.raw(frame(bytes(m)))
        z.close()
    # each connection was a session, or one held while a session was live and
    # closed without taking over (its bad frame, its close)
    n = poll("all the connections seen out", lambda: fpm(sh),
             lambda n: n["disconnects"] == n["connects"] and
             n["connects"] + n["candidates_dropped"] == 35)
    check_eq(fpm_routes(enl.routes(sh)).get("172.16.0.0/16"), "via 10.0.0.2 dev 0",
             "the route before the bad frames")
    check_balance(n)
    check(n["framing.bad_version"] >= 1 and n["framing.bad_type"] >= 1, "%r" % n)
    # the stats file keeps every counter, each reason too, as at exit (no client left)
    n = fpm(sh)
    enl.check_stats_file(sh.quit(), "fpm", "listen", "127.0.0.1:%d" % port, n)


def case_forward(c):
    """Frames through net_pcap follow FPM routes: forwarding starts (`start`)
    once the routes are in; a route by next-hop object out of port 1, an
    ECMP group over two gateways of port 1, a blackhole object dropping."""
    sm = enl.shell_mod()
    port = free_port()
    cfg = fpm_config(c, port)
    with open(cfg, "a") as f:
        f.write("10.1.0.3 = 02:00:00:00:01:03\n")
    frames = [er.udp("10.0.0.9", "172.16.%d.1" % i, i) for i in range(20)]
    frames += [er.udp("10.0.0.9", "198.51.100.%d" % (1 + i), 100 + i) for i in range(20)]
    frames += [er.udp("10.0.0.9", "192.0.2.%d" % (1 + i), 200 + i) for i in range(5)]
    vdevs, outs = c.pcap_ports([[list(map(bytes, frames))], [[]]])
    sh = sm.Shell(c, c.eal(vdevs), ["--config", cfg])
    z = Client(port)
    z.send(nexthop(1, gw="10.1.0.2"), nexthop(2, gw="10.1.0.3"), nexthop(3, group=[1, 2]),
           nexthop(4, blackhole=True), route("172.16.0.0/16", nh_id=1),
           route("198.51.100.0/24", nh_id=3), route("192.0.2.0/24", nh_id=4))
    poll("the routes", lambda: len(fpm_routes(enl.routes(sh))), lambda n: n == 3)
    sh.cmd("start")
    sm.wait_for(lambda: sm.port_counter(sh, 1, "tx") >= 40, "40 frames out of port 1")
    sh.cmd("stop")
    z.close()
    st = sh.quit()
    got = er.by_tag(ft.read_pcap(outs[1][0]))
    check_eq(sorted(s for _, s in got), list(range(20)) + list(range(100, 120)),
             "frames out of port 1")
    check_eq(len(ft.read_pcap(outs[0][0])), 0, "frames out of port 0")
    from scapy.layers.l2 import Ether  # noqa: E402
    dsts = set()
    for (_, s), f in got.items():
        orig = frames[s] if s < 20 else frames[20 + s - 100]
        dst = Ether(f).dst
        if s < 100:
            check_eq(dst, er.nbr_mac(1), "frame %d's gateway" % s)
        else:
            check(dst in (er.nbr_mac(1), "02:00:00:00:01:03"), "ECMP frame %d to %s" % (s, dst))
            dsts.add(dst)
        er.expect_forwarded(f, orig, 1, dst, "frame %d" % s)
    check_eq(len(dsts), 2, "the ECMP group's flows over both gateways")
    er.check_drops(st, {"blackhole": 5})


def case_sigterm(c):
    """SIGTERM ends a forwarder whose FPM client is connected in the middle
    of a frame: the listener's thread never holds the exit back."""
    port = free_port()
    cfg = fpm_config(c, port)
    stats = c.path("sigterm.json")
    p = subprocess.Popen(c._argv(c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]),
                                 ["--config", cfg, "--duration", "60", "--stats-file", stats]),
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=c.dir)
    try:
        deadline = time.monotonic() + POLL_S
        while True:
            try:
                z = Client(port)
                break
            except ConnectionRefusedError:
                check(time.monotonic() < deadline and p.poll() is None,
                      "the forwarder did not listen within %d s" % POLL_S)
                time.sleep(0.1)
        z.send(route("172.16.0.0/16", gw="10.0.0.2"))
        z.raw(frame(route("172.17.0.0/16", gw="10.0.0.2"))[:9])  # half a frame
        time.sleep(0.3)
        p.send_signal(signal.SIGTERM)
        out, _ = p.communicate(timeout=POLL_S)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    check_eq(p.returncode, 0, "exit status after SIGTERM\n" + out[-2000:])
    check("final stats" in out, "no final stats after SIGTERM")
    check("fpm: client gone (the listener stops)" in out, "the connection closed at exit")
    check(z.closed_by_peer(), "the client's connection was not closed")
    check_eq(ft.load_stats(stats)["mbufs_leaked"], 0, "mbufs leaked")


FRR_POLL_S = 20  # zebra's connect and replay take seconds: still bounded


def case_frr(c):
    """Real zebra (-M dplane_fpm_nl) and staticd in a namespace of the test's
    own, the forwarder started there listening on 127.0.0.1:2620: staticd's
    routes come as proto fpm (zebra names their next hops by id); zebra and
    staticd killed and started again with fewer routes leave no stale route."""
    if not os.path.exists(os.path.join(FRR, "zebra")):
        print("SKIP: %s/zebra is not installed (apt-get install frr)" % FRR)
        sys.exit(77)
    ns = "fwdfpm-%d" % os.getpid()
    p = subprocess.run(["ip", "netns", "add", ns], capture_output=True, text=True)
    if p.returncode != 0:
        print("SKIP: ip netns add is not permitted here (%s): the frr test needs root"
              % p.stderr.strip())
        sys.exit(77)
    sh = None
    frr = Frr({"rtr": ns}, "fwdfpm")

    def ip(*a):
        q = subprocess.run(["ip", "-n", ns] + list(a), capture_output=True, text=True)
        check(q.returncode == 0, "ip %s: %s" % (" ".join(a), q.stderr))

    def start_frr(routes):
        frr.daemon("rtr", "zebra", ["fpm address 127.0.0.1 port 2620"], ["-M", "dplane_fpm_nl"])
        # staticd has the static routes (FRR >= 7), entered with vtysh (frr.py)
        frr.static_routes("rtr", routes)

    try:
        ip("link", "set", "lo", "up")
        # zebra takes a static route only when its gateway is on a connected network
        for i in range(2):
            ip("link", "add", "fz%d" % i, "type", "veth", "peer", "name", "fz%dp" % i)
            ip("addr", "add", "10.%d.0.5/24" % i, "dev", "fz%d" % i)
            ip("link", "set", "fz%d" % i, "up")
            ip("link", "set", "fz%dp" % i, "up")
        # zebra connects about 3 s after its start and may replay later still: a
        # sweep 10 s after the connect (the default 3 s suits a zebra that was up)
        cfg = fpm_config(c, 2620, extra=["fpm-sweep-delay = 10000"])
        # the forwarder inside the namespace (zebra's loopback): Shell runs fwdtest.BIN
        real = ft.BIN
        wrap = c.path("fwd-in-ns.sh")
        with open(wrap, "w") as f:
            f.write("#!/bin/sh\nexec ip netns exec %s %s \"$@\"\n" % (ns, real))
        os.chmod(wrap, 0o755)
        ft.BIN = wrap
        try:
            sh = enl.shell_mod().Shell(c, c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]),
                                       ["--config", cfg])
        finally:
            ft.BIN = real
        routes = [("10.99.0.0/24", "10.1.0.2"), ("10.98.0.0/24", "10.0.0.2"),
                  ("10.97.0.0/16", "10.1.0.3"), ("192.0.2.128/25", "blackhole")]
        start_frr(routes)
        want = {"10.99.0.0/24": "via 10.1.0.2 dev 1", "10.98.0.0/24": "via 10.0.0.2 dev 0",
                "10.97.0.0/16": "via 10.1.0.3 dev 1", "192.0.2.128/25": "blackhole"}
        poll("zebra's routes", lambda: fpm_routes(enl.routes(sh)), lambda r: r == want,
             FRR_POLL_S)
        n = poll("the first sweep", lambda: fpm(sh), lambda n: n["resyncs"] >= 1, FRR_POLL_S)
        check_eq(n["connects"], 1, "zebra connected once")
        check(n["nexthops_applied"] >= 3, "zebra's next-hop objects: %r" % n)
        check_balance(n)
        print("frr: first connection: %r" % {k: v for k, v in n.items() if v})
        # zebra and staticd killed, started again with fewer routes: no stale route
        frr.kill()
        frr.flush_kernel("rtr")
        poll("zebra gone", lambda: fpm(sh), lambda n: n["state"] == "listening")
        check_eq(fpm_routes(enl.routes(sh)), want, "routes stay while zebra is away")
        start_frr([routes[0], routes[3]])
        n = poll("the sweep after zebra's restart", lambda: fpm(sh),
                 lambda n: n["resyncs"] >= 2 and n["connects"] >= 2, FRR_POLL_S)
        want = {"10.99.0.0/24": "via 10.1.0.2 dev 1", "192.0.2.128/25": "blackhole"}
        print("frr: after the restart: %r" % {k: v for k, v in n.items() if v})
        check_eq(fpm_routes(enl.routes(sh)), want, "fpm routes after zebra's restart")
        check_eq(n["swept"], 2, "stale routes swept")
        check_balance(n)
        sh.quit()
        sh = None
    finally:
        frr.stop()
        if sh is not None:
            sh.p.terminate(force=True)
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def case_idle_candidate(c):
    """Issue 37: an idle TCP connect closed zebra's live session, and the
    sweep then deleted every FPM route. A connection made while a session is
    live is held: silent, or sending a bad frame, it is closed and counted and
    the session goes on with its routes; sending a valid frame, it takes over."""
    sm = enl.shell_mod()
    port = free_port()
    cfg = fpm_config(c, port, extra=["fpm-sweep-delay = 300"])
    sh = sm.Shell(c, c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]), ["--config", cfg])
    z = Client(port)
    z.send(nexthop(1, gw="10.0.0.2"), *[route("172.16.%d.0/24" % i, nh_id=1) for i in range(50)])
    want = {"172.16.%d.0/24" % i: "via 10.0.0.2 dev 0" for i in range(50)}
    poll("the first sweep", lambda: fpm(sh), lambda n: n["resyncs"] == 1 and n["applied"] == 50)
    # an idle connection: held, then closed when its time is up (5 s); the session stays
    idle = Client(port)
    poll("the idle connection held", lambda: fpm(sh), lambda n: n["candidates"] == 1)
    z.send(route("172.17.0.0/16", nh_id=1))  # the live session still applies
    want["172.17.0.0/16"] = "via 10.0.0.2 dev 0"
    # closed 5 s after it came: the bound is generous, the wait ends at the close
    check(idle.closed_by_peer(6 * POLL_S), "the idle connection was not closed")
    n = poll("the idle connection dropped", lambda: fpm(sh),
             lambda n: n["candidates_dropped"] == 1)
    check_eq((n["state"], n["connects"], n["replaced"], n["disconnects"], n["swept"]),
             ("in_sync", 1, 0, 0, 0), "state, connects, replaced, disconnects, swept")
    check_eq(fpm_routes(enl.routes(sh)), want, "the live session's routes")
    # a bad frame from a held connection: closed at once, counted by reason
    bad = Client(port)
    bad.raw(frame(route("10.66.0.0/16", gw="10.0.0.2"), version=2))
    check(bad.closed_by_peer(), "a held connection's bad frame did not close it")
    n = poll("the bad one dropped", lambda: fpm(sh), lambda n: n["candidates_dropped"] == 2)
    check_eq((n["candidates"], n["framing.bad_version"], n["replaced"]), (2, 1, 0),
             "candidates, bad_version, replaced")
    z.send(route("172.18.0.0/16", nh_id=1))
    want["172.18.0.0/16"] = "via 10.0.0.2 dev 0"
    poll("the live session after the bad one", lambda: fpm_routes(enl.routes(sh)),
         lambda r: r == want)
    # zebra restarted: its new connection sends at once, takes over, replays and sweeps
    z2 = Client(port)
    z2.send(nexthop(1, gw="10.1.0.2"), route("172.16.0.0/24", nh_id=1))
    check(z.closed_by_peer(), "the old session was not closed for the new one")
    n = poll("the new session's sweep", lambda: fpm(sh), lambda n: n["resyncs"] == 2)
    check_eq((n["connects"], n["replaced"], n["candidates"], n["swept"]), (2, 1, 3, 51),
             "connects, replaced, candidates, swept")
    check_eq(fpm_routes(enl.routes(sh)), {"172.16.0.0/24": "via 10.1.0.2 dev 1"},
             "the new session's routes")
    check_balance(n)
    z2.close()
    sh.quit()


def case_peers(c):
    """fpm-allow names the peers that may connect: one from elsewhere is
    closed at once and counted (refused_peers: show fpm, telemetry, the
    stats file); an allowed one is a session."""
    sm = enl.shell_mod()
    port = free_port()
    cfg = fpm_config(c, port, extra=["fpm-allow = 127.0.0.1/32, 192.0.2.0/24"])
    sh = sm.Shell(c, c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]), ["--config", cfg])
    prefix = c.prefixes[-1]
    for _ in range(3):
        other = Client(port, source="127.0.0.2")
        other.raw(frame(route("10.66.0.0/16", gw="10.0.0.2")))
        check(other.closed_by_peer(), "a peer outside fpm-allow was not closed")
    n = poll("the refused peers", lambda: fpm(sh), lambda n: n["refused_peers"] == 3)
    check_eq((n["connects"], n["received"], n["state"]), (0, 0, "listening"),
             "nothing from a refused peer")
    z = Client(port, source="127.0.0.1")
    z.send(route("172.16.0.0/16", gw="10.0.0.2"))
    poll("the allowed peer's route", lambda: fpm_routes(enl.routes(sh)),
         lambda r: r == {"172.16.0.0/16": "via 10.0.0.2 dev 0"})
    t = sm.TelClient(prefix)
    tel = t.raw("/forwarder/fpm")["/forwarder/fpm"]
    t.close()
    check_eq((tel["refused_peers"], tel["connects"]), (3, 1), "/forwarder/fpm")
    z.close()
    n = poll("the disconnect", lambda: fpm(sh), lambda n: n["state"] == "listening")
    enl.check_stats_file(sh.quit(), "fpm", "listen", "127.0.0.1:%d" % port, n)


def case_log_flood(c):
    """Connections in a loop (refused peers here) write a bounded number of
    log lines (a terminal nobody read once blocked the listener's thread);
    the lines left out are counted, and said: with the next line let
    through, or, when the forwarder exits with some unsaid, at its exit."""
    port = free_port()
    cfg = fpm_config(c, port, extra=["fpm-allow = 127.0.0.1/32"])
    run = c.start(c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]),
                  ["--config", cfg, "--duration", "600"])
    prefix = c.prefixes[-1]
    deadline = time.monotonic() + POLL_S
    while True:
        try:
            Client(port, source="127.0.0.2").close()
            break
        except ConnectionRefusedError:
            check(time.monotonic() < deadline and run.p.poll() is None,
                  "the forwarder did not listen within %d s\n%s" % (POLL_S, run.describe()))
            time.sleep(0.1)
    total = 600
    t0 = time.monotonic()
    for _ in range(total - 1):
        Client(port, source="127.0.0.2").close()

    def tel():
        s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        s.settimeout(10)
        s.connect("/var/run/dpdk/%s/dpdk_telemetry.v2" % prefix)
        s.recv(4096)
        s.send(b"/forwarder/fpm")
        out = json.loads(s.recv(65536))
        s.close()
        return out["/forwarder/fpm"]

    poll("every connection refused", tel, lambda n: n["refused_peers"] == total)
    # the count of what was left out is said with the next line the bucket lets
    # through: after at least one refill (2 a second), one more connection
    time.sleep(0.6)
    Client(port, source="127.0.0.2").close()
    total += 1
    poll("every connection refused", tel, lambda n: n["refused_peers"] == total)
    # a second flood, and the forwarder stops before a refill lets a line say its count:
    # the lines left out and unsaid are said at the exit, in one line
    for _ in range(100):
        Client(port, source="127.0.0.2").close()
    total += 100
    n = poll("every connection refused", tel, lambda n: n["refused_peers"] == total)
    elapsed = time.monotonic() - t0
    run.p.send_signal(signal.SIGINT)
    rc, out, err = run.finish(60)
    check_eq(rc, 0, "exit status\n" + run.describe())
    log = (out + err).splitlines()
    lines = [l for l in log if "fpm: connection from" in l]
    left_out = [int(m.group(1)) for m in
                (re.search(r"fpm: (\d+) log lines left out \(rate limit\)", l) for l in log) if m]
    # the bucket: 20 at once, then 2 a second (one more line says how many were left out)
    bound = 20 + 2 * (int(elapsed) + 2)
    check(len(lines) <= bound, "%d connection log lines for %d connections in %.1f s (bound %d)"
          % (len(lines), total, elapsed, bound))
    check_eq(n["logs_suppressed"], total - len(lines), "logs_suppressed")
    # every line left out is said, by a later line or at the exit: none is lost unsaid (the
    # second flood's, but for the rare refill in its midst, only the exit says)
    check_eq(sum(left_out), n["logs_suppressed"],
             "the counts said by the 'log lines left out' lines (%r)" % left_out)


def case_twin_ns(c):
    """Issue 43: with the twins in zebra's namespace (the two-peer layout), the
    names of netlink-ifname were looked up in the forwarder's namespace, none
    was found, and every route was then ported by its gateway although the log
    said refused. Now they are looked up in twin-netns: a route through a twin
    goes out of its port, one through any other interface is refused (no_port).
    A client in twin-netns is a peer by default; one from elsewhere is not."""
    import e2e_twin as tw  # noqa: E402
    with tw.Topology(fpm=True, ports="af_packet") as topo:
        port = 2620
        cfg = tw.config(c, topo, twin1="rtr1",
                        extra=["fpm-listen = %s:%d" % (topo.fpm_addr, port),
                               "fpm-sweep-delay = 60000"])
        with open(cfg) as f:
            text = f.read()
        text = text.replace("twin = rtr0\n", "twin = rtr0\nnetlink-ifname = rtr0\n")
        text = text.replace("twin = rtr1\n", "twin = rtr1\nnetlink-ifname = rtr1\n")
        with open(cfg, "w") as f:
            f.write(text)
        run, sfile = tw.start(c, topo, cfg, 120)
        prefix = c.prefixes[-1]
        # zebra's side, in rtr: the twins' and its veth's ifindexes are rtr's
        client = r"""
import socket, struct, sys
sys.path.insert(0, %r)
import e2e_fpm as ef
rtr1, other = socket.if_nametoindex("rtr1"), socket.if_nametoindex("fpm")
z = ef.Client(%d, host=%r)
z.send(ef.nexthop(1, gw="10.1.0.2", oif=rtr1), ef.route("172.16.0.0/16", nh_id=1),
       ef.route("172.17.0.0/16", gw="10.1.0.2", oif=rtr1),
       ef.route("172.18.0.0/16", gw="10.1.0.2", oif=other))
print("sent", flush=True)
sys.stdin.readline()
""" % (HERE, port, topo.fpm_addr)
        zebra = subprocess.Popen(["ip", "netns", "exec", topo.ns["rtr"], sys.executable, "-c",
                                  client], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        try:
            line = zebra.stdout.readline().strip()
            if line != "sent":
                raise Fail("the client in rtr: %r %s" % (line, zebra.stderr.read()[-2000:]))
            n = poll("the three routes counted", lambda: tw.telemetry(prefix, "/forwarder/fpm"),
                     lambda n: n["applied"] + n["refused"]["no_port"] >= 3)
            check_eq((n["applied"], n["refused"]["no_port"], n["refused_peers"]), (2, 1, 0),
                     "applied, refused no_port, refused_peers")
            routes = tw.telemetry(prefix, "/forwarder/routes")
            for p in ("172_16_0_0/16", "172_17_0_0/16"):
                r = routes.get(p)
                check(isinstance(r, str) and r.startswith("via 10.1.0.2 dev 1 proto fpm"),
                      "%s: %r" % (p, r))
            check("172_18_0_0/16" not in routes, "a route through no twin was applied")
            # from the forwarder's namespace itself: neither loopback nor rtr's
            out = topo.run("dp", "import socket\ns = socket.create_connection((%r, %d), 5)\n"
                           "s.settimeout(5)\nprint(s.recv(1) == b'')" % (topo.fpm_addr, port))
            check_eq(out.strip(), "True", "a peer outside rtr not closed")
            poll("the refused peer", lambda: tw.telemetry(prefix, "/forwarder/fpm"),
                 lambda n: n["refused_peers"] == 1)
        finally:
            zebra.stdin.close()
            try:
                zebra.wait(10)
            except subprocess.TimeoutExpired:
                zebra.kill()
                zebra.wait()
        run.p.send_signal(signal.SIGINT)
        st, _ = tw.finish(run, sfile)
        check_eq(st["fpm"]["refused"]["no_port"], 1, "stats file: refused no_port")


def case_encap(c):
    """Encapsulated routes from zebra (MPLS, IP, SRv6 lwtunnels) were loaded as
    plain routes (issue 37.15): now refused whole and counted (rejected:
    encap), logged with prefix and type: on a route, on one hop of an ECMP
    route, through a next-hop object; a plain route replaced by a tunnel's,
    and the routes of an object that becomes a tunnel's, are withdrawn: the
    table holds no fpm route at the end."""
    sm = enl.shell_mod()
    port = free_port()
    cfg = fpm_config(c, port)
    sh = sm.Shell(c, c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]), ["--config", cfg])
    z = Client(port)
    z.send(route("172.16.0.0/16", gw="10.0.0.2", encap_type=LWTUNNEL_ENCAP_MPLS),
           route("172.17.0.0/16", hops=["10.0.0.2", "10.1.0.2", "10.0.0.3"],
                 encap_type=LWTUNNEL_ENCAP_IP, encap_hop=2),
           route("172.18.0.0/16", gw="10.0.0.2"),
           nexthop(1, gw="10.1.0.2"), nexthop(2, gw="10.1.0.3", encap_type=LWTUNNEL_ENCAP_IP),
           route("172.19.0.0/16", nh_id=2))
    z.send(*[route("172.21.%d.0/24" % i, nh_id=1) for i in range(4)])
    poll("the plain routes", lambda: fpm_routes(enl.routes(sh)),
         lambda r: len(r) == 5 and "172.18.0.0/16" in r)
    # zebra replaces the plain route by a tunnel's, and object 1 becomes a tunnel's
    z.send(route("172.18.0.0/16", gw="10.0.0.2", encap_type=LWTUNNEL_ENCAP_SEG6),
           nexthop(1, gw="10.1.0.2", encap_type=LWTUNNEL_ENCAP_MPLS))
    n = poll("the withdrawals", lambda: fpm(sh), lambda n: n["rejected.encap"] == 4 and
             fpm_routes(enl.routes(sh)) == {})
    check_eq(n["applied"], 5, "applied: 172.18 plain and the four routes of object 1")
    check_balance(n)
    log = "".join(sh.log)
    for p, t in (("172.16.0.0/16", "mpls"), ("172.17.0.0/16", "ip"), ("172.19.0.0/16", "ip"),
                 ("172.18.0.0/16", "seg6")):
        check(re.search(r"fpm: %s: encap %s routes are not supported" % (re.escape(p), t), log)
              is not None, "no line for %s (%s):\n%s" % (p, t, log[-2000:]))
    for i in range(4):
        check(re.search(r"fpm: 172\.21\.%d\.0/24: encap mpls routes are not supported .*route "
                        r"withdrawn \(its next-hop object became a tunnel's\)" % i, log) is not None,
              "no withdrawal line for 172.21.%d.0/24:\n%s" % (i, log[-2000:]))
    sh.quit()


def case_bad_config(c):
    """fpm-listen, fpm-allow and fpm-sweep-delay refused with their line; an
    address that cannot be bound stops the start-up; a listener reachable
    from elsewhere without a word on who may connect is refused."""
    er.bad_config(c, "[route]\nfpm-allow = 127.0.0.1/33\n", 4,
                  r"fpm-allow '127\.0\.0\.1/33' is not a list of NET\[/LEN\]")
    er.bad_config(c, "[route]\nfpm-allow = 127.0.0.1/8\n", 4,
                  r"fpm-allow '127\.0\.0\.1/8': host bits set past /8")
    er.bad_config(c, "[route]\nfpm-allow = ,\n", 4, r"fpm-allow ',' is not a list")
    for addr in ("0.0.0.0", "192.0.2.1"):
        path = c.path("open.ini")
        with open(path, "w") as f:
            f.write("[forward]\nfwd = route\n[route]\nfpm-listen = %s:%d\n" % (addr, free_port()))
        r = c.run(c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]),
                  ["--config", path, "--duration", "1"], stats=False)
        check(r.rc != 0, "a forwarder listened for FPM on %s for anyone\n%s" % (addr, r.describe()))
        r.check_error(r"fpm-listen %s is not a loopback address: give fpm-allow" %
                      re.escape(addr))
    path = c.path("allow-only.ini")
    with open(path, "w") as f:
        f.write("[forward]\nfwd = route\n[route]\nfpm-allow = 127.0.0.1\n")
    r = c.run(c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]),
              ["--config", path, "--duration", "1"], stats=False)
    check(r.rc != 0, "fpm-allow without fpm-listen taken\n" + r.describe())
    r.check_error(r"fpm-allow without fpm-listen: nothing listens")
    er.bad_config(c, "[route]\nfpm-listen = 127.0.0.1:99999\n", 4,
                  r"fpm-listen '127\.0\.0\.1:99999' is not ADDRESS\[:PORT\]")
    er.bad_config(c, "[route]\nfpm-listen = localhost\n", 4,
                  r"fpm-listen 'localhost' is not ADDRESS\[:PORT\]")
    er.bad_config(c, "[route]\nfpm-listen = 127.0.0.1\nfpm-listen = 127.0.0.1:1\n", 5,
                  r"fpm-listen given twice")
    er.bad_config(c, "[route]\nfpm-sweep-delay = 0\n", 4, r"fpm-sweep-delay '0' is not")
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    try:
        path = c.path("busy.ini")
        with open(path, "w") as f:
            f.write("[forward]\nfwd = route\n[route]\nfpm-listen = 127.0.0.1:%d\n"
                    % s.getsockname()[1])
        r = c.run(c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]),
                  ["--config", path, "--duration", "1"], stats=False)
        check(r.rc != 0, "a forwarder started on a busy FPM port\n" + r.describe())
        r.check_error("fpm-listen 127\\.0\\.0\\.1:%d: Address already in use" % s.getsockname()[1])
    finally:
        s.close()


CASES = {n[5:]: f for n, f in list(globals().items()) if n.startswith("case_")}


if __name__ == "__main__":
    sys.exit(ft.run_cases(sys.argv, CASES, "route-fpm-", "tests/route/meson.build"))
