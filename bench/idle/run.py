#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""Benchmark of --idle sleep against --idle poll (issue 16) on net_fec0's model
(thread mode). Not a test: it measures, prints a Markdown report and writes
it to OUT (default bench-results/idle-<date>.md).

  1. CPU time over SECS seconds at 0 pps and at a trickle (TRICKLE_PPS frames a
     second appended to the pcap wire's input, pcap_follow=1): the worker
     thread's utime+stime (/proc/PID/task/TID/stat) and the whole process's
     (/proc/PID/stat; it includes the model's thread, which steps every 20 us
     whatever the forwarder does, and the main lcore).
  2. Wake-up latency: LAT_FRAMES frames, one every LAT_GAP_MS (each after an
     idle period long enough to sleep); the time from the append (its pcap
     record's timestamp) to the frame leaving the MAC (the output record's
     timestamp, taken by the model at TX).
  3. Full load: wire=loop, mode=autostep (the model steps in the worker's own
     doorbell writes, so the worker is the bottleneck and its queue is never
     empty) and --tx-first (a burst circulating for ever): port 0's TX rate
     over RATE_SECS, poll and sleep alternating, ROUNDS rounds; the median of
     sleep/poll. (In thread mode the model's thread is the bottleneck and the
     worker finds the ring empty between frames: that is the trickle case.)

    nice -n 10 /usr/bin/python3 bench/idle/run.py [BUILDDIR]
Environment: SECS (10), TRICKLE_PPS (100), LAT_FRAMES (50), LAT_GAP_MS (50),
RATE_SECS (5), ROUNDS (5), OUT.
"""

import json
import os
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
BIN = os.path.join(BUILD, "app", "dpdk-forwarder")
SECS = float(os.environ.get("SECS", "10"))
TRICKLE_PPS = float(os.environ.get("TRICKLE_PPS", "100"))
LAT_FRAMES = int(os.environ.get("LAT_FRAMES", "50"))
LAT_GAP_MS = float(os.environ.get("LAT_GAP_MS", "50"))
RATE_SECS = float(os.environ.get("RATE_SECS", "5"))
ROUNDS = int(os.environ.get("ROUNDS", "5"))
HZ = os.sysconf("SC_CLK_TCK")
FEC_MAC = bytes.fromhex("020000fec000")


def frame(i):
    """A 64-byte UDP frame to the port's MAC (without FCS: 60 bytes)."""
    eth = FEC_MAC + bytes.fromhex("021122334455") + b"\x08\x00"
    ip = bytes.fromhex("4500002e0000000040110000") + bytes([10, 0, 0, 1, 10, 0, 0, 2])
    udp = struct.pack(">HHHH", 1000 + i % 1000, 2000, 26, 0)
    return (eth + ip + udp + bytes(18))[:60]


def pcap_header():
    return struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1)


def append(path, frames):
    now = time.time()
    rec = b"".join(struct.pack("<IIII", int(now), int(now % 1 * 1e6), len(f), len(f)) + f
                   for f in frames)
    with open(path, "ab") as f:
        f.write(rec)
    return now


def read_ts(path):
    """Timestamps (s) of a pcap's records."""
    out = []
    with open(path, "rb") as f:
        data = f.read()
    off = 24
    while off + 16 <= len(data):
        sec, usec, incl, _ = struct.unpack_from("<IIII", data, off)
        out.append(sec + usec / 1e6)
        off += 16 + incl
    return out


def runtime_dir(prefix):
    base = "/var/run" if os.geteuid() == 0 else os.environ.get("XDG_RUNTIME_DIR", "/tmp")
    return os.path.join(base, "dpdk", prefix)


LIVE = []  # forwarders still running: killed if the script fails half-way


