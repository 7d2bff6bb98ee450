#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""--fwd pktgen end to end: the real binary generating into net_pcap (every
output packet parsed by scapy: count, sizes, checksums, flows) and into a
net_ring port that loops back to the receive side; every stop path leaves
the pools full.

    e2e_pktgen.py CASE
"""

import importlib.util
import os
import re
import signal
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import fwdtest as ft  # noqa: E402
from fwdtest import Fail, check, check_eq  # noqa: E402

from scapy.layers.inet import ICMP, IP, TCP, UDP  # noqa: E402
from scapy.layers.l2 import Dot1Q, Ether  # noqa: E402


def shell_module():
    """tests/shell/run.py (its Shell: the binary driven through a pseudo-terminal)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "shell", "run.py")
    spec = importlib.util.spec_from_file_location("shell_run", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def check_balance(st, looped):
    """The stop-time balance of a generator run: every packet the generators count as sent left
    through a port (nothing else sends in pktgen mode); looped back, every one of them was received
    and accounted by a receive side, none lost and none left in flight (a stopping worker drains
    what is still coming back); every packet a worker received is counted as pktgen_rx or
    port_down; every mempool is full."""
    check(st is not None, "no stats file written")
    check_eq(st["mbufs_leaked"], 0, "mbufs leaked")
    for mp in st["mempools"]:
        check_eq(mp["available"], mp["size"], "mempool %s full at exit" % mp["name"])
    gens = {g["lcore"]: g for g in st["pktgen"]}
    for lc in st["lcores"]:
        g = gens[lc["lcore"]]
        check_eq(lc["tx_pkts"], g["tx"]["tx_pkts"], "lcore %d: tx is its generator's" % lc["lcore"])
        check_eq(lc["rx_pkts"], lc["drops"]["pktgen_rx"] + lc["drops"]["port_down"],
                 "lcore %d: every packet received is accounted" % lc["lcore"])
        check_eq(lc["drops"]["pktgen_rx"], g["rx"]["rx_pkts"],
                 "lcore %d: pktgen_rx drops vs its receive side" % lc["lcore"])
    sent = sum(g["tx"]["tx_pkts"] for g in st["pktgen"])
    check_eq(sum(p["opackets"] for p in st["ports"]), sent, "ports' opackets vs generators' tx_pkts")
    for p in st["ports"]:
        check_eq(p["oerrors"], 0, "port %d oerrors" % p["port"])
    if looped:
        received = sum(g["rx"]["rx_pkts"] for g in st["pktgen"])
        check_eq(received, sent, "looped back: received vs sent (left in flight at stop?)")
        check_eq(sum(g["rx"]["foreign"] for g in st["pktgen"]), 0, "foreign packets")
        check_eq(sum(g["rx"]["lost"] for g in st["pktgen"]), 0, "lost")
        check_eq(sum(p["imissed"] + p["ierrors"] for p in st["ports"]), 0, "missed on receive")


def pktgen_counters(sh):
    """tx_pkts and the rx line's counters of lcore 1 from 'show pktgen'."""
    out = sh.cmd("show pktgen")
    tx = rx = None
    for line in out.splitlines():
        w = line.split()
        if line.startswith("pktgen lcore 1 tx:"):
            tx = dict(zip(w[4::2], map(int, w[5::2])))
        elif line.startswith("pktgen lcore 1 rx:"):
            rx = dict(zip(w[4::2], map(int, w[5::2])))
    check(tx is not None and rx is not None, "no counters in: %r" % out)
    return tx, rx


def config(c, **keys):
    path = c.path("pg%d.ini" % len(c.prefixes))
    with open(path, "w") as f:
        f.write("[forward]\nfwd = pktgen\n[pktgen]\n")
        for k, v in keys.items():
            f.write("%s = %s\n" % (k.replace("_", "-"), v))
    return path


def run_to_pcap(c, **keys):
    """Generate with the given [pktgen] keys out of port 1 into a pcap; returns (frames, stats)."""
    out = c.path("out%d.pcap" % len(c.prefixes))
    vdevs = ["--vdev", "net_pcap0,tx_pcap=" + c.path("unused%d.pcap" % len(c.prefixes)),
             "--vdev", "net_pcap1,tx_pcap=" + out]
    r = c.run(c.eal(vdevs), ["--config", config(c, **keys)], timeout=60)
    r.check_ok()
    check_balance(r.stats, looped=False)
    return ft.read_pcap(out), r.stats


def check_packet(raw, proto, sizes, what):
    """One generated frame: parses, checksums right, size in range (FCS excluded)."""
    p = Ether(raw)
    check(IP in p, "%s: not IPv4" % what)
    ip = p[IP]
    want_ip = IP(bytes(ip))
    del want_ip.chksum
    check_eq(ip.chksum, IP(bytes(want_ip)).chksum, "%s: IPv4 checksum" % what)
    l4 = {"udp": UDP, "tcp": TCP, "icmp": ICMP}[proto]
    check(l4 in p, "%s: no %s header" % (what, proto))
    recomputed = l4(bytes(p[l4]))
    got = recomputed.chksum
    del recomputed.chksum
    if proto == "icmp":
        fresh = ICMP(bytes(recomputed))
    else:
        fresh = (IP(src=ip.src, dst=ip.dst, proto=ip.proto) / recomputed)
        fresh = IP(bytes(fresh))[l4]
    check_eq(got, fresh.chksum, "%s: %s checksum" % (what, proto))
    check(sizes[0] <= len(raw) + 4 <= sizes[1],
          "%s: %d bytes with FCS, want %d-%d" % (what, len(raw) + 4, sizes[0], sizes[1]))


def case_count_matrix(c):
    """Exactly `count` packets leave, for counts not multiple of the burst or the clone."""
    for count in (1, 33, 257):
        for clone in (1, 3, 16):
            for burst in (1, 7, 32):
                frames, st = run_to_pcap(c, proto="udp", size=64, count=count, clone=clone,
                                         burst=burst, flows=4)
                what = "count %d clone %d burst %d" % (count, clone, burst)
                check_eq(len(frames), count, what + ": packets out")
                check_eq(ft.port_stats(st, 1)["opackets"], count, what + ": port counter")
                check_eq(st["pktgen"][0]["tx"]["tx_pkts"], count, what + ": generator counter")
                check_packet(frames[-1], "udp", (64, 64), what + ", last packet")


def case_streams(c):
    """Protocols, sizes, VLAN and flows: every packet checked."""
    for proto in ("udp", "tcp", "icmp"):
        frames, _ = run_to_pcap(c, proto=proto, size="64-1518", count=200, flows=8,
                                src_port="1000-1007", burst=16)
        check_eq(len(frames), 200, proto + ": count")
        for i, f in enumerate(frames):
            check_packet(f, proto, (64, 1518), "%s packet %d" % (proto, i))
        sizes = {len(f) for f in frames}
        check(len(sizes) > 20, "%s: range of sizes used (%d distinct)" % (proto, len(sizes)))
    frames, _ = run_to_pcap(c, proto="udp", size="imix", count=120, flows=3,
                            src_ip="10.0.0.1-10.0.0.3", vlan=100)
    # IMIX 7:4:1 of 64/576/1500 bytes on the wire (FCS included, the VLAN tag inside them)
    sizes = [len(f) + 4 for f in frames]
    check_eq(sorted(set(sizes)), [64, 576, 1500], "imix sizes")
    check_eq([sizes.count(n) for n in (64, 576, 1500)], [70, 40, 10], "imix weights 7:4:1")
    srcs = {}
    for i, f in enumerate(frames):
        p = Ether(f)
        check(Dot1Q in p and p[Dot1Q].vlan == 100, "packet %d: VLAN 100" % i)
        srcs[p[IP].src] = srcs.get(p[IP].src, 0) + 1
    check_eq(sorted(srcs), ["10.0.0.1", "10.0.0.2", "10.0.0.3"], "flows over the source range")
    check(max(srcs.values()) - min(srcs.values()) <= 1, "round-robin spreads flows evenly")


def case_loopback(c):
    """net_ring loops the generated packets back: the receive side counts them all, in order."""
    r = c.run(c.eal(["--vdev", "net_ring0"]),
              ["--config", config(c, proto="udp", size="64-256", count=5000, flows=16, clone=4),
               "--port-topology", "loop"], timeout=60)
    r.check_ok()
    rx = r.stats["pktgen"][0]["rx"]
    check_eq(rx["rx_pkts"], 5000, "received")
    check_eq(rx["signed_pkts"], 5000, "carrying our signature")
    check_eq((rx["lost"], rx["reorder"], rx["dup"]), (0, 0, 0), "loss, reorder, duplicates")
    check(0 < rx["lat_min_ns"] <= rx["lat_avg_ns"] <= rx["lat_max_ns"], "latency measured")
    hist = r.stats["pktgen"][0]["lat_hist"]
    check_eq((len(hist), sum(hist)), (33, 5000), "latency histogram: 33 buckets, one per signed packet")
    lo = min(i for i, n in enumerate(hist) if n)
    hi = max(i for i, n in enumerate(hist) if n)
    check(lo == 0 or 2 ** (lo - 1) <= rx["lat_min_ns"] < 2 ** lo, "lowest bucket holds lat_min_ns")
    check(hi == 32 or 2 ** (hi - 1) <= rx["lat_max_ns"] < 2 ** hi, "highest bucket holds lat_max_ns")
    check_eq(r.stats["drops"]["pktgen_rx"], 5000, "received packets counted as pktgen_rx")
    check_balance(r.stats, looped=True)


def case_loopback_doc(c):
    """The loopback of docs/pktgen.md, endless and stopped by --duration in mid-stream: what is
    still in the ring when the run ends is received before the leak check (it reported a leak of
    the generator's fragpool and exited 1); sent == received."""
    r = c.run(c.eal(["--vdev", "net_ring0"]),
              ["--fwd", "pktgen", "--port-topology", "loop", "--duration", "1"], timeout=60)
    r.check_ok()
    check("leak" not in r.stderr, "a leak reported:\n" + r.stderr[-1500:])
    check(r.stats["pktgen"][0]["tx"]["tx_pkts"] > 1000, "it was generating")
    check_balance(r.stats, looped=True)


def case_loopback_ring(c):
    """Two workers, each generating into the other's ring (paired net_ring ports): a stopping
    worker drains its queues until they are quiet, so what the other sent last is received."""
    r = c.run(c.eal(["--vdev", "net_ring0", "--vdev", "net_ring1"], lcores="0@0,1@1,2@1"),
              ["--config", config(c, flows=4, size="64-512"), "--duration", "1"], timeout=60)
    r.check_ok()
    check_eq(len(r.stats["pktgen"]), 2, "two generators")
    check_balance(r.stats, looped=True)


def case_sigterm(c):
    """An endless clone stream stopped by SIGTERM: exit 0, every reference settled."""
    run = c.start(c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]),
                  ["--config", config(c, count=0, clone=8, size=64), "--stats-period", "0.2",
                   "--stats-file", c.path("s.json")])
    run.wait_line("=== stats", 20)
    run.p.send_signal(signal.SIGTERM)
    rc, out, err = run.finish(20)
    check_eq(rc, 0, "exit status\n" + err[-1500:])
    st = ft.load_stats(c.path("s.json"))
    check_eq(st["mbufs_leaked"], 0, "mbufs leaked (clone references not settled?)")
    check(st["pktgen"][0]["tx"]["tx_pkts"] > 1000, "it was generating")
    check_balance(st, looped=False)


