#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""End-to-end tests of dpdk-forwarder on net_pcap vdevs.

    DPDK_FORWARDER=build/app/dpdk-forwarder tests/e2e/run.py CASE
    tests/e2e/run.py --list

Exit status 0: the case passed; 1: it failed (the reason is printed).
"""

import glob
import os
import re
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fwdtest import (Case, Fail, run_cases, check, check_eq, check_frames, check_stats,  # noqa: E402
                     check_balance, check_stats_block, stats_blocks_text,
                     default_peer, iter_pcap, load_stats, mac_bytes, mac_rewrite, mac_swap, mixed_frames,
                     pcap_count, port_stats, read_pcap, remove_runtime_dir, runt, runtime_dir, scapy_count,
                     signal_by_name, untag)
from scapy.layers.l2 import Ether  # noqa: E402

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def with_runts(frames, positions, lengths=(10,)):
    """frames with runts (shorter than an Ethernet header) inserted at positions."""
    out = list(frames)
    for i, pos in enumerate(sorted(positions, reverse=True)):
        out.insert(pos, runt(lengths[i % len(lengths)], 0xE0 + i))
    return out


def n_runts(frames):
    return sum(1 for f in frames if len(f) < 14)


# ---------------------------------------------------------------- io

def io_case(c, nports, topology, peer_of):
    inputs = [mixed_frames(n, port=p) for p, n in zip(range(nports), (300, 257, 199))]
    vdevs, outs = c.pcap_ports([[f] for f in inputs])
    app = ["--fwd", "io", "--duration", "1"]
    if topology:
        app += ["--port-topology", topology]
    r = c.run(c.eal(vdevs), app)
    r.check_ok()
    got = [read_pcap(o[0]) for o in outs]
    for p in range(nports):
        check_eq(port_stats(r.stats, p)["out_port"], peer_of(p), "port %d out_port" % p)
        check_frames(got[peer_of(p)], inputs[p], "port %d's input leaving port %d" %
                     (p, peer_of(p)))
    check_eq(r.stats["topology"], topology or "paired", "topology in the stats file")
    check_stats(r.stats, inputs, got)


@case
def io_paired(c):
    io_case(c, 2, None, lambda p: p ^ 1)


@case
def io_loop(c):
    io_case(c, 2, "loop", lambda p: p)


@case
def io_chained(c):
    io_case(c, 3, "chained", lambda p: (p + 1) % 3)


def stats_blocks(stdout):
    """The printed stats blocks: [(title, {port: (rx, tx)})]."""
    blocks = []
    for chunk in stdout.split("\n=== ")[1:]:
        title = chunk.split(" ===", 1)[0]
        ports = {int(m.group(1)): (int(m.group(2)), int(m.group(3))) for m in re.finditer(
            r"^port (\d+) \(\S+\): rx (\d+) pkts .*?\| tx (\d+) pkts", chunk, re.M)}
        blocks.append((title, ports))
    return blocks


@case
def io_drain(c):
    """A tail shorter than --burst must leave on the drain timer, not wait for
    more packets or for the stop: the first periodic stats line (0.25 s in)
    already shows every packet sent."""
    inputs = [mixed_frames(100, port=0), mixed_frames(37, port=1)]
    vdevs, outs = c.pcap_ports([[f] for f in inputs])
    r = c.run(c.eal(vdevs), ["--burst", "64", "--stats-period", "0.25", "--duration", "1"])
    r.check_ok()
    blocks = stats_blocks(r.stdout)
    check(len(blocks) >= 2 and blocks[0][0].startswith("stats:"),
          "want periodic stats before the final ones\n" + r.describe())
    check_eq(blocks[0][1], {0: (100, 37), 1: (37, 100)},
             "(rx, tx) per port in the first periodic stats")
    check_eq(r.stats["drops"]["stopped"], 0, "drops.stopped")
    got = [read_pcap(o[0]) for o in outs]
    check_frames(got[1], inputs[0], "port 0's input leaving port 1")
    check_frames(got[0], inputs[1], "port 1's input leaving port 0")
    check_stats(r.stats, inputs, got)


# ---------------------------------------------------------------- mac, macswap

def l2_inputs():
    """Port 0: a mix with runts of 10 and 13 bytes and a bare 14-byte header
    (not a runt); port 1: a mix with one runt."""
    in0 = with_runts(mixed_frames(200, port=0), (0, 33, 34, 120, 200), (10, 13))
    in0.insert(50, bytes(range(14)))
    in1 = with_runts(mixed_frames(150, port=1), (77,))
    return [in0, in1]


def l2_case(c, mode, extra, expect):
    inputs = l2_inputs()
    vdevs, outs = c.pcap_ports([[f] for f in inputs])
    r = c.run(c.eal(vdevs), ["--fwd", mode, "--duration", "1"] + extra)
    r.check_ok()
    check_eq(r.stats["mode"], mode, "mode in the stats file")
    got = [read_pcap(o[0]) for o in outs]
    macs = [mac_bytes(port_stats(r.stats, p)["mac"]) for p in (0, 1)]
    check(macs[0] != macs[1] and all(m != bytes(6) for m in macs),
          "ports need distinct, non-zero MACs: %r" % macs)
    for p in (0, 1):
        o = p ^ 1
        want = [expect(f, o, macs[o]) for f in inputs[p] if len(f) >= 14]
        check(len(want) < len(inputs[p]), "the input must hold runts")
        check_frames(got[o], want, "%s: port %d's input leaving port %d" % (mode, p, o))
    check_eq(r.stats["drops"]["runt"], sum(n_runts(f) for f in inputs), "drops.runt")
    check_stats(r.stats, inputs, got)


@case
def mac(c):
    l2_case(c, "mac", [], lambda f, o, omac: mac_rewrite(f, default_peer(o), omac))


@case
def mac_eth_peer(c):
    peer = mac_bytes("aa:bb:cc:dd:ee:ff")
    l2_case(c, "mac", ["--eth-peer", "1,aa:bb:cc:dd:ee:ff"],
            lambda f, o, omac: mac_rewrite(f, peer if o == 1 else default_peer(o), omac))


@case
def macswap(c):
    l2_case(c, "macswap", [], lambda f, o, omac: mac_swap(f))


# ---------------------------------------------------------------- rxonly

@case
def rxonly(c):
    inputs = l2_inputs()
    vdevs, outs = c.pcap_ports([[f] for f in inputs])
    r = c.run(c.eal(vdevs), ["--fwd", "rxonly", "--duration", "1"])
    r.check_ok()
    got = [read_pcap(o[0]) for o in outs]
    check_eq([len(g) for g in got], [0, 0], "packets sent in rxonly")
    check_eq(r.stats["drops"]["rxonly"], sum(map(len, inputs)), "drops.rxonly")
    check_stats(r.stats, inputs, got)


# ---------------------------------------------------------------- 2 lcores x 2 queues

@case
def multiqueue(c):
    """Two worker lcores on one CPU, each polling queue q of both ports.
    Every input queue's packets must leave the peer port exactly once, in
    order, all through one TX queue (the one its lcore owns)."""
    inputs = [[mixed_frames(n, port=p, queue=q) for q, n in enumerate(ns)]
              for p, ns in enumerate(((180, 97), (64, 211)))]
    vdevs, outs = c.pcap_ports(inputs)
    mapping = "(0,0,1),(0,1,2),(1,0,1),(1,1,2)"
    r = c.run(c.eal(vdevs, lcores="0@0,1@1,2@1"), ["--map", mapping, "--duration", "1"])
    r.check_ok()
    got = [[read_pcap(path) for path in port_outs] for port_outs in outs]
    lcore_of = {(0, 0): 1, (0, 1): 2, (1, 0): 1, (1, 1): 2}

    for p in (0, 1):
        o = p ^ 1
        for q in (0, 1):
            files = [t for t, frames in enumerate(got[o])
                     if any(untag(f)[:2] == (p, q) for f in frames)]
            check(len(files) == 1, "port %d queue %d: its packets left port %d through TX "
                  "queues %r, want exactly one" % (p, q, o, files))
            seen = [f for f in got[o][files[0]] if untag(f)[:2] == (p, q)]
            check_frames(seen, inputs[p][q], "port %d queue %d leaving port %d TX queue %d" %
                         (p, q, o, files[0]))
        for t, frames in enumerate(got[o]):
            stray = [untag(f) for f in frames if untag(f) is None or untag(f)[0] != p]
            check(not stray, "port %d TX queue %d has packets not from port %d: %r" %
                  (o, t, p, stray[:5]))

    s = r.stats
    check_eq(sorted(lc["lcore"] for lc in s["lcores"]), [1, 2], "worker lcores")
    for lc in s["lcores"]:
        want_rx = sorted((p, q, len(inputs[p][q])) for (p, q), l in lcore_of.items()
                         if l == lc["lcore"])
        check_eq(sorted((x["port"], x["queue"], x["pkts"]) for x in lc["rx_queues"]), want_rx,
                 "lcore %d rx queue counters" % lc["lcore"])
        for x in lc["tx_queues"]:
            check_eq(x["pkts"], len(got[x["port"]][x["queue"]]),
                     "lcore %d tx port %d queue %d counter vs its tx pcap" %
                     (lc["lcore"], x["port"], x["queue"]))
    txq = sorted((x["port"], x["queue"]) for lc in s["lcores"] for x in lc["tx_queues"])
    check_eq(txq, [(0, 0), (0, 1), (1, 0), (1, 1)], "TX queues owned by the lcores")
    for p in (0, 1):
        check_eq((port_stats(s, p)["rx_queues"], port_stats(s, p)["tx_queues"]), (2, 2),
                 "port %d (rx_queues, tx_queues)" % p)
    check_stats(s, [sum(q, []) for q in inputs], [sum(q, []) for q in got])


# ---------------------------------------------------------------- stats file

@case
def stats_file(c):
    """Two workers (default map spreads the ports), macswap with runts so that
    drops are not zero, --xstats: every counter must agree with the pcaps."""
    inputs = l2_inputs()
    vdevs, outs = c.pcap_ports([[f] for f in inputs])
    r = c.run(c.eal(vdevs, lcores="0@0,1@1,2@1"),
              ["--fwd", "macswap", "--burst", "7", "--xstats", "--duration", "1"])
    r.check_ok()
    s = r.stats
    got = [read_pcap(o[0]) for o in outs]
    check_stats(s, inputs, got)
    check_eq((s["mode"], s["topology"], s["burst"]), ("macswap", "paired", 7),
             "mode, topology, burst")
    check(0.5 < s["duration_s"] < 10, "duration_s %r for --duration 1" % s["duration_s"])
    check_eq(len(s["lcores"]), 2, "worker lcores")
    for lc in s["lcores"]:
        check(lc["rx_pkts"] > 0 and lc["rx_bursts"] > 0 and lc["polls"] >= lc["rx_bursts"],
              "lcore %d did not work: %r" % (lc["lcore"], lc))
        check(sum(lc["drops"].values()) > 0, "lcore %d: no runt dropped" % lc["lcore"])
    for p in (0, 1):
        ps = port_stats(s, p)
        check_eq(ps["name"], "net_pcap%d" % p, "port %d name" % p)
        xs = ps.get("xstats")
        check(isinstance(xs, dict) and xs, "port %d: --xstats gave no xstats" % p)
        if "rx_good_packets" in xs:
            check_eq(xs["rx_good_packets"], ps["ipackets"], "port %d rx_good_packets" % p)
        if "tx_good_packets" in xs:
            check_eq(xs["tx_good_packets"], ps["opackets"], "port %d tx_good_packets" % p)
    check_eq(s["drops"]["runt"], sum(n_runts(f) for f in inputs), "drops.runt")
    for p in (0, 1):
        line = "port %d (net_pcap%d): rx %d pkts" % (p, p, len(inputs[p]))
        check(line in r.stdout, "printed final stats lack %r\n%s" % (line, r.describe()))


# ------------------------------------------------- bytes on every port (issue 23)

def check_port_bytes(r, frame_len, what):
    """net_null and net_ring count no bytes: the forwarder does, so every
    port's bytes are its packets times the one frame size, in the stats file
    and in the printed final stats."""
    r.check_ok()
    check_stats(r.stats)
    for ps in r.stats["ports"]:
        check(ps["ipackets"] > 0 and ps["opackets"] > 0, "%s: port %d moved nothing: %r" %
              (what, ps["port"], ps))
        check_eq(ps["ibytes"], ps["ipackets"] * frame_len, "%s: port %d ibytes" % (what, ps["port"]))
        check_eq(ps["obytes"], ps["opackets"] * frame_len, "%s: port %d obytes" % (what, ps["port"]))
        line = "port %d (%s): rx %d pkts %d bytes" % (ps["port"], ps["name"], ps["ipackets"],
                                                     ps["ibytes"])
        check(line in r.stdout, "%s: printed final stats lack %r\n%s" % (what, line, r.describe()))


@case
def port_bytes(c):
    """Bytes on net_null (64-byte frames, io and mac) and on net_ring (tx_first's
    60-byte frames looping, io; pktgen's 60-byte frames)."""
    for mode in ("io", "mac"):
        r = c.run(c.eal(null_vdevs()), ["--fwd", mode, "--duration", "1"])
        check_port_bytes(r, 64, "net_null " + mode)
    rings = ["--vdev", "net_ring0", "--vdev", "net_ring1"]
    r = c.run(c.eal(rings), ["--fwd", "io", "--tx-first", "--duration", "1"])
    check_port_bytes(r, 60, "net_ring io --tx-first")


@case
def stats_add_up(c):
    """Every mode: each periodic block, the final block and the stats file
    show rx = tx + drops + in flight per lcore and in total (issue 23)."""
    rings = ["--vdev", "net_ring0", "--vdev", "net_ring1"]
    runs = [("io", null_vdevs(), []), ("mac", null_vdevs(), []), ("macswap", null_vdevs(), []),
            ("rxonly", null_vdevs(), []), ("io", rings, ["--tx-first"]),
            ("route", null_vdevs(), ["--config", os.path.join(SRC, "config", "router.ini")]),
            ("pktgen", rings[:2], [])]
    for mode, vdevs, extra in runs:
        # two workers (one per port) but for the generator: one flow, one lcore
        r = c.run(c.eal(vdevs, lcores="0@0,1@1" if mode == "pktgen" else "0@0,1@1,2@1"),
                  ["--fwd", mode, "--duration", "1", "--stats-period", "0.2"] + extra)
        r.check_ok()
        blocks = stats_blocks_text(r.stdout)
        check(len(blocks) >= 3, "%s: want periodic blocks and the final one\n%s" %
              (mode, r.describe()))
        for title, text in blocks:
            check_stats_block(text, final=title.startswith("=== final"))
        check_balance(r.stats)
        check(sum(lc["rx_pkts"] for lc in r.stats["lcores"]) > 0, "%s: nothing received" % mode)


# ---------------------------------------------------------------- signals

def signal_case(c, signame):
    """Port 0 replays its pcap forever; stop the forwarder with a signal
    after its first periodic stats line. Port 1's tx_pcap must be complete
    and hold exactly the port's opackets, port 0's input in cyclic order."""
    inputs = [mixed_frames(64, port=0, max_size=200), mixed_frames(40, port=1)]
    vdevs, outs = c.pcap_ports([[f] for f in inputs], infinite=(0,))
    sfile = c.path("stats.json")
    run = c.start(c.eal(vdevs), ["--stats-period", "0.2", "--stats-file", sfile])
    run.wait_line("=== stats", 15)
    t0 = time.monotonic()
    run.p.send_signal(signal_by_name(signame))
    rc, out, err = run.finish(20)
    check(rc == 0, "exit status %r after %s, want 0\n%s" % (rc, signame, run.describe()))
    check(time.monotonic() - t0 < 5, "took %.1f s to stop" % (time.monotonic() - t0))
    check("=== final stats" in out, "no final stats after %s" % signame)
    check(out.index("=== final stats") > out.index("=== stats"), "final stats out of order")
    s = load_stats(sfile)
    check(s is not None, "no stats file after %s" % signame)
    n1 = pcap_count(outs[1][0])  # strict: no truncated record, no junk at the end
    check_eq(n1, port_stats(s, 1)["opackets"], "port 1 tx pcap packets vs opackets")
    check(n1 > len(inputs[0]), "port 1 sent only %d packets before %s" % (n1, signame))
    check_eq(scapy_count(outs[1][0]), n1, "packets scapy reads from port 1's tx pcap")
    L = len(inputs[0])
    for i, f in enumerate(iter_pcap(outs[1][0])):
        if f != inputs[0][i % L]:
            check_frames([f], [inputs[0][i % L]], "port 1 output packet %d" % i)
    got0 = read_pcap(outs[0][0])
    check_frames(got0, inputs[1], "port 1's input leaving port 0")
    check_eq(port_stats(s, 0)["ipackets"], n1 + sum(s["drops"].values()),
             "port 0 ipackets vs port 1's output + drops")
    check_stats(s)
    check_eq(port_stats(s, 0)["opackets"], len(got0), "port 0 opackets vs its tx pcap")


@case
def sigterm(c):
    signal_case(c, "SIGTERM")


@case
def sigint(c):
    signal_case(c, "SIGINT")


# ---------------------------------------------------------------- config file

CONFIG = """# test config: keys are the long option names
[forward]
fwd = mac          ; overridden by --fwd on the command line in config_override
burst = 16
eth-peer = 1,aa:bb:cc:dd:ee:ff

"""


def config_case(c, cmdline, mode, expect):
    path = c.path("fwd.ini")
    with open(path, "w") as f:
        f.write(CONFIG)
    inputs = l2_inputs()
    vdevs, outs = c.pcap_ports([[f] for f in inputs])
    r = c.run(c.eal(vdevs), ["--config", path, "--duration", "1"] + cmdline)
    r.check_ok()
    check_eq((r.stats["mode"], r.stats["burst"]), (mode, 16), "mode and burst (16 from the file)")
    got = [read_pcap(o[0]) for o in outs]
    macs = [mac_bytes(port_stats(r.stats, p)["mac"]) for p in (0, 1)]
    for p in (0, 1):
        o = p ^ 1
        want = [expect(f, o, macs[o]) for f in inputs[p] if len(f) >= 14]
        check_frames(got[o], want, "%s: port %d's input leaving port %d" % (mode, p, o))
    check_stats(r.stats, inputs, got)


@case
def config_file(c):
    peer = mac_bytes("aa:bb:cc:dd:ee:ff")
    config_case(c, [], "mac",
                lambda f, o, omac: mac_rewrite(f, peer if o == 1 else default_peer(o), omac))


@case
def config_override(c):
    config_case(c, ["--fwd", "macswap"], "macswap", lambda f, o, omac: mac_swap(f))


# ---------------------------------------------------------------- embedded default

@case
def embedded_default(c):
    sfile = c.path("stats.json")
    r = c.run(None, ["--", "--duration", "1", "--stats-file", sfile], stats=False)
    r.check_ok()
    # its EAL file prefix is dpdk-forwarder-<pid>, its own: gone with it (issue 37.16)
    check(not os.path.exists(runtime_dir("dpdk-forwarder-%d" % c.procs[-1].pid)),
          "the embedded default left its runtime dir %s" %
          runtime_dir("dpdk-forwarder-%d" % c.procs[-1].pid))
    check("using the embedded default" in r.stdout and "--vdev net_null0" in r.stdout,
          "the embedded default line is missing\n" + r.describe())
    # what runs is what --help and the docs say, with A, B and PID filled in
    h = c.run(None, ["--", "--help"], stats=False)
    check(h.rc == 0, "--help failed\n" + h.describe())
    lines = h.stdout.splitlines()
    i = [k for k, l in enumerate(lines) if "the embedded default is used" in l]
    check(len(i) == 1, "--help does not show the embedded default\n" + h.describe())
    shown = lines[i[0] + 1].strip()
    pat = re.escape(shown).replace("@A", r"@\d+").replace("@B", r"@\d+").replace(
        "PID", str(c.procs[-2].pid))
    ran = [l.strip() for l in r.stdout.splitlines() if l.strip().startswith("--")]
    check(len(ran) == 1 and re.fullmatch(pat, ran[0]) is not None,
          "the embedded default that ran (%r) is not the one --help shows (%r)" % (ran, shown))
    for doc in ("README.md", "docs/user-guide.md"):
        with open(os.path.join(SRC, doc)) as f:
            check(shown in f.read(), "%s does not show the embedded default %r" % (doc, shown))
    s = load_stats(sfile)
    check_eq([p["name"] for p in s["ports"]], ["net_null0", "net_null1"], "port names")
    for p in s["ports"]:
        check(p["ipackets"] > 0 and p["opackets"] > 0, "port %d did not forward: %r" %
              (p["port"], p))
    check_eq(s["mode"], "io", "default mode")
    check_stats(s)


# ---------------------------------------------------------------- bad input

def null_vdevs():
    return ["--vdev", "net_null0", "--vdev", "net_null1"]


def bad(c, app, pattern, eal=None):
    r = c.run(c.eal(null_vdevs()) if eal is None else eal, app + ["--duration", "1"],
              timeout=20, stats=False)
    r.check_error(pattern)


def write(c, name, text):
    with open(c.path(name), "w") as f:
        f.write(text)
    return c.path(name)


@case
def bad_unknown_option(c):
    bad(c, ["--bogus"], r"^unknown option '--bogus'")


@case
def bad_value(c):
    bad(c, ["--burst", "0"], r"^--burst: '0' is not a number from 1 to 512$")


@case
def bad_mbuf_size(c):
    """Too small for 128 bytes of frame after the headroom, over 16 bits, not a number."""
    bad(c, ["--mbuf-size", "255"], r"^--mbuf-size: 255 bytes is too small: the data room holds "
        r"the 128-byte headroom and at least 128 bytes of frame .*: 256 or more$")
    bad(c, ["--mbuf-size", "65536"], r"^--mbuf-size: 65536 bytes is too large: an mbuf's data "
        r"room is at most 65535$")
    bad(c, ["--mbuf-size", "2k"], r"^--mbuf-size: '2k' is not a number of bytes$")


@case
def bad_mbuf_size_no_scatter(c):
    """A port that cannot scatter RX (net_null) with frames longer than one mbuf: refused."""
    bad(c, ["--mbuf-size", "640"], r"^port 0 \(net_null0\): its 1518-byte frames do not fit one "
        r"mbuf of --mbuf-size 640 and the port cannot receive them over several \(no scattered "
        r"RX\): give --mbuf-size 1646 or more$")


def mbuf_size_case(c, app):
    """io, paired, with 640-byte mbufs (512 bytes of frame): frames up to 1514
    bytes come in from net_pcap as chains and must leave whole; scapy parses
    every output frame too."""
    inputs = [mixed_frames(n, port=p) for p, n in ((0, 300), (1, 200))]
    check(sum(len(f) > 512 for f in inputs[0] + inputs[1]) >= 300,
          "most frames longer than the 512-byte room")
    vdevs, outs = c.pcap_ports([[f] for f in inputs])
    r = c.run(c.eal(vdevs), ["--fwd", "io", "--duration", "1"] + app)
    r.check_ok()
    for p in (0, 1):
        check(re.search(r"port %d \(net_pcap%d\): 1518-byte frames over 512-byte mbufs: as chains"
                        % (p, p), r.stderr) is not None, "no chains line for port %d\n%s" %
              (p, r.describe()))
    check_eq([mp["data_room"] for mp in r.stats["mempools"]], [640], "mempools' data_room")
    got = [read_pcap(o[0]) for o in outs]
    for p in (0, 1):
        check_frames(got[p ^ 1], inputs[p], "port %d's input leaving port %d" % (p, p ^ 1))
        for i, f in enumerate(got[p ^ 1]):
            e = Ether(f)
            check(bytes(e) == f and len(e) == len(inputs[p][i]),
                  "port %d frame %d: scapy reads %d bytes of %d" % (p ^ 1, i, len(e), len(f)))
    check_stats(r.stats, inputs, got)


@case
def io_mbuf_size(c):
    mbuf_size_case(c, ["--mbuf-size", "640"])


@case
def mbuf_size_config(c):
    mbuf_size_case(c, ["--config", write(c, "mbuf.ini", "[forward]\nmbuf-size = 640\n")])


@case
def bad_app_option_before_separator(c):
    r = c.run(None, ["--fwd", "io", "--"] + c.eal(null_vdevs()), timeout=20, stats=False)
    r.check_error(r"^'--fwd' is an application option: put it after \"--\"")


@case
def bad_app_option_after_eal_option(c):
    """An app option among the EAL options, not the first argument: the
    forwarder's hint must still name it instead of EAL's generic failure."""
    eal = c.eal(null_vdevs())
    r = c.run(None, eal[:4] + ["--fwd", "io"] + eal[4:] + ["--", "--duration", "1"],
              timeout=20, stats=False)
    r.check_error(r"^'--fwd' is an application option: put it after \"--\"")


@case
def bad_stray_eal_argument(c):
    """A word EAL does not consume ("--vdev net_null0 net_null1": a forgotten
    --vdev) must be reported, not silently dropped (it ran on one port)."""
    r = c.run(c.eal(["--vdev", "net_null0", "net_null1"]), ["--duration", "1"], timeout=20,
              stats=False)
    r.check_error(r"net_null1")


@case
def bad_config_missing(c):
    missing = c.path("no-such.ini")
    bad(c, ["--config", missing],
        r"^%s: cannot open config file: No such file or directory$" % missing)


@case
def bad_config_malformed(c):
    path = write(c, "bad.ini", "# comment\n[forward]\n\nfwd = io\nthis line is wrong\n")
    bad(c, ["--config", path], r"^%s:5: expected 'key = value'" % path)


@case
def bad_config_unknown_key(c):
    path = write(c, "bad.ini", "[forward]\nburst = 8\nbogus-key = 1\n")
    bad(c, ["--config", path], r"^%s:3: unknown key 'bogus-key'" % path)


@case
def bad_config_value(c):
    path = write(c, "bad.ini", "[forward]\nfwd = fastest\n")
    bad(c, ["--config", path], r"^%s:2: fwd: unknown mode 'fastest'" % path)


@case
def bad_map_port(c):
    bad(c, ["--map", "(0,0,1),(1,0,1),(2,0,1)"], r"^--map: port 2 does not exist \(2 ports")


@case
def bad_map_lcore_disabled(c):
    bad(c, ["--map", "(0,0,1),(1,0,5)"], r"^--map: lcore 5 is not enabled")


@case
def bad_map_main_lcore(c):
    """Lcore 0 has no lower core: the hint names what can be done instead (issue
    37.17: it told users to "add a core below" lcore 0)."""
    bad(c, ["--map", "(0,0,0),(1,0,1)"], r"^--map: lcore 0 is the main lcore .*map the queue to "
        r"another lcore of -l, or make another lcore the main one with --main-lcore N$")


@case
def bad_map_unmapped_queue(c):
    bad(c, ["--map", "(0,0,1),(0,2,1),(1,0,1)"], r"^--map: port 0 RX queue 1 is not mapped")


@case
def bad_map_syntax(c):
    bad(c, ["--map", "(0,0,1),(1,0"], r"^--map: expected ',' after queue 0")


@case
def bad_no_ports(c):
    bad(c, [], r"^no ports found", eal=c.eal([]))


@case
def bad_port_configure(c):
    vdevs, _ = c.pcap_ports([[mixed_frames(5, port=0)], [mixed_frames(5, port=1)]])
    bad(c, ["--map", "(0,0,1),(0,1,1),(1,0,1)"],
        r"^port 0 \(net_pcap0\): the map uses 2 RX queues but the port has 1$", eal=c.eal(vdevs))


@case
def bad_eal_option(c):
    bad(c, [], r"^EAL initialisation failed", eal=c.eal(null_vdevs()) + ["--bogus-eal-option"])


def hugepages_free():
    """Free hugepages of every size on this machine."""
    n = 0
    for d in glob.glob("/sys/kernel/mm/hugepages/hugepages-*"):
        with open(os.path.join(d, "free_hugepages")) as f:
            n += int(f.read())
    return n


@case
def own_prefix_cleaned(c):
    """Issue 37.16: the embedded default's prefix is the process's own, so
    its runtime dir goes at exit, a failed start-up included; a prefix the
    user gave is the user's (it may be shared with secondaries) and is left."""
    r = c.run(None, ["--", "--map", "(0,0,5)"], timeout=20, stats=False)
    r.check_error(r"^--map: lcore 5 is not enabled")
    d = runtime_dir("dpdk-forwarder-%d" % c.procs[-1].pid)
    check(not os.path.exists(d), "a failed start-up on the embedded default left %s" % d)
    eal = c.eal(null_vdevs())
    r = c.run(eal, ["--duration", "0.1"], stats=False)
    r.check_ok()
    d = runtime_dir(eal[eal.index("--file-prefix") + 1])
    check(os.path.isdir(d), "the user's --file-prefix dir %s was removed" % d)


@case
def eal_no_hugepages(c):
    """Issue 37.17: as root without hugepages EAL said `Permission denied`;
    the forwarder says there are none and what to do."""
    if hugepages_free() > 0:
        print("SKIP: this machine has free hugepages; the case needs none")
        return
    eal = ["--no-pci", "--file-prefix", c.prefix(), "--lcores", "0@0,1@1"] + null_vdevs()
    r = c.run(eal, ["--duration", "0.1"], timeout=30, stats=False)
    r.check_error(r"^EAL initialisation failed: no free hugepages \(\d+ reserved, none free\): "
                  r"run without them, with --no-huge -m 256, or reserve some, e\.g\. echo 256 > "
                  r"/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages$")


@case
def eal_prefix_clash(c):
    """Issue 37.17: a second forwarder on a file prefix a running one holds
    ended `EAL initialisation failed: Success`; it names the holder and
    --file-prefix, and the first one runs on."""
    eal = c.eal(null_vdevs())
    prefix = eal[eal.index("--file-prefix") + 1]
    first = c.start(eal, ["--stats-period", "0.2"])
    first.wait_line("=== stats", 30)
    r = c.run(eal, ["--duration", "0.1"], timeout=30, stats=False)
    r.check_error(r"^EAL initialisation failed: another DPDK process \(pid %d\) runs with the "
                  r"file prefix '%s' \(%s\): give this one its own with --file-prefix NAME$" %
                  (first.p.pid, re.escape(prefix), re.escape(runtime_dir(prefix))))
    check(first.p.poll() is None, "the first forwarder stopped\n" + first.describe())
    first.p.send_signal(signal.SIGINT)
    rc, _, _ = first.finish(20)
    check_eq(rc, 0, "the first forwarder's exit status")


@case
def bad_stats_file(c):
    """The run itself is fine, but the stats file cannot be written: say so, fail."""
    path = c.path("no-such-dir/stats.json")
    bad(c, ["--stats-file", path], r"^cannot write stats file %s: No such file" % path)


@case
def help(c):
    for argv in (["--", "--help"], ["--", "-h"], ["--", "--fwd", "mac", "--help"]):
        r = c.run(None, argv, timeout=20, stats=False)
        check_eq(r.rc, 0, "exit status of %s" % " ".join(argv))
        check("Usage:" in r.stdout and "--fwd MODE" in r.stdout and "--map" in r.stdout,
              "help lacks Usage/--fwd/--map\n" + r.describe())
        check_eq(r.error_lines(), [], "error lines from %s" % " ".join(argv))
        check("EAL:" not in r.stdout + r.stderr, "--help must not start EAL\n" + r.describe())


# ---------------------------------------------------------------- files written

def stats_to(c, path, extra=()):
    """A short net_null run writing its stats file to path."""
    return c.run(c.eal(null_vdevs()), ["--duration", "0.2", "--stats-file", path] + list(extra),
                 timeout=20, stats=False)


def check_json_stats(text, what):
    check(text.lstrip().startswith("{") and '"drops"' in text and text.rstrip().endswith("}"),
          "%s: not the stats JSON: %r" % (what, text[:200]))


@case
def stats_file_mode(c):
    """A new --stats-file has 0666 less the umask (022: 0644, 077: 0600),
    never world-writable; a replaced one keeps its mode, wider or narrower
    than the umask's."""
    import stat

    def mode_of(path):
        return stat.S_IMODE(os.stat(path).st_mode)

    old = os.umask(0o022)
    try:
        new = c.path("new.json")
        stats_to(c, new).check_ok()
        check_eq(oct(mode_of(new)), oct(0o644), "a new stats file under umask 022")
        os.umask(0o077)
        new2 = c.path("new2.json")
        stats_to(c, new2).check_ok()
        check_eq(oct(mode_of(new2)), oct(0o600), "a new stats file under umask 077")
        # replaced: its own mode, whatever the umask
        os.chmod(new, 0o664)
        stats_to(c, new).check_ok()
        check_eq(oct(mode_of(new)), oct(0o664), "a replaced file keeps 0664 under umask 077")
        os.umask(0o022)
        os.chmod(new2, 0o600)
        stats_to(c, new2).check_ok()
        check_eq(oct(mode_of(new2)), oct(0o600), "a replaced file keeps 0600 under umask 022")
    finally:
        os.umask(old)


@case
def stats_file_special(c):
    """--stats-file renames only onto regular files: a symlink keeps pointing at
    its (rewritten) target, a FIFO, a character device and /dev/stdout are written
    in place, a directory or a block device is refused before the run, and a
    write error (ENOSPC) fails the run."""
    import stat
    import threading

    target = write(c, "target.json", "old\n")
    os.chmod(target, 0o640)
    link = c.path("link.json")
    os.symlink("target.json", link)
    stats_to(c, link).check_ok()
    check(os.path.islink(link) and os.readlink(link) == "target.json",
          "the symlink was replaced: %r" % (os.lstat(link),))
    with open(target) as f:
        check_json_stats(f.read(), "the symlink's target")
    check_eq(stat.S_IMODE(os.stat(target).st_mode), 0o640, "the target's mode after the rename")
    check_eq(sorted(os.listdir(c.dir)).count("target.json"), 1, "files beside the target")
    check([n for n in os.listdir(c.dir) if ".tmp" in n] == [], "temporary files left")

    fifo = c.path("stats.fifo")
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo).read()), daemon=True)
    reader.start()
    stats_to(c, fifo).check_ok()
    reader.join(10)
    check(got, "nothing came out of the FIFO")
    check_json_stats(got[0], "the FIFO")
    check(stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO was replaced")
    # no reader: said at exit, not an endless wait
    stats_to(c, fifo).check_error(r"^cannot write stats file .*: nothing reads the FIFO$")

    r = stats_to(c, "/dev/stdout")
    r.check_ok()
    check_json_stats(r.stdout[r.stdout.index("{"):], "/dev/stdout (a pipe)")
    check(stat.S_ISCHR(os.stat("/dev/null").st_mode), "/dev/null")

    d = c.path("adir")
    os.mkdir(d)
    r = stats_to(c, d)
    r.check_error(r"^cannot write stats file .*adir: it is a directory$")
    check("=== final stats" not in r.stdout, "refused only after the run\n" + r.describe())
    check(os.path.isdir(d) and os.listdir(d) == [], "the directory was touched")

    if os.geteuid() != 0:
        print("skipped: device nodes made with mknod (not root)")
        return
    devs = {"null": os.makedev(1, 3), "full": os.makedev(1, 7), "loop": os.makedev(7, 0)}
    for name, dev in devs.items():
        os.mknod(c.path(name), (stat.S_IFBLK if name == "loop" else stat.S_IFCHR) | 0o600, dev)
    stats_to(c, c.path("null")).check_ok()
    stats_to(c, c.path("full")).check_error(
        r"^cannot write stats file .*full: No space left on device$")
    r = stats_to(c, c.path("loop"))
    r.check_error(r"^cannot write stats file .*loop: it is a block device")
    check("=== final stats" not in r.stdout, "block device refused only after the run")
    for name, dev in devs.items():
        st = os.lstat(c.path(name))
        check((stat.S_ISBLK(st.st_mode) if name == "loop" else stat.S_ISCHR(st.st_mode))
              and st.st_rdev == dev, "device node %s was replaced: %r" % (name, tuple(st)))


@case
def bad_tiny_duration(c):
    """A time that rounds to no tick would mean "forever": refused, not run."""
    for opt, v in (("--duration", "1e-10"), ("--stats-period", "1e-12"),
                   ("--duration", "0.0000000001")):
        r = c.run(c.eal(null_vdevs()), [opt, v], timeout=20, stats=False)
        r.check_error(r"^%s: '%s' is not 0 or decimal seconds from 0\.000001 to \d+$" %
                      (opt, re.escape(v)))

# ---------------------------------------------------------------- quoting user input

def run_bytes(c, eal, app, stdin=b""):
    """Run with bytes in and out (Case.run decodes, which would hide raw bytes)."""
    import subprocess
    p = subprocess.run(c._argv(eal, app), input=stdin, capture_output=True, timeout=30,
                       cwd=c.dir)
    return p.returncode, p.stdout, p.stderr


def check_printable(data, what):
    bad = sorted({b for b in data if not (0x20 <= b < 0x7f or b in b"\n\t")})
    check(not bad, "%s: unescaped bytes %s in %r" % (what, [hex(b) for b in bad], data[-600:]))


@case
def escape_user_input(c):
    """A message quoting a config line, an option value or a shell command writes
    what is not printable as \\xNN: a binary file or a terminal escape sequence
    must not reach the terminal raw."""
    hostile = b"\x1b[2J\x1b]0;owned\x07\xff\xfe\x9b"
    path = c.path("binary.ini")
    with open(path, "wb") as f:
        f.write(b"\x7fELF\x02\x01" + hostile + b"\n")
    rc, _, err = run_bytes(c, c.eal(null_vdevs()), ["--config", path])
    check(rc > 0, "a binary config file accepted")
    check_printable(err.split(b"dpdk-forwarder: error: ", 1)[-1], "binary config error")
    check(b"expected 'key = value'" in err and b"\\x7fELF\\x02\\x01\\x1b[2J" in err,
          "the config error does not quote the escaped line: %r" % err)

    with open(path, "wb") as f:
        f.write(b"[forward]\nburst = " + hostile + b"\n")
    rc, _, err = run_bytes(c, c.eal(null_vdevs()), ["--config", path])
    check(rc > 0 and b"burst: '\\x1b[2J" in err, "config value error: %r" % err)
    check_printable(err.split(b"dpdk-forwarder: error: ", 1)[-1], "config value error")

    rc, _, err = run_bytes(c, c.eal(null_vdevs()), ["--burst", hostile])
    check(rc > 0 and b"--burst: '\\x1b[2J" in err, "option value error: %r" % err)
    check_printable(err.split(b"dpdk-forwarder: error: ", 1)[-1], "option value error")

    rc, out, _ = run_bytes(c, c.eal(null_vdevs()), ["-i"],
                           stdin=b"port stop \xff\xfe\x9b\nquit\n")
    check_eq(rc, 0, "exit status of the shell")
    check(b"bad port '\\xff\\xfe\\x9b'" in out, "shell: bad port not quoted escaped: %r" %
          out[-800:])
    # (the echo of the typed line is the line editor's, rte_cmdline's; the answer is ours)
    answer = [l for l in out.splitlines() if l.startswith(b"bad port")]
    check_eq(len(answer), 1, "shell answers to the bad port")
    check_printable(answer[0], "shell answer")


# ------------------------------------------------- testpmd and l3fwd habits (issue 23)

@case
def eal_help(c):
    """-h / --help before "--" are EAL's: its usage, then the application's, exit 0."""
    for argv in (["-h"], ["--help"], ["--no-pci", "-h", "--"]):
        r = c.run(None, argv, timeout=20, stats=False)
        check_eq(r.rc, 0, "exit status of %s\n%s" % (" ".join(argv), r.describe()))
        check("EAL common options" in r.stdout, "no EAL usage\n" + r.describe())
        check("--fwd MODE" in r.stdout and "--forward-mode" in r.stdout and "-p HEX" in r.stdout,
              "no application usage (with the aliases) after EAL's\n" + r.describe())


@case
def testpmd_options(c):
    """testpmd's spellings after "--": --forward-mode, --mbcache, --nb-cores, --txq."""
    inputs = [mixed_frames(n, port=p) for p, n in zip(range(2), (120, 80))]
    vdevs, outs = c.pcap_ports([[f] for f in inputs])
    r = c.run(c.eal(vdevs), ["--forward-mode", "io", "--mbcache=64", "--nb-cores=1",
                             "--duration", "1"])
    r.check_ok()
    check_eq(r.stats["mode"], "io", "mode in the stats file")
    got = [read_pcap(o[0]) for o in outs]
    check_frames(got[1], inputs[0], "port 0's input leaving port 1")
    check_stats(r.stats, inputs, got)
    r = c.run(c.eal(null_vdevs()), ["--forward-mode=macswap", "--txq", "2", "--duration", "0.2"])
    r.check_ok()
    check_eq(r.stats["mode"], "macswap", "--forward-mode=macswap")
    check_eq(port_stats(r.stats, 0)["tx_queues"], 2, "--txq 2 on port 0")
    bad(c, ["--txq", "1", "--map", "(0,0,1),(0,1,2),(1,0,1)"],
        r"^--txq 1: port 1 needs 2 TX queues, one per lcore sending to it",
        eal=c.eal(null_vdevs(), lcores="0@0,1@1,2@1"))
    # --tx-first primes two looped rings, which carry nothing otherwise
    rings = ["--vdev", "net_ring0", "--vdev", "net_ring1"]
    for first in (False, True):
        r = c.run(c.eal(rings), (["--tx-first"] if first else []) + ["--duration", "0.3"])
        r.check_ok()
        rx = port_stats(r.stats, 0)["ipackets"]
        check(rx > 0 if first else rx == 0, "port 0 rx %d with tx_first %s" % (rx, first))
    check_eq(r.stats["mbufs_leaked"], 0, "the frames still looping at exit came back")
    # --nb-cores: the first N workers forward; a map may name at most N
    three = "0@0,1@1,2@1"
    r = c.run(c.eal(null_vdevs(), lcores=three), ["--nb-cores", "1", "--duration", "0.2"])
    r.check_ok()
    check_eq([lc["lcore"] for lc in r.stats["lcores"]], [1], "lcores forwarding with --nb-cores 1")
    r = c.run(c.eal(null_vdevs(), lcores=three), ["--duration", "0.2"])
    check_eq([lc["lcore"] for lc in r.stats["lcores"]], [1, 2], "lcores forwarding by default")
    bad(c, ["--nb-cores", "1", "--map", "(0,0,1),(1,0,2)"], r"^--nb-cores 1: the map names 2 lcores",
        eal=c.eal(null_vdevs(), lcores=three))
    bad(c, ["--nb-cores", "2"], r"^--nb-cores 2: only 1 worker lcore")
    bad(c, ["--forward-mod", "io"], r"^unknown option '--forward-mod'; did you mean --forward-mode\?")
    bad(c, ["--brust", "4"], r"^unknown option '--brust'; did you mean --burst\?")


@case
def l3fwd_portmask(c):
    """l3fwd's -p: only the masked ports are used; the others are neither polled
    nor started; a mask naming an absent port is refused."""
    inputs = [mixed_frames(n, port=p) for p, n in zip(range(3), (90, 70, 50))]
    vdevs, outs = c.pcap_ports([[f] for f in inputs])
    r = c.run(c.eal(vdevs), ["-p", "0x5", "--duration", "1"])
    r.check_ok()
    got = [read_pcap(o[0]) for o in outs]
    check_frames(got[2], inputs[0], "port 0's input leaving port 2 (paired over the mask)")
    check_frames(got[0], inputs[2], "port 2's input leaving port 0")
    check_eq(len(got[1]), 0, "frames sent out of port 1, outside the mask")
    p1 = port_stats(r.stats, 1)
    check_eq((p1["ipackets"], p1["rx_queues"], p1["tx_queues"]), (0, 0, 0),
             "port 1, outside the mask: polled or given queues")
    bad(c, ["-p", "0x7"], r"^-p 0x7: port 2 does not exist \(2 ports found\)")
    bad(c, ["-p", "0x1", "--map", "(0,0,1),(1,0,1)"], r"^--map: port 1 is not in the port mask")
    r = c.run(None, ["-p", "0x3", "--"] + c.eal(null_vdevs()), timeout=20, stats=False)
    r.check_error(r"^'-p' is an application option: put it after \"--\"")


@case
def l3fwd_config_list(c):
    """l3fwd's --config "(port,queue,lcore),...": taken as --map; a port left
    out of it is warned about; l3fwd's -l 1,2 layout names the main lcore and is
    refused with what to do."""
    inputs = [mixed_frames(n, port=p) for p, n in zip(range(2), (60, 40))]
    vdevs, outs = c.pcap_ports([[f] for f in inputs])
    r = c.run(c.eal(vdevs), ["--config", "(0,0,1),(1,0,1)", "--duration", "1"])
    r.check_ok()
    got = [read_pcap(o[0]) for o in outs]
    check_frames(got[1], inputs[0], "port 0's input leaving port 1")
    check_stats(r.stats, inputs, got)
    r = c.run(c.eal(null_vdevs()), ["--config", "(0,0,1)", "--duration", "0.2"], stats=False)
    r.check_ok()
    check("port 1 is in no --map entry: it is not polled" in r.stdout + r.stderr,
          "no warning for a port left out of the map\n" + r.describe())
    bad(c, ["--config", "(0,0,1),(1,0,2)"],
        r"^--map: lcore 1 is the main lcore .*give EAL a lower lcore for them \(e\.g\. -l 0,1,",
        eal=c.eal(null_vdevs(), lcores="1@0,2@1"))


if __name__ == "__main__":
    sys.exit(run_cases(sys.argv, CASES, "", "tests/e2e/meson.build"))
