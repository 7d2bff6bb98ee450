#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""End-to-end tests of the flow stage of --fwd route (flow table, flowsort,
[filter]): the real binary on net_pcap vdevs, scapy frames in and out.

    e2e_flow.py CASE | --list | --check-registered CASE...

Builds on e2e_route.py's topology and checks (port p is 10.p.0.1/24 with a
static neighbour 10.p.0.2). meson runs one test() per case.
"""

import os
import random
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
sys.path.insert(0, HERE)
import fwdtest as ft  # noqa: E402
from fwdtest import Fail, check, check_eq  # noqa: E402
import e2e_route as er  # noqa: E402

from scapy.layers.inet import IP, TCP, UDP  # noqa: E402
from scapy.layers.l2 import Ether  # noqa: E402
from scapy.packet import Raw  # noqa: E402


def frame(flow, seq, dst, proto="udp", dport=53, src="10.0.0.9", ttl=64, size=90):
    """A frame of flow @flow (its source port) received on port 0, tagged
    with @seq."""
    l4 = UDP(sport=1000 + flow, dport=dport) if proto == "udp" else \
        TCP(sport=1000 + flow, dport=dport, flags="A")
    head = Ether(src=er.host_mac(0), dst=er.port_mac(0)) / \
        IP(src=src, dst=dst, ttl=ttl, id=seq) / l4
    pay = ft.tag(0, 0, seq)
    pay += bytes((seq + i) & 0xFF for i in range(max(0, size - len(head) - len(pay))))
    return Ether(bytes(head / Raw(pay)))


def flow_key(f):
    """(src, dst, proto, sport, dport) of an output frame."""
    e = Ether(f)
    ip = e[IP]
    l4 = ip.payload
    return (ip.src, ip.dst, ip.proto, getattr(l4, "sport", 0), getattr(l4, "dport", 0))


def per_flow(frames):
    """{flow key: [frames in order]}"""
    d = {}
    for f in frames:
        d.setdefault(flow_key(f), []).append(bytes(f))
    return d


def traffic(seed=7):
    """~700 frames on port 0: trains and round-robin of 1, 2, 4, 8 and 32
    flows, every packet a new flow, some TTL 1 (slow path), some to the
    blackhole and some the filter denies, out of ports 1 and 2."""
    rng = random.Random(seed)
    out, seq = [], 0

    def dst_of(flow):
        return ["172.16.%d.1" % (flow % 200), "172.17.%d.1" % (flow % 200),
                "192.0.2.%d" % (flow % 200 + 1)][flow % 3]

    flow = 0
    for nflows in (1, 2, 4, 8, 32):
        for pattern in ("trains", "rr"):
            base = flow
            for i in range(64):
                f = base + (i * nflows // 64 if pattern == "trains" else i % nflows)
                ttl = 1 if rng.random() < 0.03 else 64
                dport = 53 if f % 5 == 4 else 80
                out.append(frame(f, seq, dst_of(f), dport=dport, ttl=ttl))
                seq += 1
            flow = base + nflows
    for i in range(64):  # every packet a new flow
        out.append(frame(flow, seq, dst_of(flow), dport=80))
        flow += 1
        seq += 1
    for i in range(64):  # random mix of 6 flows, TCP and UDP
        f = 500 + rng.randrange(6)
        out.append(frame(f, seq, dst_of(f), proto="tcp" if f % 2 else "udp", dport=80))
        seq += 1
    return out


ROUTES = ["route = 172.16.0.0/16 via 10.1.0.2", "route = 172.17.0.0/16 via 10.2.0.2",
          "blackhole = 192.0.2.0/24"]
FILTER = "[filter]\ndeny = proto udp src 10.0.0.0/8 dport 53\npermit = any\n"


def run_mode(c, frames, mode, filt=True):
    cfg = er.config(c, 3, ROUTES, extra=FILTER if filt else "", name="rt-%s.ini" % mode)
    r, outs = er.run_route(c, [frames, [], []], cfg, app=["--flowsort", mode])
    return r, outs


def expected_drops(frames, filt=True):
    """What must be dropped, by reason: the filter comes before the route,
    a blackhole before the TTL."""
    deny = bh = ttl = 0
    for f in frames:
        ip = f[IP]
        if filt and ip.proto == 17 and ip[UDP].dport == 53:
            deny += 1
        elif ip.dst.startswith("192.0.2."):
            bh += 1
        elif ip.ttl <= 1:
            ttl += 1
    return {"filter_deny": deny, "blackhole": bh, "ttl_exceeded": ttl}


def case_same_per_flow(c):
    """flowsort on, off and auto give the same frames out of each port, in
    the same order within each flow, byte for byte; the same drops and the
    same slow-path work."""
    frames = traffic()
    results = {}
    for mode in ("off", "on", "auto"):
        r, outs = run_mode(c, frames, mode)
        st = r.stats
        check("flows" in st, "no 'flows' member in the stats file")
        fl = st["flows"]
        check_eq(fl["flowsort"], mode, "flowsort mode in the stats file")
        grouped = sum(lc["grouped_pkts"] for lc in fl["lcores"])
        ungrouped = sum(lc["ungrouped_pkts"] for lc in fl["lcores"])
        if mode == "off":
            check_eq(grouped, 0, "flowsort off: packets grouped")
        if mode == "on":
            check(grouped > 0 and ungrouped < grouped,
                  "flowsort on: grouped %d ungrouped %d" % (grouped, ungrouped))
        lookups = sum(lc["lookups"] for lc in fl["lcores"])
        check(lookups > 0, "flow-table lookups")
        er.check_drops(st, expected_drops(frames))
        results[mode] = (outs, st)
    ref_outs, ref_st = results["off"]
    check(len(ref_outs[1]) > 100 and len(ref_outs[2]) > 100, "traffic out of ports 1 and 2")
    for mode in ("on", "auto"):
        outs, st = results[mode]
        for p in (1, 2):
            a, b = per_flow(ref_outs[p]), per_flow(outs[p])
            check_eq(sorted(b), sorted(a), "port %d: flows with flowsort %s" % (p, mode))
            for k in a:
                check(a[k] == b[k], "port %d flow %r: frames or order differ with flowsort %s"
                      % (p, k, mode))
        # the ICMP errors are rate limited by time: compare what the slow path was given
        check_eq(er.slow(st)["ctl_rx"], er.slow(ref_st)["ctl_rx"],
                 "frames handed to the slow path with flowsort %s" % mode)
        check_eq([lc["punted"] for lc in st["route"]["lcores"]],
                 [lc["punted"] for lc in ref_st["route"]["lcores"]],
                 "exceptions by kind with flowsort %s" % mode)
    # flowsort off and no filter: the stage is left out, the router alone routes
    r, outs = run_mode(c, frames, "off", filt=False)
    fl = r.stats["flows"]
    check_eq(sum(lc["lookups"] for lc in fl["lcores"]), 0, "flow lookups without a filter, off")
    er.check_drops(r.stats, expected_drops(frames, filt=False))
    check_eq(len(outs[1]) + len(outs[2]),
             len(frames) - sum(expected_drops(frames, filt=False).values()), "forwarded")
    # and the frames are routed right: MACs, TTL, checksum
    for p in (1, 2):
        for f in ref_outs[p][:50]:
            check_eq(ft.mac_str(f[0:6]), er.nbr_mac(p), "port %d destination MAC" % p)
            er.check_ip_header(f, "port %d frame" % p)


def case_filter_deny(c):
    """[filter] rules: denied packets dropped and counted (filter_deny, the
    rule's own counter); permitted ones forwarded; the stats file lists the
    top flows."""
    frames = []
    for i in range(40):
        frames.append(frame(1, i, "172.16.0.1", dport=53))            # denied
        frames.append(frame(2, 100 + i, "172.16.0.1", dport=80))      # permitted
        if i % 4 == 0:
            frames.append(frame(3, 200 + i, "172.17.0.1", dport=53, src="192.168.0.1"))
    r, outs = run_mode(c, frames, "auto")
    st = r.stats
    er.check_drops(st, {"filter_deny": 40})
    # flow-table = auto (the default): the filter's rules turn the stage on
    check_eq((st["flows"]["flow_table"], st["flows"]["in_use"]), ("auto", True),
             "flow table in use for the filter")
    check_eq(sorted(ft.untag(f)[2] for f in outs[1]), list(range(100, 140)), "port 1 frames")
    check_eq(sorted(ft.untag(f)[2] for f in outs[2]), list(range(200, 240, 4)), "port 2 frames")
    rules = st["flows"]["filter"]
    check_eq([x["rule"] for x in rules],
             ["deny proto udp src 10.0.0.0/8 dport 53", "permit any"], "filter rules")
    check_eq([x["pkts"] for x in rules], [40, 50], "per-rule packet counts")
    top = st["flows"]["top_by_pkts"]
    check(len(top) == 3, "three flows in top_by_pkts: %r" % top)
    check_eq((top[0]["pkts"], top[1]["pkts"], top[2]["pkts"]), (40, 40, 10), "top flows")
    deny = [t for t in top if t["dport"] == 53 and t["src"] == "10.0.0.9"][0]
    check_eq(deny["action"], "drop filter_deny", "denied flow's action")
    check_eq(deny["bytes"], 40 * 90, "denied flow's bytes")
    by_bytes = st["flows"]["top_by_bytes"]
    check_eq(by_bytes[-1]["pkts"], 10, "smallest flow last by bytes")
    text = r.stdout
    check("filter_deny 40" in text, "filter_deny in the printed stats")
    check(re.search(r"0: deny proto udp src 10\.0\.0\.0/8 dport 53 \| 40 pkts", text),
          "the rule's counter in the printed stats")


def case_filter_shell(c):
    """filter add/del/show and show flows from the shell while traffic runs:
    a deny takes effect on the next packets (the cached permits are invalid)."""
    sys.path.insert(0, os.path.join(HERE, "..", "shell"))
    from run import Shell, port_counter, wait_for  # noqa: E402
    cfg = er.config(c, 2, ROUTES[:1])
    src = [frame(i % 4, i, "172.16.0.%d" % (i % 4 + 1)) for i in range(16)]
    inp = ft.write_pcap(c.path("in0.pcap"), [bytes(f) for f in src])
    empty = ft.write_pcap(c.path("empty.pcap"), [])
    vdevs = ["--vdev", "net_pcap0,rx_pcap=%s,infinite_rx=1" % inp,
             "--vdev", "net_pcap1,rx_pcap=%s" % empty]
    # flow statistics without a filter rule: asked for by flow-table = on
    sh = Shell(c, c.eal(vdevs), ["--config", cfg, "--flow-table", "on"])

    def tx():
        return port_counter(sh, 1, "tx")

    check("forwarding started: route mode" in sh.cmd("start"), "start")
    a = tx()
    wait_for(lambda: tx() > a + 1000, "port 1 sending")
    out = sh.cmd("show flows")
    check_eq(len(re.findall(r"10\.0\.0\.9:100\d -> 172\.16\.0\.\d:53 udp in 0: fwd out 1", out)),
             4, "four flows in show flows:\n" + out)
    out = sh.cmd("show flows top 2 bytes")
    check_eq(len(out.strip().splitlines()), 2, "show flows top 2 bytes:\n" + out)
    out = sh.cmd("filter add deny proto udp dport 50-60")
    check("filter rule 0 added" in out, "filter add: " + out)
    time.sleep(0.2)
    a = tx()
    time.sleep(0.3)
    check_eq(tx(), a, "port 1 tx after the deny")
    out = sh.cmd("filter show")
    m = re.search(r"0: deny proto udp dport 50-60 \| (\d+) pkts", out)
    check(m is not None and int(m.group(1)) > 0, "filter show counts the deny:\n" + out)
    check("drop filter_deny" in sh.cmd("show flows"), "show flows: the flows are denied")
    out = sh.cmd("filter add drop any")
    check("Bad arguments" in out or "bad" in out.lower(), "filter add drop: " + out)
    out = sh.cmd("filter add deny sport 5")
    check("not added" in out and "need proto" in out, "filter add without proto: " + out)
    out = sh.cmd("filter del 3")
    check("not deleted" in out, "filter del 3: " + out)
    out = sh.cmd("filter del 0")
    check("filter rule 0 deleted" in out, "filter del 0: " + out)
    a = tx()
    wait_for(lambda: tx() > a + 1000, "port 1 sending again")
    check("no filter rules" in sh.cmd("filter show"), "filter show when empty")
    out = sh.cmd("set flowsort off")
    check("not changed" in out and "stop forwarding first" in out, "set flowsort running: " + out)
    sh.cmd("stop")
    check("flowsort on" in sh.cmd("set flowsort on"), "set flowsort while stopped")
    check("flowsort on:" in sh.cmd("show fwd stats"), "the stats show flowsort on")
    st = sh.quit()
    check_eq(st["mbufs_leaked"], 0, "mbufs_leaked")
    check_eq(st["flows"]["flowsort"], "on", "flowsort in the stats file")
    check(st["drops"]["filter_deny"] > 0, "denied packets counted")


def case_flows_telemetry_clear(c):
    """/forwarder/flows answers the flow-table counters and the top flows
    while traffic runs; clear fwd stats zeroes those counters and every
    flow's packets and bytes, and they count again from zero afterwards."""
    sys.path.insert(0, os.path.join(HERE, "..", "shell"))
    from run import Shell, telemetry, wait_for  # noqa: E402
    cfg = er.config(c, 2, ROUTES[:1])
    # flow 0 twice as often as flows 1 and 2
    src = [frame([0, 1, 0, 2][i % 4], i, "172.16.0.1") for i in range(20)]
    inp = ft.write_pcap(c.path("in0.pcap"), [bytes(f) for f in src])
    empty = ft.write_pcap(c.path("empty.pcap"), [])
    vdevs = ["--vdev", "net_pcap0,rx_pcap=%s,infinite_rx=1" % inp,
             "--vdev", "net_pcap1,rx_pcap=%s" % empty]
    eal = c.eal(vdevs)
    prefix = c.prefixes[-1]
    sh = Shell(c, eal, ["--config", cfg, "--flowsort", "on"])

    def flows(arg=""):
        return telemetry(prefix, "/forwarder/flows" + arg)

    st = flows()
    check_eq(st["flowsort"], "on", "flowsort mode")
    check_eq([k for k in st if k.startswith("top")], [], "no flows before start")
    check("forwarding started: route mode" in sh.cmd("start"), "start")
    last = {}

    def counting():
        last["st"] = flows()
        return last["st"].get("top2") and last["st"]["top2"]["pkts"] > 100 and last["st"]

    try:
        st = wait_for(counting, "three flows counting")
    except Fail:
        raise Fail("no three flows counting: %r" % last.get("st"))
    lc = [k for k in st if k.startswith("lcore")]
    check_eq(len(lc), 1, "one worker: %r" % sorted(st))
    w = st[lc[0]]
    check(w["lookups"] > 0 and w["hits"] > 0 and w["new_flows"] == 3,
          "flow-table counters %r" % w)
    check(w["grouped_pkts"] > 0 and w["groups"] > 0, "flowsort counters %r" % w)
    check_eq(w["entries"], 3, "entries")
    top = [st["top%d" % i] for i in range(3)]
    check("top3" not in st, "only three flows")
    check_eq([t["sport"] for t in top][0], 1000, "the biggest flow is flow 0")
    check(top[0]["pkts"] > top[1]["pkts"] and top[1]["pkts"] >= top[2]["pkts"],
          "top flows in order of packets %r" % top)
    check_eq((top[0]["src"], top[0]["dst"], top[0]["proto"], top[0]["dport"],
              top[0]["in_port"], top[0]["action"]),
             ("10.0.0.9", "172.16.0.1", 17, 53, 0, "fwd out 1"), "top flow")
    check_eq(top[0]["bytes"], top[0]["pkts"] * 90, "bytes of 90-byte frames")
    check_eq(flows(",bytes")["top0"]["sport"], 1000, "by bytes")
    # clear while forwarding: the workers stop, counters and flows restart from zero
    # long enough that what runs between the clear and the stop counts less
    # (a deadline that follows progress: under ASan on a busy machine a million take
    # tens of seconds; it fails when the lookups stop growing for 10 s)
    seen = {"n": -1, "t": time.monotonic()}

    def million():
        s = flows()
        n = s[lc[0]]["lookups"]
        if n > 1000000:
            return s
        if n > seen["n"]:
            seen.update(n=n, t=time.monotonic())
        elif time.monotonic() - seen["t"] > 10:
            raise Fail("the lookups stopped at %d, short of a million" % n)
        return None

    before = wait_for(million, "a million lookups", timeout=600)
    sh.cmd("clear fwd stats")
    sh.cmd("stop")
    st = flows()
    w = st[lc[0]]
    for k in ("lookups", "hits", "grouped_pkts", "bursts_sorted", "groups", "pkts_sorted"):
        check(w[k] < before[lc[0]][k], "%s after clear while forwarding: %d, before %d"
              % (k, w[k], before[lc[0]][k]))
    check(st["top0"]["pkts"] < before["top0"]["pkts"], "top flow's packets after clear")
    sh.cmd("clear fwd stats")
    st = flows()
    w = st[lc[0]]
    check_eq((w["lookups"], w["hits"], w["new_flows"], w["grouped_pkts"], w["groups"]),
             (0, 0, 0, 0, 0), "counters after clear while stopped")
    check_eq(w["entries"], 3, "the flows stay in the table")
    check_eq([k for k in st if k.startswith("top")], [], "no flow has packets after clear")
    out = sh.cmd("show flows")
    check("no flows" in out, "show flows after clear: " + out)
    sh.cmd("start")
    st = wait_for(lambda: (s := flows()).get("top2") and s, "flows counting again")
    w = st[lc[0]]
    check_eq(w["new_flows"], 0, "known flows are hits after clear")
    check(w["hits"] > 0, "hits after clear")
    check(st["top0"]["pkts"] < top[0]["pkts"] * 50, "packets restarted from zero")
    sh.cmd("stop")
    st = sh.quit()
    check_eq(st["mbufs_leaked"], 0, "mbufs_leaked")


def case_bad_config_filter(c):
    for body, pattern in [
            ("deny = proto udp dport 53-52", r"bad port range '53-52'"),
            ("drop = any", r"unknown key 'drop' in \[filter\] \(expected permit, deny\)"),
            ("deny = dport 53", r"sport and dport need proto tcp, udp or sctp"),
            ("deny = src 10.0.0.1/8",
             r"10\.0\.0\.1/8 has host bits set \(did you mean 10\.0\.0\.0/8\?\)")]:
        er.bad_config(c, "[port 0]\nip = 10.0.0.1/24\n[filter]\n" + body + "\n", 6, pattern)
    r = c.run(c.eal(["--vdev", "net_null0"]), ["--fwd", "route", "--flowsort", "sometimes"],
              stats=False)
    check_eq(r.rc, 1, "exit status with --flowsort sometimes\n" + r.describe())
    check("flowsort 'sometimes' is not on, off or auto" in r.stdout + r.stderr,
          "--flowsort error\n" + r.describe())


def case_default_table_off(c):
    """The default config (flow-table = auto, flowsort = auto, no [filter] rule, issue 41):
    the router alone routes; the frames are those flow-table = on forwards, byte for byte
    per flow, with the same drops; the flow stage's counters and table stay untouched and
    the stats say the table is off and how to turn it on. flow-table = on counts the flows."""
    frames = traffic()
    cfg = er.config(c, 3, ROUTES, name="rt-default.ini")
    r, outs = er.run_route(c, [frames, [], []], cfg)
    st = r.stats
    check_eq((st["flows"]["flowsort"], st["flows"]["flow_table"], st["flows"]["in_use"]),
             ("auto", "auto", False), "the default: flowsort, flow-table, in use")
    # as /forwarder/flows: why, and no counters (zeros would read as "no traffic")
    check_eq((st["flows"]["lcores"], st["flows"]["top_by_pkts"], st["flows"]["top_by_bytes"]),
             ([], [], []), "no flow counters with the table off")
    check("set flow-table on" in st["flows"]["off"], "the stats file says how: %r" % st["flows"])
    er.check_drops(st, expected_drops(frames, filt=False))
    check("flows: the flow table is off (flow-table = auto" in r.stdout and
          "set flow-table on" in r.stdout, "the stats say the table is off\n" + r.stdout)
    check("flows lcore" not in r.stdout, "no flow counters printed with the table off")
    for p in (1, 2):
        check(len(outs[p]) > 100, "traffic out of port %d" % p)
        for f in outs[p][:50]:
            check_eq(ft.mac_str(f[0:6]), er.nbr_mac(p), "port %d destination MAC" % p)
            er.check_ip_header(f, "port %d frame" % p)
    r2, outs2 = er.run_route(c, [frames, [], []], cfg, app=["--flow-table", "on"])
    st2 = r2.stats
    check_eq((st2["flows"]["flow_table"], st2["flows"]["in_use"]), ("on", True), "flow-table on")
    w = st2["flows"]["lcores"][0]
    check(w["lookups"] > 0 and w["new_flows"] > 0 and w["entries"] > 0,
          "flow-table on counts flows: %r" % w)
    check(len(st2["flows"]["top_by_pkts"]) == 10, "top flows with flow-table on")
    check("flows lcore" in r2.stdout, "flow counters printed with flow-table on")
    er.check_drops(st2, expected_drops(frames, filt=False))
    for p in (1, 2):
        a, b = per_flow(outs2[p]), per_flow(outs[p])
        check_eq(sorted(b), sorted(a), "port %d: the same flows" % p)
        for k in a:
            check(a[k] == b[k], "port %d flow %r: frames differ without the table" % (p, k))


def case_table_shell(c):
    """show flows and /forwarder/flows say the table is off under the default config and
    how to turn it on; a filter rule added from the shell turns the stage on and deleting it
    off again; set flow-table only while stopped; flow-table = off refuses filter rules and
    flowsort on; set flow-table on counts flows."""
    sys.path.insert(0, os.path.join(HERE, "..", "shell"))
    from run import Shell, port_counter, telemetry, wait_for  # noqa: E402
    cfg = er.config(c, 2, ROUTES[:1])
    src = [frame(i % 4, i, "172.16.0.%d" % (i % 4 + 1)) for i in range(16)]
    inp = ft.write_pcap(c.path("in0.pcap"), [bytes(f) for f in src])
    empty = ft.write_pcap(c.path("empty.pcap"), [])
    vdevs = ["--vdev", "net_pcap0,rx_pcap=%s,infinite_rx=1" % inp,
             "--vdev", "net_pcap1,rx_pcap=%s" % empty]
    eal = c.eal(vdevs)
    prefix = c.prefixes[-1]
    sh = Shell(c, eal, ["--config", cfg])
    flow_line = r"10\.0\.0\.9:100\d -> 172\.16\.0\.\d:53 udp in 0: fwd out 1"

    def tel():
        return telemetry(prefix, "/forwarder/flows")

    def shown():
        return len(re.findall(flow_line, sh.cmd("show flows")))

    check("forwarding started: route mode" in sh.cmd("start"), "start")
    wait_for(lambda: port_counter(sh, 1, "tx") > 1000, "port 1 sending")
    out = sh.cmd("show flows")
    check("the flow table is off (flow-table = auto" in out and "set flow-table on" in out,
          "show flows with the table off:\n" + out)
    t = tel()
    check_eq((t["flow_table"], t["in_use"], t["count"], t["more"]), ("auto", 0, 0, 0),
             "/forwarder/flows with the table off: %r" % t)
    check("set flow-table on" in t["off"], "/forwarder/flows says how: %r" % t)
    check_eq([k for k in t if k.startswith(("lcore", "top"))], [], "no counters: %r" % t)
    out = sh.cmd("set flow-table on")
    check("flow-table not changed" in out and "stop forwarding first" in out,
          "set flow-table while running: " + out)
    # thousands of packets routed with the table off left the stage untouched: turned on
    # while stopped, its counters and table are still empty
    check(port_counter(sh, 1, "tx") > 1000, "port 1 sent")
    sh.cmd("stop")
    check("flow-table on" in sh.cmd("set flow-table on"), "set flow-table on while stopped")
    t = tel()
    w = [v for k, v in t.items() if k.startswith("lcore")]
    check(t["in_use"] == 1 and len(w) == 1, "one worker's counters: %r" % t)
    check_eq({k: v for k, v in w[0].items() if v}, {}, "the stage's counters after the off run")
    check("no flows" in sh.cmd("show flows"), "no flows after the off run")
    check("flow-table auto" in sh.cmd("set flow-table auto"), "set flow-table auto")
    check("forwarding started" in sh.cmd("start"), "start again")
    # a filter rule (that matches nothing here) turns the stage on in auto...
    check("filter rule 0 added" in sh.cmd("filter add deny proto tcp dport 22"), "filter add")
    wait_for(lambda: shown() == 4, "four flows with a filter rule")
    t = tel()
    check_eq((t["in_use"], "off" in t), (1, False), "in use with a rule: %r" % t)
    check(any(k.startswith("lcore") for k in t), "counters with a rule: %r" % t)
    # ...and deleting it turns it off again
    check("filter rule 0 deleted" in sh.cmd("filter del 0"), "filter del")
    check("the flow table is off" in sh.cmd("show flows"), "off again without the rule")
    sh.cmd("stop")
    check("flow-table off" in sh.cmd("set flow-table off"), "set flow-table off while stopped")
    out = sh.cmd("filter add deny any")
    check("not added" in out and "flow-table = off" in out, "filter add with the table off: "
          + out)
    out = sh.cmd("set flowsort on")
    check("not changed" in out and "flow-table = off" in out, "flowsort on, table off: " + out)
    check("the flow table is off (flow-table = off)" in sh.cmd("show flows"), "show flows, off")
    sh.cmd("set flowsort off")
    check("flow-table on" in sh.cmd("set flow-table on"), "set flow-table on")
    check("forwarding started" in sh.cmd("start"), "start again")
    wait_for(lambda: shown() == 4, "four flows with flow-table on")
    sh.cmd("stop")
    out = sh.cmd("set flow-table sometimes")
    check("Bad arguments" in out or "bad" in out.lower(), "set flow-table sometimes: " + out)
    st = sh.quit()
    check_eq((st["flows"]["flow_table"], st["flows"]["in_use"]), ("on", True), "stats file")
    check(st["flows"]["lcores"][0]["new_flows"] == 4, "four new flows: %r" % st["flows"])


def case_bad_config_table(c):
    """flow-table = off with [filter] rules or flowsort = on is refused at start-up with a
    clear error and exit status 1 (the filter and flowsort live in the flow table); a bad
    value too."""
    path = c.path("table-off.ini")
    with open(path, "w") as f:
        f.write("[forward]\nfwd = route\nflow-table = off\n[port 0]\nip = 10.0.0.1/24\n"
                "[filter]\ndeny = proto tcp dport 22\n")
    for app, want in (
            (["--config", path], "flow-table = off, but the filter has 1 rule and runs in the "
             "flow table: delete them, or set flow-table auto"),
            (["--fwd", "route", "--flow-table", "off", "--flowsort", "on"],
             "flow-table = off, but flowsort = on groups bursts for the flow table"),
            (["--fwd", "route", "--flow-table", "sometimes"],
             "flow-table 'sometimes' is not on, off or auto")):
        r = c.run(c.eal(["--vdev", "net_null0"]), app + ["--duration", "1"], stats=False)
        check_eq(r.rc, 1, "exit status with %r\n%s" % (app, r.describe()))
        check(want in r.stdout + r.stderr, "error with %r\n%s" % (app, r.describe()))
        check("final stats" not in r.stdout, "no forwarding run after %r" % app)
    # flow-table = off alone is fine: the router alone, nothing counted
    r = c.run(c.eal(["--vdev", "net_null0"]),
              ["--fwd", "route", "--flow-table", "off", "--duration", "1"])
    r.check_ok()
    check_eq((r.stats["flows"]["flow_table"], r.stats["flows"]["in_use"]), ("off", False),
             "flow-table off in the stats file")


CASES = {n[5:]: f for n, f in list(globals().items()) if n.startswith("case_")}


if __name__ == "__main__":
    sys.exit(ft.run_cases(sys.argv, CASES, "flow-", "tests/route/meson.build"))