def sent_so_far(pcap):
    """Frames in a pcap the forwarder is still writing (a half-written record counts 0)."""
    try:
        return ft.pcap_count(pcap)
    except (OSError, Fail):
        return 0


def case_shell(c):
    """pktgen set/start/stop/show from the shell; a bad key or value leaves the stream as it was."""
    out = c.path("out.pcap")
    vdevs = ["--vdev", "net_pcap0,tx_pcap=" + c.path("u.pcap"), "--vdev", "net_pcap1,tx_pcap=" + out]
    cmds = ("pktgen set count 40\npktgen set size 128\npktgen set nosuch 1\n"
            "pktgen set size 5\nshow pktgen\npktgen start\n")
    p = subprocess.Popen(c._argv(c.eal(vdevs), ["-i", "--config", config(c, count=10, size=64),
                                                "--stats-file", c.path("s.json")]),
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, cwd=c.dir)
    p.stdin.write(cmds)
    p.stdin.flush()
    # end of input quits: give the 40 packets time to leave first (no fixed wait: poll the pcap)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and sent_so_far(out) < 40:
        time.sleep(0.05)
    stdout, stderr = p.communicate(timeout=30)
    p.stdout, p.stderr = stdout, stderr
    check_eq(p.returncode, 0, "exit status\n" + stderr[-1500:])
    check("pktgen count = 40" in p.stdout, "count set")
    check("unknown key 'nosuch'" in p.stdout, "unknown key refused")
    check("is not N, MIN-MAX" in p.stdout, "bad size refused")
    check("size = 128" in p.stdout, "show pktgen shows the stream")
    frames = ft.read_pcap(out)
    check_eq(len(frames), 40, "packets after pktgen start")
    check_eq({len(f) for f in frames}, {124}, "128-byte frames (124 without FCS)")
    st = ft.load_stats(c.path("s.json"))
    check_eq(st["mbufs_leaked"], 0, "mbufs leaked")