class Fwd:
    def __init__(self, d, name, idle, wire, app=(), mode="thread"):
        self.d = d
        self.inp, self.out = os.path.join(d, name + "-in.pcap"), os.path.join(d, name + "-out.pcap")
        self.stats = os.path.join(d, name + "-stats.json")
        with open(self.inp, "wb") as f:
            f.write(pcap_header())
        if wire == "pcap":
            wire = "pcap_follow=1,wire=pcap:[%s,%s]" % (self.inp, self.out)
        else:
            wire = "wire=" + wire
        self.prefix = "idle-bench-%d-%s" % (os.getpid(), name)
        argv = [BIN, "-l", "0,1", "--no-huge", "-m", "256", "--no-pci", "--file-prefix",
                self.prefix, "--vdev", "net_fec0,backend=model,mode=%s,%s" % (mode, wire), "--",
                "--fwd", "io", "--idle", idle, "--stats-file", self.stats] + list(app)
        self.log = open(os.path.join(d, name + ".log"), "w")
        self.p = subprocess.Popen(argv, stdout=self.log, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL)
        LIVE.append(self.p)
        self.sock = None
        self.wait_forwarding()

    def tel(self):
        if self.sock is None:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            s.connect(os.path.join(runtime_dir(self.prefix), "dpdk_telemetry.v2"))
            s.recv(4096)
            self.sock = s
        self.sock.send(b"/forwarder/stats")
        return json.loads(self.sock.recv(1 << 17))["/forwarder/stats"]

    def wait_forwarding(self):
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.p.poll() is not None:
                raise SystemExit("forwarder exited, see %s" % self.log.name)
            try:
                st = self.tel()  # None until the forwarder registered its commands
                if st is not None and st.get("state") == "forwarding":
                    return
            except (OSError, ValueError):
                self.sock = None
            time.sleep(0.05)
        raise SystemExit("forwarder did not start")

    def worker_tid(self):
        for tid in os.listdir("/proc/%d/task" % self.p.pid):
            with open("/proc/%d/task/%s/comm" % (self.p.pid, tid)) as f:
                if f.read().strip() == "rte-worker-1":
                    return tid
        raise SystemExit("no rte-worker-1 thread")

    def cpu(self, tid=None):
        path = "/proc/%d/task/%s/stat" % (self.p.pid, tid) if tid else "/proc/%d/stat" % self.p.pid
        with open(path) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / HZ  # utime + stime

    def stop(self):
        if self.sock is not None:
            self.sock.close()
        self.p.send_signal(signal.SIGTERM)
        self.p.wait(timeout=60)
        self.log.close()
        with open(self.stats) as f:
            return json.load(f)


def cpu_run(d, idle, pps):
    f = Fwd(d, "cpu-%s-%d" % (idle, pps), idle, "pcap")
    tid = f.worker_tid()
    w0, p0, t0 = f.cpu(tid), f.cpu(), time.monotonic()
    sent = 0
    while time.monotonic() - t0 < SECS:
        if pps > 0:
            append(f.inp, [frame(sent)])
            sent += 1
            time.sleep(max(0.0, t0 + sent / pps - time.monotonic()))
        else:
            time.sleep(0.1)
    w1, p1, t1 = f.cpu(tid), f.cpu(), time.monotonic()
    st = f.stop()
    lc = st["lcores"][0]
    return {"idle": idle, "pps": pps, "secs": t1 - t0, "worker_cpu": w1 - w0,
            "process_cpu": p1 - p0, "sent": sent, "tx": st["ports"][0]["opackets"],
            "polls": lc["polls"], "sleeps": lc["idle_sleeps"], "wakeups": lc["idle_wakeups"]}


def latency_run(d, idle):
    f = Fwd(d, "lat-" + idle, idle, "pcap")
    sent = []
    for i in range(LAT_FRAMES):
        time.sleep(LAT_GAP_MS / 1000)
        sent.append(append(f.inp, [frame(i)]))
    deadline = time.monotonic() + 10
    while f.tel()["tx_pkts"] < LAT_FRAMES and time.monotonic() < deadline:
        time.sleep(0.05)
    st = f.stop()
    got = read_ts(f.out)
    lat = sorted((g - s) * 1e6 for s, g in zip(sent, got))
    lc = st["lcores"][0]
    return {"idle": idle, "n": len(lat), "median_us": statistics.median(lat),
            "p90_us": lat[int(len(lat) * 0.9) - 1], "max_us": lat[-1],
            "sleeps": lc["idle_sleeps"], "wakeups": lc["idle_wakeups"]}


