#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""Issue 19's fault list, each fault a test (docs/reliability.md, "Faults"):
the forwarder must end with a clear message or a counted drop, and keep
serving or exit cleanly, never hang.

    DPDK_FORWARDER=build/app/dpdk-forwarder tests/e2e/faults.py CASE
    tests/e2e/faults.py --list
"""

import os
import re
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import fwdtest as ft  # noqa: E402
from fwdtest import Fail, check, check_eq, run_cases  # noqa: E402

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def null_vdevs():
    return ["--vdev", "net_null0", "--vdev", "net_null1"]


def check_pools_back(stats):
    """Every mempool back to its starting count, no mbuf leaked (any test may call it)."""
    check(stats is not None, "no stats file written")
    check_eq(stats["mbufs_leaked"], 0, "mbufs_leaked")
    for mp in stats["mempools"]:
        check_eq(mp["available"], mp["size"], "mempool %s available at exit" % mp["name"])


# ---------------------------------------------------------------- input files

def probe_fails(c, rx_pcap, why):
    """A net_pcap port whose rx_pcap cannot be read: EAL only logs the failed
    probe; the forwarder must refuse to run with the port missing (it ran
    with the other ports renumbered)."""
    vdevs = ["--vdev", "net_pcap0,rx_pcap=%s,tx_pcap=%s" % (rx_pcap, c.path("out0.pcap")),
             "--vdev", "net_null1"]
    r = c.run(c.eal(vdevs), ["--duration", "1"], timeout=30, stats=False)
    r.check_error(r"^device net_pcap0 failed to probe")
    check(why in r.stderr, "EAL's reason %r not shown\n%s" % (why, r.describe()))
    check("=== final stats" not in r.stdout, "it forwarded without the port\n" + r.describe())


@case
def missing_pcap(c):
    probe_fails(c, c.path("no-such.pcap"), "No such file or directory")


@case
def unreadable_pcap(c):
    """As root (CI) chmod 000 does not stop a read: a directory and a file that
    is no pcap stand for an unreadable input."""
    probe_fails(c, c.dir, "Is a directory")
    path = c.path("notes.txt")
    with open(path, "w") as f:
        f.write("this is not a pcap file\n" * 20)
    probe_fails(c, path, "unknown file format")
    # and a net_fec model whose pcap wire cannot be opened (a FEC model fault at probe)
    if os.environ.get("FWD_FEC_PMD", "1") == "0":
        return
    vdevs = ["--vdev", "net_fec0,backend=model,mode=thread,wire=pcap:[%s,%s]" %
             (c.path("no-such.pcap"), c.path("fec-out.pcap")), "--vdev", "net_null1"]
    r = c.run(c.eal(vdevs), ["--duration", "1"], timeout=30, stats=False)
    r.check_error(r"^device net_fec0 failed to probe")


# ---------------------------------------------------------------- buffers and rings

@case
def small_mempool(c):
    """A pool below what the RX and TX rings and the lcores can hold stalls the
    ports for good (RX without buffers, nothing sent to free one): refused with
    the figure; with that figure it forwards, every mbuf back."""
    ft.need_fec_pmd()
    vdevs = ["--vdev", "net_null0", "--vdev", "net_fec0,backend=model,mode=thread,wire=loop"]
    r = c.run(c.eal(vdevs), ["--total-num-mbufs", "1200", "--duration", "1"], timeout=30,
              stats=False)
    r.check_error(r"^--total-num-mbufs 1200: socket 0 needs at least (\d+) ")
    need = int(re.search(r"needs at least (\d+)", r.error_lines()[0]).group(1))
    check(need > 1200, "the minimum %d is not above what was refused" % need)
    r = c.run(c.eal(vdevs), ["--total-num-mbufs", str(need), "--duration", "1"], timeout=30)
    r.check_ok()
    check_eq(r.stats["mempools"][0]["size"], need, "pool size")
    fec = ft.port_stats(r.stats, 1)
    check(fec["ipackets"] > 0 and fec["opackets"] > 0, "net_fec0 did not forward: %r" % fec)
    check_pools_back(r.stats)
    ft.check_balance(r.stats)
    # small rings under the same load: before 336ed16 (TX reclaim bounded by the frames in
    # flight) net_fec crashed in fec_rx_burst() in 2 runs of 3
    for rings in (["--txd", "128"], ["--rxd", "128", "--txd", "256"]):
        r = c.run(c.eal(vdevs), rings + ["--duration", "1"], timeout=30)
        r.check_ok()
        check("violation" not in r.stderr, "the FEC model saw a driver violation\n" +
              r.describe())
        check_pools_back(r.stats)
        ft.check_balance(r.stats)


@case
def tx_ring_full(c):
    """Port 1 is a net_ring nobody reads (not in the map): its ring fills, then
    every frame sent to it is a tx_full drop; port 0 keeps receiving; at exit the
    frames on the ring come back to the pool."""
    frames = ft.mixed_frames(64, port=0, max_size=200)
    inp = ft.write_pcap(c.path("in0.pcap"), frames)
    vdevs = ["--vdev", "net_pcap0,rx_pcap=%s,infinite_rx=1" % inp, "--vdev", "net_ring0"]
    r = c.run(c.eal(vdevs), ["--map", "(0,0,1)", "--duration", "1"], timeout=30)
    r.check_ok()
    s = r.stats
    p0, p1 = ft.port_stats(s, 0), ft.port_stats(s, 1)
    check(s["drops"]["tx_full"] > 0, "no tx_full drop counted: %r" % s["drops"])
    check(0 < p1["opackets"] < 4096, "net_ring took %d frames: want up to its ring" %
          p1["opackets"])
    check_eq(p0["ipackets"], p1["opackets"] + sum(s["drops"].values()),
             "port 0 received vs sent into the ring + drops")
    check(p0["ipackets"] > 10 * p1["opackets"], "port 0 stopped receiving when the ring filled")
    # the ring took the first frames of the replay, in order, and its bytes are
    # theirs alone (net_ring counts none: the forwarder does, less what was refused)
    want = sum(len(frames[i % len(frames)]) for i in range(p1["opackets"]))
    check_eq(p1["obytes"], want, "port 1's bytes: the frames the ring took")
    check_pools_back(s)
    ft.check_balance(s)


@case
def port_start_fails(c):
    """A port that fails to start: net_pcap opens its tx_pcap again at every
    start, so with the file's directory gone `port start` fails. The forwarder
    says so, keeps the port stopped (its frames count as port_down), goes on
    forwarding and exits cleanly with every mbuf back."""
    d = c.path("gone")
    os.mkdir(d)
    cmds = c.path("cmds.txt")
    with open(cmds, "w") as f:
        f.write("port stop 1\nsleep 3\nport start 1\nshow port summary all\nstart\n"
                "sleep 0.5\nstop\nquit\n")
    vdevs = ["--vdev", "net_null0", "--vdev", "net_pcap1,tx_pcap=%s" % os.path.join(d, "o.pcap")]
    sfile = c.path("stats.json")
    run = c.start(c.eal(vdevs), ["--cmdline-file", cmds, "--stats-file", sfile])
    run.wait_line("port 1 stopped", 30)
    os.unlink(os.path.join(d, "o.pcap"))
    os.rmdir(d)  # the next start cannot open the pcap again
    rc, out, err = run.finish(30)
    check_eq(rc, 0, "exit status\n" + run.describe())
    check(re.search(r"port 1 \(net_pcap1\): start failed: ", out) is not None,
          "no message for the failed start\n" + run.describe())
    check(re.search(r"^1 +\S+ +net_pcap1 +net_pcap +stopped", out, re.M) is not None,
          "port 1 is not shown stopped\n" + out[-2000:])
    check("=== final stats" in out, "no final stats")
    s = ft.load_stats(sfile)
    check(s["drops"]["port_down"] > 0, "frames for the stopped port not counted: %r" %
          s["drops"])
    check_pools_back(s)
    ft.check_balance(s)


# ---------------------------------------------------------------- routes and neighbours

# net_pcap port 0's MAC (the PMD derives it from the index): what the router accepts
PORT0_MAC = "02:70:63:61:70:00"

ROUTER = """[forward]
fwd = route
[port 0]
ip = 10.0.0.1/24
[port 1]
ip = 10.1.0.1/24
[route]
route = 172.16.0.0/16 via 10.1.0.2
[neigh]
10.1.0.2 = 02:00:00:00:01:02
"""


@case
def route_neigh_del_traffic(c):
    """Under full traffic, the neighbour of the only route is deleted (frames
    wait for ARP, then are counted as ARP drops), put back (traffic flows
    again), then the route itself is deleted (no_route counted, ICMP errors)
    and put back. The shell answers throughout; every frame is counted."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "shell"))
    from run import Shell, port_counter, wait_for  # noqa: E402
    from scapy.layers.inet import IP, UDP
    from scapy.layers.l2 import Ether
    cfg = c.path("router.ini")
    with open(cfg, "w") as f:
        f.write(ROUTER)
    frames = [bytes(Ether(src="02:00:00:00:00:09", dst=PORT0_MAC) /
                    IP(src="10.0.0.9", dst="172.16.0.%d" % (i + 1), ttl=64) /
                    UDP(sport=1000 + i, dport=2000) / (b"x" * 40)) for i in range(16)]
    inp = ft.write_pcap(c.path("in0.pcap"), frames)
    empty = ft.write_pcap(c.path("empty.pcap"), [])
    vdevs = ["--vdev", "net_pcap0,rx_pcap=%s,infinite_rx=1" % inp,
             "--vdev", "net_pcap1,rx_pcap=%s" % empty]
    sh = Shell(c, c.eal(vdevs), ["--config", cfg])

    def growing(p, by=1000):
        a = port_counter(sh, p, "tx")
        wait_for(lambda: port_counter(sh, p, "tx") > a + by, "port %d sending" % p, 30)

    def drop(reason):
        out = sh.cmd("show drops")
        m = re.search(r"^\s*%s\s+(\d+)" % reason, out, re.M)
        check(m is not None, "no %s line in show drops: %r" % (reason, out))
        return int(m.group(1))

    check("forwarding started" in sh.cmd("start"), "start")
    growing(1)
    out = sh.cmd("neigh del 10.1.0.2")
    check("deleted" in out, "neigh del: " + out)
    wait_for(lambda: drop("arp_hold_full") + drop("arp_failed") > 0,
             "frames to the deleted neighbour counted as ARP drops", 30)
    out = sh.cmd("neigh add 10.1.0.2 02:00:00:00:01:02")
    check("added" in out, "neigh add: " + out)
    growing(1)
    out = sh.cmd("route del 172.16.0.0/16")
    check("error" not in out.lower(), "route del: " + out)
    wait_for(lambda: drop("no_route") > 0, "no_route drops counted", 30)
    sh.cmd("route add 172.16.0.0/16 via 10.1.0.2")
    growing(1)
    sh.cmd("stop")
    st = sh.quit()  # checks the stop-time balance of the route mode
    check_pools_back(st)
    check(st["drops"]["no_route"] > 0, "no_route counted")
    check(st["drops"]["arp_hold_full"] + st["drops"]["arp_failed"] > 0, "ARP drops counted")