def case_restart(c):
    """pktgen start, stop, start, then set (which rebuilds the generators and their fragpool
    templates): every run sends its whole count, sequence numbers go on across a restart and start
    over after a set, and nothing leaks at the end."""
    out = c.path("out.pcap")
    vdevs = ["--vdev", "net_pcap0,tx_pcap=" + c.path("u.pcap"), "--vdev", "net_pcap1,tx_pcap=" + out]
    p = subprocess.Popen(c._argv(c.eal(vdevs), ["-i", "--config", config(c, count=20, size=64),
                                                "--stats-file", c.path("s.json")]),
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, cwd=c.dir)

    def send_and_wait(cmds, frames):
        p.stdin.write(cmds)
        p.stdin.flush()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and sent_so_far(out) < frames:
            time.sleep(0.05)

    send_and_wait("pktgen start\n", 20)
    send_and_wait("pktgen stop\npktgen start\n", 40)
    send_and_wait("pktgen set size 100\n", 60)
    stdout, stderr = p.communicate(timeout=30)
    p.stdout, p.stderr = stdout, stderr
    check_eq(p.returncode, 0, "exit status\n" + stderr[-1500:])
    frames = ft.read_pcap(out)
    check_eq(len(frames), 60, "three runs of 20")
    check_eq([len(f) for f in frames], [60] * 40 + [96] * 20, "sizes: 64, 64, then 100 after set")
    seqs = []
    for raw in frames:
        pkt = Ether(raw)
        check(pkt.haslayer(UDP), "UDP frame")
        payload = bytes(pkt[UDP].payload)
        check_eq(payload[0], 0xA7, "signature magic")
        seqs.append(int.from_bytes(payload[4:8], sys.byteorder))
    check_eq(seqs, list(range(40)) + list(range(20)), "sequence numbers")
    st = ft.load_stats(c.path("s.json"))
    check_eq(st["mbufs_leaked"], 0, "mbufs leaked")