def rate_run(d, idle, r):
    f = Fwd(d, "rate-%s-%d" % (idle, r), idle, "loop", ["--tx-first"], mode="autostep")
    a, t0 = f.tel()["tx_pkts"], time.monotonic()
    time.sleep(RATE_SECS)
    b, t1 = f.tel()["tx_pkts"], time.monotonic()
    st = f.stop()
    lc = st["lcores"][0]
    return {"idle": idle, "pps": (b - a) / (t1 - t0), "sleeps": lc["idle_sleeps"],
            "wakeups": lc["idle_wakeups"]}


def main():
    try:
        report()
    finally:
        for p in LIVE:
            if p.poll() is None:
                p.kill()
                p.wait()


def report():
    if not os.access(BIN, os.X_OK):
        raise SystemExit("no %s: build first (bash scripts/build.sh %s)" % (BIN, BUILD))
    d = tempfile.mkdtemp(prefix="idle-bench-")
    lines = ["# --idle sleep vs poll on net_fec0's model (%s)" % time.strftime("%Y-%m-%d %H:%M UTC",
                                                                              time.gmtime()),
             "", "`nice -n 10 /usr/bin/python3 bench/idle/run.py` (SECS=%g TRICKLE_PPS=%g "
             "LAT_FRAMES=%d LAT_GAP_MS=%g RATE_SECS=%g ROUNDS=%d), %d CPUs, load average "
             "%.1f at the start" % (SECS, TRICKLE_PPS, LAT_FRAMES, LAT_GAP_MS, RATE_SECS, ROUNDS,
                                    os.cpu_count(), os.getloadavg()[0]), ""]
    lines += ["| idle | load | worker CPU s / %g s | process CPU s | frames out | polls | sleeps | "
              "wake-ups |" % SECS, "|---|---|---|---|---|---|---|---|"]
    for pps in (0, TRICKLE_PPS):
        for idle in ("poll", "sleep"):
            r = cpu_run(d, idle, pps)
            lines.append("| %s | %g pps | %.2f (%.0f %%) | %.2f | %d | %d | %d | %d |" %
                         (idle, pps, r["worker_cpu"], 100 * r["worker_cpu"] / r["secs"],
                          r["process_cpu"], r["tx"], r["polls"], r["sleeps"], r["wakeups"]))
            print(lines[-1], flush=True)
    lines += ["", "| idle | frames | latency median us | p90 us | max us | sleeps | wake-ups |",
              "|---|---|---|---|---|---|---|"]
    for idle in ("poll", "sleep"):
        r = latency_run(d, idle)
        lines.append("| %s | %d | %.0f | %.0f | %.0f | %d | %d |" %
                     (idle, r["n"], r["median_us"], r["p90_us"], r["max_us"], r["sleeps"],
                      r["wakeups"]))
        print(lines[-1], flush=True)
    ratios, rows = [], []
    for r in range(ROUNDS):
        p = rate_run(d, "poll", r)
        s = rate_run(d, "sleep", r)
        ratios.append(s["pps"] / p["pps"])
        rows.append("| %d | %.3f | %.3f | %.3f | %d | %d |" %
                    (r, p["pps"] / 1e6, s["pps"] / 1e6, ratios[-1], s["sleeps"], s["wakeups"]))
        print(rows[-1], flush=True)
    lines += ["", "| round | poll Mpps | sleep Mpps | sleep/poll | sleeps | wake-ups |",
              "|---|---|---|---|---|---|"] + rows
    lines += ["", "Full load: median sleep/poll %.3f (min %.3f, max %.3f) over %d rounds" %
              (statistics.median(ratios), min(ratios), max(ratios), ROUNDS)]
    print(lines[-1])
    out = os.environ.get("OUT") or os.path.join(
        ROOT, "bench-results", "idle-%s.md" % time.strftime("%Y%m%d-%H%M%S"))
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("report: " + out)


if __name__ == "__main__":
    main()
