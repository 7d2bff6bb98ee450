#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""End to end: dpdk-forwarder --idle sleep (issue 16) on net_fec0's model
(thread mode, RX interrupts on the model's event fd). The port's pcap wire
follows its input file (pcap_follow=1), so the test appends frames while the
forwarder runs, once the worker is seen asleep; io forwarding sends them back
out of the same port (an odd last port forwards to itself) into out.pcap.

Every wait is on an event the forwarder counts (sleeps in telemetry, frames in
tx_pkts), never on a time; the timeouts only bound a hang.

    e2e_idle.py CASE | --list | --check-registered CASES...
"""

import os
import signal
import socket
import struct
import subprocess
import sys
import time
import json

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import fwdtest as ft  # noqa: E402
from fwdtest import Fail, check, check_eq  # noqa: E402

from scapy.all import IP, UDP, Dot1Q, Ether, Raw  # noqa: E402

FEC_MAC = "02:00:00:fe:c0:00"
# app/datapath/fwd_lcore.h: empty passes before a sleep (each pass polls every queue once)
IDLE_POLLS = 32


def pcap_header():
    return struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, ft.DLT_EN10MB)


def append_frames(path, frames):
    """Append records to a pcap the model follows: one write, flushed."""
    now = time.time()
    recs = b"".join(struct.pack("<IIII", int(now), int(now % 1 * 1e6), len(f), len(f)) + f
                    for f in frames)
    with open(path, "ab") as f:
        f.write(recs)


def make_frames(n, seed, pcp=None):
    """n frames to the port; with pcp an 802.1Q tag of that priority (its ring)."""
    eth = Ether(dst=FEC_MAC, src="02:11:22:33:44:55")
    if pcp is not None:
        eth = eth / Dot1Q(prio=pcp, vlan=7)
    return [bytes(eth /
                  IP(src="10.0.0.1", dst="10.0.%d.2" % seed) / UDP(sport=1000 + i, dport=2000) /
                  Raw(bytes([i % 256]) * ((i * 37 + seed) % 600))) for i in range(n)]


def padded(frames):
    return [f + bytes(max(0, 60 - len(f))) for f in frames]


def runtime_dir(prefix):
    base = "/var/run" if os.geteuid() == 0 else os.environ.get("XDG_RUNTIME_DIR", "/tmp")
    return os.path.join(base, "dpdk", prefix)


class Tel:
    """The forwarder's telemetry socket, /forwarder/stats's lcore1 dict."""

    def __init__(self, prefix, proc):
        self.path = os.path.join(runtime_dir(prefix), "dpdk_telemetry.v2")
        self.proc = proc
        self.s = None

    def stats(self):
        if self.s is None:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            s.settimeout(10)
            s.connect(self.path)
            json.loads(s.recv(4096))
            self.s = s
        self.s.send(b"/forwarder/stats")
        return json.loads(self.s.recv(1 << 17))["/forwarder/stats"]

    def wait(self, what, pred, timeout=30):
        """Poll until pred(stats) holds (a hang ends the test after timeout)."""
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            check(self.proc.poll() is None, "forwarder exited while waiting for " + what)
            try:
                last = self.stats()
            except (OSError, ValueError, KeyError):
                self.close()
                last = None
            if last is not None and last.get("state") == "forwarding" and pred(last):
                return last
            time.sleep(0.02)
        raise Fail("waited %d s for %s; last stats %s" % (timeout, what, last))

    def close(self):
        if self.s is not None:
            self.s.close()
            self.s = None


class Fwd:
    """The forwarder on net_fec0 (pcap wire following in.pcap) in the background."""

    def __init__(self, c, app, stdin=False, extra_vdevs=(), devargs="", lcores="0@0,1@1"):
        self.inp, self.out = c.path("in.pcap"), c.path("out.pcap")
        self.stats_file = c.path("stats.json")
        with open(self.inp, "wb") as f:
            f.write(pcap_header())
        vdev = ("net_fec0,backend=model,mode=thread,pcap_follow=1,wire=pcap:[%s,%s]%s" %
                (self.inp, self.out, devargs))
        eal = c.eal(["--vdev", vdev] + list(extra_vdevs), lcores=lcores)
        self.prefix = c.prefixes[-1]
        self.argv = c._argv(eal, list(app) + ["--stats-file", self.stats_file])
        self.outf = open(c.path("stdout.txt"), "w+")
        self.errf = open(c.path("stderr.txt"), "w+")
        self.p = subprocess.Popen(self.argv, cwd=c.dir, stdout=self.outf, stderr=self.errf,
                                  stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                                  text=True)
        c.procs.append(self.p)
        self.tel = Tel(self.prefix, self.p)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def describe(self):
        for f in (self.outf, self.errf):
            f.flush()
            f.seek(0)
        return ft.Result(self.p.poll(), self.outf.read(), self.errf.read(), None, 0,
                         self.argv).describe()

    def finish(self, timeout=30):
        try:
            self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            raise Fail("did not exit within %d s\n%s" % (timeout, self.describe()))
        self.tel.close()
        self.outf.seek(0)
        out = self.outf.read()
        check_eq(self.p.returncode, 0, "exit status\n" + self.describe())
        check("=== final stats" in out, "no final stats printed\n" + self.describe())
        st = ft.load_stats(self.stats_file)
        check(st is not None, "no stats file\n" + self.describe())
        check_eq(st["mbufs_leaked"], 0, "mbufs leaked")
        for m in st["mempools"]:
            check_eq(m["available"], m["size"], "pool %s after close" % m.get("name"))
        return out, st

    def wait_asleep(self, after=0, lcore=1):
        """Until @lcore has slept more than @after times: it is (again) idle."""
        key = "lcore%d" % lcore
        return self.tel.wait("lcore %d idle_sleeps > %d" % (lcore, after),
                             lambda s: s[key]["idle_sleeps"] > after)


def lcore_stats(st, n):
    return next(lc for lc in st["lcores"] if lc["lcore"] == n)


def lcore1(st):
    return lcore_stats(st, 1)


def check_polls_bounded(lc, what):
    # every sleep follows at most IDLE_POLLS empty passes and one re-poll; with no
    # traffic nothing else polls: a worker that spins would poll millions of times
    check(lc["idle_sleeps"] >= 1, "%s: no sleep (%s)" % (what, lc))
    check(lc["polls"] <= (lc["idle_sleeps"] + 1) * (IDLE_POLLS + 1),
          "%s: %d polls for %d sleeps: the worker spun" % (what, lc["polls"], lc["idle_sleeps"]))


def case_no_traffic(c):
    """(a) No traffic for 2 s: a few hundred polls, one sleep per 33 polls, no wake-up."""
    f = Fwd(c, ["--fwd", "io", "--idle", "sleep", "--duration", "2"])
    _, st = f.finish()
    lc = lcore1(st)
    check_polls_bounded(lc, "idle 2 s")
    check_eq(lc["idle_wakeups"], 0, "wake-ups without a frame")
    check_eq(lc["rx_pkts"], 0, "frames received")
    # the same run polling: the contrast that makes the bound above mean something
    f = Fwd(c, ["--fwd", "io", "--idle", "poll", "--duration", "0.5"])
    _, st = f.finish()
    lc = lcore1(st)
    check_eq(lc["idle_sleeps"], 0, "--idle poll sleeps")
    # more empty polls in a row than a sleeping worker makes (no count of time: a
    # descheduled worker polls less, but never sleeps)
    check(lc["polls"] > IDLE_POLLS + 1, "--idle poll spins: %d polls" % lc["polls"])


def case_wake(c, devargs=""):
    """(b) Frames appended while the worker sleeps, three times: all forwarded once,
    in order, and the interrupts (not the timeout) woke it."""
    f = Fwd(c, ["--fwd", "io", "--idle", "sleep"], devargs=devargs)
    sent = []
    for r, n in enumerate((1, 40, 200)):
        st = f.wait_asleep(f.tel.stats()["lcore1"]["idle_sleeps"] if r else 0)
        frames = make_frames(n, r)
        append_frames(f.inp, frames)
        sent += frames
        f.tel.wait("%d frames forwarded" % len(sent), lambda s: s["tx_pkts"] >= len(sent))
    st = f.wait_asleep(f.tel.stats()["lcore1"]["idle_sleeps"])
    woke = st["lcore1"]["idle_wakeups"]
    f.p.send_signal(signal.SIGTERM)
    out, st = f.finish()
    lc = lcore1(st)
    check_eq((lc["rx_pkts"], lc["tx_pkts"]), (len(sent), len(sent)), "lcore 1 rx/tx")
    check(woke >= 1, "no wake-up by an interrupt in 3 rounds: %s" % lc)
    ft.check_frames(ft.read_pcap(f.out), padded(sent), "out.pcap")
    check("sleeps %d" % lc["idle_sleeps"] in out, "the lcore line shows the sleeps:\n" + out)


def case_no_rx_intr(c):
    """(c) net_null has no RX interrupts: one clear error naming the port, exit 1."""
    r = c.run(c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]),
              ["--idle", "sleep", "--duration", "1"], stats=False)
    r.check_error(r"port 0 \(net_null0\): --idle sleep: RX queue 0 has no RX interrupt")
    check("=== final stats" not in r.stdout, "no forwarding without RX interrupts")
    # a FEC port next to it changes nothing: every polled port needs them
    f = Fwd(c, ["--idle", "sleep", "--duration", "1"], extra_vdevs=["--vdev", "net_null0"])
    f.p.wait(timeout=60)
    check_eq(f.p.returncode, 1, "exit status with net_fec0 + net_null0\n" + f.describe())
    f.errf.seek(0)
    check("port 1 (net_null0): --idle sleep" in f.errf.read(), f.describe())


def case_sigterm(c):
    """(d) SIGTERM while the worker sleeps: clean exit, stats printed, mbufs back."""
    f = Fwd(c, ["--fwd", "io", "--idle", "sleep"])
    f.wait_asleep()
    append_frames(f.inp, make_frames(10, 7))
    f.tel.wait("10 frames forwarded", lambda s: s["tx_pkts"] >= 10)
    s = f.wait_asleep(f.tel.stats()["lcore1"]["idle_sleeps"] + 1)
    f.p.send_signal(signal.SIGTERM)
    _, st = f.finish()
    check(lcore1(st)["idle_sleeps"] >= s["lcore1"]["idle_sleeps"], "sleeps went back")
    check_eq(lcore1(st)["tx_pkts"], 10, "tx before the signal")


def case_mode_switch(c):
    """(e) 'set fwd mac' while the worker sleeps: the switch is done, the worker
    sleeps again in mac mode, and frames then sent leave with rewritten MACs."""
    f = Fwd(c, ["-i", "--idle", "sleep"], stdin=True)
    f.send("start")
    f.wait_asleep()
    f.send("set fwd mac")
    f.tel.wait("mode mac", lambda s: s["mode"] == "mac")
    f.wait_asleep(f.tel.stats()["lcore1"]["idle_sleeps"])
    frames = make_frames(20, 9)
    append_frames(f.inp, frames)
    f.tel.wait("20 frames forwarded", lambda s: s["tx_pkts"] >= 20)
    f.send("quit")
    _, st = f.finish()
    fec_mac = ft.mac_bytes(FEC_MAC)
    want = [ft.mac_rewrite(w, ft.default_peer(0), fec_mac) for w in padded(frames)]
    ft.check_frames(ft.read_pcap(f.out), want, "out.pcap in mac mode")
    check(lcore1(st)["idle_sleeps"] >= 2, "slept in both modes")


def case_rings(c):
    """(f) net_fec0 with 3 RX rings (rcmr=[1:4-5,2:6-7]): lcore 1 polls queue 0,
    lcore 2 (same CPU) queues 1 and 2. Frames of priority 5 (ring 1), then 6
    (ring 2), then both, each batch appended once both lcores sleep: every frame
    forwarded once, lcore 2 woken by the interrupts of rings 1 and 2 (not the
    100 ms timeout alone), lcore 1, whose ring gets nothing, never woken."""
    f = Fwd(c, ["--fwd", "io", "--idle", "sleep", "--map", "(0,0,1),(0,1,2),(0,2,2)"],
            devargs=",rcmr=[1:4-5,2:6-7]", lcores="0@0,1@1,2@1")
    sent, woke = [], []
    for r, batch in enumerate(((5, 1), (6, 1), (5, 30), (6, 30))):
        f.wait_asleep(f.tel.stats()["lcore1"]["idle_sleeps"] if r else 0, lcore=1)
        st = f.wait_asleep(f.tel.stats()["lcore2"]["idle_sleeps"] if r else 0, lcore=2)
        before = st["lcore2"]["idle_wakeups"]
        frames = make_frames(batch[1], 20 + r, pcp=batch[0])
        append_frames(f.inp, frames)
        sent += frames
        st = f.tel.wait("%d frames forwarded" % len(sent), lambda s: s["tx_pkts"] >= len(sent))
        woke.append(st["lcore2"]["idle_wakeups"] - before)
    f.p.send_signal(signal.SIGTERM)
    _, st = f.finish()
    l1, l2 = lcore_stats(st, 1), lcore_stats(st, 2)
    check_eq(l1["rx_pkts"], 0, "lcore 1 (ring 0) received")
    check_eq(l2["rx_pkts"], len(sent), "lcore 2 (rings 1, 2) received")
    check_eq(l1["idle_wakeups"], 0, "lcore 1 woken by an interrupt of ring 0")
    # a batch may land while lcore 2 is between two sleeps (polling), but not all 4
    check(sum(1 for w in woke if w > 0) >= 2,
          "lcore 2 woken by an interrupt in %s of 4 batches: %s" % (woke, l2))
    rxq = {q["queue"]: q["pkts"] for lc in st["lcores"] for q in lc["rx_queues"]
           if q["port"] == 0}
    check_eq((rxq.get(0, 0), rxq.get(1, 0), rxq.get(2, 0)), (0, 31, 31), "per-queue RX")
    got = sorted(ft.read_pcap(f.out))
    check_eq(got, sorted(padded(sent)), "out.pcap: every frame once")


def case_uio(c):
    """(g) The same on the driver's UIO interrupt path (intr=uio: the model's
    emulation of the one uio_pdrv_genirq IRQ, RXF acked at disable)."""
    case_wake(c, devargs=",intr=uio")


def case_uio_rings(c):
    """(h) On the UIO path only RX queue 0 has an interrupt: a port with 3 RX
    queues is refused for --idle sleep, naming queue 1."""
    f = Fwd(c, ["--fwd", "io", "--idle", "sleep", "--duration", "1", "--rxq", "3"],
            devargs=",intr=uio,rcmr=[1:4-5,2:6-7]")
    f.p.wait(timeout=60)
    check_eq(f.p.returncode, 1, "exit status\n" + f.describe())
    f.errf.seek(0)
    check("port 0 (net_fec0): --idle sleep: RX queue 1 has no RX interrupt" in f.errf.read(),
          f.describe())


def case_coalesce(c):
    """(i) RX coalescing (rx_coalesce=64:5000): a batch of 20 frames, then
    four of 3, each appended once the worker sleeps. 32 frames in all never
    reach ICFT, so only the 5 ms timer raises their interrupt: every frame
    forwarded once, and that interrupt (not the worker's 100 ms timeout) woke
    it in at least 3 of the 5 batches."""
    f = Fwd(c, ["--fwd", "io", "--idle", "sleep"], devargs=",rx_coalesce=64:5000")
    sent, woke = [], []
    for r, n in enumerate((20, 3, 3, 3, 3)):
        st = f.wait_asleep(f.tel.stats()["lcore1"]["idle_sleeps"] if r else 0)
        before = st["lcore1"]["idle_wakeups"]
        frames = make_frames(n, 40 + r)
        append_frames(f.inp, frames)
        sent += frames
        st = f.tel.wait("%d frames forwarded" % len(sent), lambda s: s["tx_pkts"] >= len(sent))
        woke.append(st["lcore1"]["idle_wakeups"] - before)
    f.p.send_signal(signal.SIGTERM)
    _, st = f.finish()
    check_eq(lcore1(st)["tx_pkts"], len(sent), "lcore 1 tx")
    check(sum(1 for w in woke if w > 0) >= 3,
          "woken by the coalescing timer in %s of the 5 batches" % woke)
    ft.check_frames(ft.read_pcap(f.out), padded(sent), "out.pcap")


CASES = {
    "no_traffic": case_no_traffic,
    "wake": case_wake,
    "no_rx_intr": case_no_rx_intr,
    "sigterm": case_sigterm,
    "mode_switch": case_mode_switch,
    "rings": case_rings,
    "uio": case_uio,
    "uio_rings": case_uio_rings,
    "coalesce": case_coalesce,
}

if __name__ == "__main__":
    sys.exit(ft.run_cases(sys.argv, CASES, "idle-", "tests/fec_pmd/meson.build"))