def case_set_flows(c):
    """pktgen set flows 64: the receive side accounts the 64 flows (it stayed at 1: foreign 6300,
    signed_pkts 100 of 6400); loss and order measured for every flow."""
    sh = shell_module().Shell(c, c.eal(["--vdev", "net_ring0"]),
                              ["--config", config(c, count=100), "--port-topology", "loop"])
    check("pktgen flows = 64" in sh.cmd("pktgen set flows 64"), "flows set")
    check("pktgen count = 6400" in sh.cmd("pktgen set count 6400"), "count set")
    check("generating" in sh.cmd("pktgen start"), "pktgen start")
    shell_module().wait_for(lambda: pktgen_counters(sh)[1]["rx_pkts"] >= 6400, "6400 back", 20)
    sh.cmd("stop")
    st = sh.quit()
    rx = st["pktgen"][0]["rx"]
    check_eq((rx["rx_pkts"], rx["signed_pkts"], rx["foreign"]), (6400, 6400, 0),
             "received, signed, foreign")
    check_eq((rx["lost"], rx["reorder"], rx["dup"], rx["late"]), (0, 0, 0, 0),
             "loss, reorder, duplicates, late")
    check_balance(st, looped=True)


def case_rebuild_fails(c):
    """A pktgen set whose new generator does not fit beside the running one (4000 9 KB templates
    each, -m 128) is refused and the running generator goes on untouched; start, stop and quit
    work (the previous generator was freed and could not be rebuilt either: SIGSEGV in
    pktgen_lcore_done(NULL))."""
    sh_mod = shell_module()
    sh = sh_mod.Shell(c, c.eal(["--vdev", "net_ring0"], mem=128),
                      ["--config", config(c, size=9018, mbufs=4000), "--port-topology", "loop"])
    check("generating" in sh.cmd("pktgen start"), "pktgen start")
    sh_mod.wait_for(lambda: pktgen_counters(sh)[0]["tx_pkts"] > 0, "generating", 30)
    out = sh.cmd("pktgen set count 10", timeout=30)
    check("lcore 1: cannot create the generator: cannot create its fragpool" in out and
          "Cannot allocate memory; keeping the previous stream" in out, out)
    before = pktgen_counters(sh)[0]["tx_pkts"]
    sh_mod.wait_for(lambda: pktgen_counters(sh)[0]["tx_pkts"] > before, "still generating", 20)
    check("count = 0" in sh.cmd("show pktgen"), "the previous stream kept")
    sh.cmd("stop")
    check("forwarding started" in sh.cmd("start"), "start after the failed set")
    check("generating" in sh.cmd("pktgen start"), "pktgen start after the failed set")
    sh.cmd("stop")
    st = sh.quit()
    check("pools kept" not in "".join(sh.log), "a generator's pools kept")
    check_balance(st, looped=True)