# ---------------------------------------------------------------- signals under load

def signal_mode(c, mode, signame):
    """Full load on net_pcap ports (port 0 replays its pcap forever; in pktgen
    mode the generator sends), stopped by a signal after the first periodic
    stats: exit 0, every packet counted as sent is in the output pcaps (read
    strictly: no truncated record), every mempool back, the stop-time balance."""
    extra, lcores = [], "0@0,1@1"
    if mode == "route":
        cfg = c.path("router.ini")
        with open(cfg, "w") as f:
            f.write(ROUTER)
        extra = ["--config", cfg]
        from scapy.layers.inet import IP, UDP
        from scapy.layers.l2 import Ether
        ins = [[bytes(Ether(src="02:00:00:00:00:09", dst=PORT0_MAC) /
                      IP(src="10.0.0.9", dst="172.16.0.%d" % (i + 1)) / UDP() / (b"y" * 30))
                for i in range(32)], []]
    elif mode == "pktgen":
        extra = ["--fwd", "pktgen"]
        ins = [[], []]
    else:
        extra = ["--fwd", mode]
        ins = [ft.mixed_frames(64, port=0, max_size=200), ft.mixed_frames(40, port=1)]
    vdevs, outs = c.pcap_ports([[f] for f in ins], infinite=(0,) if ins[0] else ())
    sfile = c.path("stats.json")
    run = c.start(c.eal(vdevs, lcores=lcores),
                  extra + ["--stats-period", "0.2", "--stats-file", sfile])
    run.wait_line("=== stats", 30)
    run.p.send_signal(getattr(signal, signame))
    rc, out, err = run.finish(60)
    check_eq(rc, 0, "exit status after %s\n%s" % (signame, run.describe()))
    check("=== final stats" in out, "no final stats after %s" % signame)
    s = ft.load_stats(sfile)
    check(s is not None, "no stats file after %s" % signame)
    check_eq(s["mode"], mode, "mode")
    sent = 0
    for p in (0, 1):
        n = ft.pcap_count(outs[p][0])
        check_eq(n, ft.port_stats(s, p)["opackets"], "port %d: frames in its tx pcap vs opackets"
                 % p)
        check_eq(ft.scapy_count(outs[p][0]), n, "port %d: frames scapy reads" % p)
        sent += n
    if mode == "rxonly":
        check_eq(sent, 0, "rxonly sent frames")
        check(s["drops"]["rxonly"] > len(ins[0]), "rxonly: too few received before the signal")
    else:
        check(sent > 64, "%s: only %d frames sent before %s" % (mode, sent, signame))
    if mode == "pktgen":
        check_eq(sum(g["tx"]["tx_pkts"] for g in s["pktgen"]), sent,
                 "generators' tx_pkts vs frames in the pcaps")
    check_pools_back(s)
    ft.check_balance(s)


def _signal_case(mode, signame):
    def fn(c):
        signal_mode(c, mode, signame)
    fn.__name__ = "%s_%s" % (signame.lower(), mode)
    return fn


# SIGTERM and SIGINT alternate over the modes; run.py's sigterm/sigint cover io both ways
for _mode, _sig in (("io", "SIGINT"), ("mac", "SIGTERM"), ("macswap", "SIGINT"),
                    ("rxonly", "SIGTERM"), ("route", "SIGINT"), ("route", "SIGTERM"),
                    ("pktgen", "SIGTERM"), ("pktgen", "SIGINT")):
    case(_signal_case(_mode, _sig))


if __name__ == "__main__":
    sys.exit(run_cases(sys.argv, CASES, "fault-", "tests/e2e/meson.build"))