def case_many_sets(c):
    """250 pktgen set on a looped generator: each replaced generator's pools are freed (they
    were kept while the ring held its last burst, ~190 sets exhausted -m 512); exit clean."""
    sh_mod = shell_module()
    sh = sh_mod.Shell(c, c.eal(["--vdev", "net_ring0"], mem=256),
                      ["--fwd", "pktgen", "--port-topology", "loop"])
    check("generating" in sh.cmd("pktgen start"), "pktgen start")
    for i in range(250):
        out = sh.cmd("pktgen set seed %d" % (i + 2), timeout=30)
        check("pktgen seed = %d" % (i + 2) in out, "set %d refused: %r" % (i, out))
    before = pktgen_counters(sh)[0]["tx_pkts"]
    sh_mod.wait_for(lambda: pktgen_counters(sh)[0]["tx_pkts"] > before, "still generating", 20)
    sh.cmd("stop")
    st = sh.quit()
    check("pools kept" not in "".join(sh.log), "a replaced generator's pools kept")
    check_eq(st["mbufs_leaked"], 0, "mbufs leaked")


def case_pcap_bad(c):
    """A replay of a file that is not a pcap, of a capture that is not Ethernet, of a directory:
    exit 1 saying what is wrong with the file (it said 'No such file or directory' for all)."""
    text = c.path("notes.txt")
    with open(text, "w") as f:
        f.write("not a capture\n")
    raw = c.path("raw.pcap")  # link type 101 (LINKTYPE_RAW): IPv4 without an Ethernet header
    with open(raw, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 101))
        f.write(struct.pack("<IIII", 0, 0, 28, 28) + bytes([0x45]) + bytes(27))
    for path, why in ((text, r"not a pcap or pcapng capture \(unknown file format\)"),
                      (raw, r"link type 12 \(RAW\) is not Ethernet"),
                      (c.dir, r"is a directory, not a capture file"),
                      (c.path("none.pcap"), r"cannot open: No such file or directory")):
        r = c.run(c.eal(["--vdev", "net_null0"]), ["--config", config(c, pcap=path)])
        check(r.rc == 1, "%s: exit 1, got %r" % (path, r.rc))
        r.check_error(r"lcore 1: cannot create the generator: pcap .*: " + why)


def case_bad_config(c):
    r = c.run(c.eal(["--vdev", "net_null0"]), ["--config", config(c, clone=999)])
    check(r.rc == 1, "exit 1 for a bad [pktgen] value, got %r" % r.rc)
    r.check_error(r"pg\d+\.ini:4: ")
    r = c.run(c.eal(["--vdev", "net_null0"]), ["--config", config(c, colour="red")])
    r.check_error(r"unknown key 'colour' in \[pktgen\]")


def case_rate_short(c):
    """A rate the generator cannot reach (100 Mpps on one lcore): it says so, once a second, with
    the rate asked and the rate sent, and counts the seconds it fell short (pace_short) in the
    stats file (it said nothing: only pace_forgiven grew, issue 37)."""
    r = c.run(c.eal(["--vdev", "net_null0"]),
              ["--config", config(c, rate="100mpps", size=64), "--duration", "3.5"], timeout=60)
    r.check_ok()
    tx = r.stats["pktgen"][0]["tx"]
    check(tx["pace_short"] >= 1, "pace_short %d: the seconds it fell short" % tx["pace_short"])
    check(tx["pace_forgiven"] > 0, "pace_forgiven")
    said = [ln for ln in (r.stdout + r.stderr).splitlines()
            if "pktgen lcore 1: 100.000 Mpps asked," in ln]
    check(said, "no warning of the rate it cannot reach:\n" + r.stderr[-1500:])
    check("Mpps sent in the last" in said[0] and "cannot go faster" in said[0], said[0])
    # once a second at most: a 3.5 s run
    check(len(said) <= 4, "%d warnings in 3.5 s" % len(said))
    check_balance(r.stats, looped=False)


def case_lcore_line(c):
    """The lcore line of a generator: what its receive side took is 'measured', not 'dropped'
    (they showed as dropped); the line and the drops line still add up."""
    r = c.run(c.eal(["--vdev", "net_ring0"]),
              ["--config", config(c, count=3000), "--port-topology", "loop"], timeout=60)
    r.check_ok()
    blocks = ft.stats_blocks_text(r.stdout)
    check(blocks, "no stats block in:\n" + r.stdout[-1500:])
    b = ft.check_stats_block(blocks[-1][1], final=True)
    lc = b["lcores"][0]
    check_eq((lc["rx"], lc["dropped"], lc["extras"].get("measured")), (3000, 0, 3000),
             "lcore line: rx, dropped, measured\n" + blocks[-1][1])
    check("pktgen_rx" not in b["drops"], "pktgen_rx on the drops line\n" + blocks[-1][1])
    check_balance(r.stats, looped=True)


def case_trace_keeps_run(c):
    """trace start while generating stops the workers for a moment, not the run: the generator
    goes on (it ended its run at any worker stop), and stop's statistics (RX/TX-packets since
    start) count from the start, not from the trace command."""
    sh_mod = shell_module()
    sh = sh_mod.Shell(c, c.eal(["--vdev", "net_ring0"]),
                      ["--config", config(c, rate="20kpps"), "--port-topology", "loop"])
    check("generating" in sh.cmd("pktgen start"), "pktgen start")
    grows(sh, 0, "the generator before trace start")
    before = pktgen_counters(sh)[0]["tx_pkts"]
    out = sh.cmd("trace start 4")
    check("error" not in out.lower(), "trace start: " + out)
    grows(sh, pktgen_counters(sh)[0]["tx_pkts"], "the generator after trace start")
    out = sh.cmd("stop")
    acc = out[out.find("Accumulated"):]
    tx = [int(w) for w in re.findall(r"TX-packets: (\d+)", acc)]
    check(len(tx) == 1, "no accumulated TX-packets in:\n" + out)
    st = sh.quit()
    sent = sum(p["opackets"] for p in st["ports"])
    check(tx[0] > before, "stop's TX-packets %d, %d sent before the trace start" % (tx[0], before))
    check_eq(tx[0], sent, "stop's TX-packets vs the port's opackets (the whole run)")


def grows(sh, base, what, more=200, stall=20):
    """Wait until the generator's tx_pkts passed @base + @more; fail only when it stood still for
    @stall s (a busy machine is slow, not broken). Its tx_pkts then."""
    last, t = None, time.monotonic()
    while True:
        tx = pktgen_counters(sh)[0]["tx_pkts"]
        if tx > base + more:
            return tx
        if tx != last:
            last, t = tx, time.monotonic()
        elif time.monotonic() - t > stall:
            raise Fail("%s: tx_pkts stayed at %d for %d s (wanted more than %d)" % (
                what, tx, stall, base + more))
        time.sleep(0.05)


def case_pause_keeps_run(c):
    """A counted run through the changes that stop the workers for a moment (set burst, trace
    start, the port stopped and started): the generator goes on after each (a
    stopped port holds it), and sends its count exactly, every packet received back in sequence
    (none lost, none twice), every reference settled."""
    n = 30000
    sh_mod = shell_module()
    sh = sh_mod.Shell(c, c.eal(["--vdev", "net_ring0"]),
                      ["--config", config(c, rate="20kpps", count=n), "--port-topology", "loop"])
    check("generating" in sh.cmd("pktgen start"), "pktgen start")
    tx = grows(sh, 0, "the generator at start")
    # (net_ring cannot stop a queue: a stopped TX queue holds the generator as a stopped port
    # does, through the same port state)
    for cmd in ("set burst 16", "trace start 4", "port stop 0", "port start 0", "set burst 32"):
        out = sh.cmd(cmd)
        check("error" not in out.lower() and "bad" not in out.lower(), "%s: %s" % (cmd, out))
        if cmd.endswith("stop") or cmd.startswith("port stop"):
            # held while its port or queue is stopped: nothing sent (a moment for the workers)
            held = pktgen_counters(sh)[0]["tx_pkts"]
            time.sleep(0.3)
            check_eq(pktgen_counters(sh)[0]["tx_pkts"], held, "tx_pkts while %s (%r)" % (cmd, out))
            continue
        tx = grows(sh, pktgen_counters(sh)[0]["tx_pkts"], "the generator after " + cmd, more=100)
    # the rest of the count, then the run ends by itself
    last, t = None, time.monotonic()
    while True:
        tx, rx = pktgen_counters(sh)
        if tx["tx_pkts"] >= n and rx["rx_pkts"] >= n:
            break
        if (tx["tx_pkts"], rx["rx_pkts"]) != last:
            last, t = (tx["tx_pkts"], rx["rx_pkts"]), time.monotonic()
        elif time.monotonic() - t > 20:
            raise Fail("the count: tx %d rx %d of %d, no progress for 20 s" % (
                tx["tx_pkts"], rx["rx_pkts"], n))
        time.sleep(0.05)
    st = sh.quit()
    g = st["pktgen"][0]
    check_eq(g["tx"]["tx_pkts"], n, "sent: the count exactly")
    check_eq(g["rx"]["rx_pkts"], n, "received back")
    check_eq(g["rx"]["lost"], 0, "lost")
    check_balance(st, looped=True)


CASES = {n[5:]: f for n, f in globals().items() if n.startswith("case_")}


if __name__ == "__main__":
    sys.exit(ft.run_cases(sys.argv, CASES, "pktgen-", "tests/pktgen/meson.build"))
