#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""The host side of scripts/vm-run.sh: runs the guest's QEMU command, drives
the console protocol (scripts/vm/README.md), and plays the wire: per port a
UDP socket on 127.0.0.1 that QEMU's `-netdev dgram` exchanges frames with (one
datagram, one Ethernet frame). Once the guest says @@VM READY, every input
pcap is injected into its port at VM_PPS frames per second in total, and what
each port transmits is written to its output pcap; when the outputs have been
quiet for VM_QUIET seconds the guest is told @@VM STOP. With VM_INJECT_AFTER
set, the injection waits after @@VM READY for a console line containing that
text (something the guest prints when it is done with a phase of its own, e.g.
an idle measurement). Exit status: the
forwarder's (from @@VM EXIT), 124 on timeout, 4 when the guest never got ready
or ended without a status.

Plain python3 (no scapy): pcaps are read and written here.

  hostnet.py pick-base N            print a base port with 2N free UDP ports
  hostnet.py run --ports N --base B [--in P=F]... [--out P=F]... \\
      --console-log F [--stats-out F] [--timeout S] -- COMMAND...
"""

import argparse
import base64
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

PCAP_HDR = struct.Struct("<IHHiIII")
REC_HDR = struct.Struct("<IIII")


def log(msg):
    print("vm: " + msg, file=sys.stderr, flush=True)


def read_pcap(path):
    """Frames of a pcap (either byte order, us or ns), as a list of bytes."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < PCAP_HDR.size:
        raise SystemExit("vm: %s: not a pcap" % path)
    magic = struct.unpack_from("<I", data)[0]
    if magic in (0xA1B2C3D4, 0xA1B23C4D):
        end = "<"
    elif magic in (0xD4C3B2A1, 0x4D3CB2A1):
        end = ">"
    else:
        raise SystemExit("vm: %s: bad pcap magic %#x" % (path, magic))
    linktype = struct.unpack_from(end + "I", data, 20)[0]
    if linktype != 1:
        raise SystemExit("vm: %s: link type %d, want Ethernet (1)" % (path, linktype))
    rec = struct.Struct(end + "IIII")
    off, frames = PCAP_HDR.size, []
    while off < len(data):
        if off + rec.size > len(data):
            raise SystemExit("vm: %s: truncated record header" % path)
        _, _, incl, _ = rec.unpack_from(data, off)
        off += rec.size
        if off + incl > len(data):
            raise SystemExit("vm: %s: truncated record" % path)
        frames.append(data[off:off + incl])
        off += incl
    return frames


def write_pcap(path, frames):
    """frames: (time, bytes) pairs. Written to a temporary file, then renamed."""
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(PCAP_HDR.pack(0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for t, fr in frames:
            f.write(REC_HDR.pack(int(t), int((t % 1) * 1e6), len(fr), len(fr)))
            f.write(fr)
    os.replace(tmp, path)


def pick_base(nports):
    """A base port B with B..B+2N-1 bindable on 127.0.0.1 (QEMU takes the even ones)."""
    start = 20000 + (os.getpid() * 16) % 20000
    for i in range(200):
        base = 20000 + (start - 20000 + i * 2 * nports) % 40000
        socks = []
        try:
            for k in range(2 * nports):
                s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                socks.append(s)
                s.bind(("127.0.0.1", base + k))
            return base
        except OSError:
            continue
        finally:
            for s in socks:
                s.close()
    raise SystemExit("vm: no free UDP port range on 127.0.0.1")


class Port:
    def __init__(self, i, base):
        self.i = i
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
        self.sock.bind(("127.0.0.1", base + 2 * i + 1))
        self.sock.settimeout(0.2)
        self.dest = ("127.0.0.1", base + 2 * i)
        self.got = []  # (time, frame) the guest's port transmitted
        self.sent = 0
        self.last_rx = 0.0
        self.stop = False
        self.thread = threading.Thread(target=self._rx, daemon=True)
        self.thread.start()

    def _rx(self):
        while not self.stop:
            try:
                fr = self.sock.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                # ECONNREFUSED from an ICMP error while QEMU is not up yet
                continue
            now = time.time()
            self.got.append((now, fr))
            self.last_rx = time.monotonic()


class Console:
    """Reads the guest console: logs it, finds the protocol lines."""

    def __init__(self, proc, logpath, verbose):
        self.proc = proc
        self.logf = open(logpath, "w", errors="replace")
        self.verbose = verbose
        self.cond = threading.Condition()
        self.ready = False
        self.exit_status = None
        self.stats_b64 = None
        self.eof = False
        self.last_lines = []
        self.marker = None  # a text to look for in the lines (VM_INJECT_AFTER)
        self.marker_seen = False
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        stats = None
        for raw in self.proc.stdout:
            line = raw.decode("utf-8", "replace").replace("\r", "").rstrip("\n")
            self.logf.write(line + "\n")
            self.logf.flush()
            if self.verbose:
                print(line, file=sys.stderr, flush=True)
            self.last_lines = (self.last_lines + [line])[-30:]
            with self.cond:
                if stats is not None:
                    if "@@VM STATS-END" in line:
                        self.stats_b64, stats = "".join(stats), None
                    else:
                        stats.append(line.strip())
                elif "@@VM READY" in line:
                    self.ready = True
                if self.marker and self.marker in line:
                    self.marker_seen = True
                elif "@@VM STATS-BEGIN" in line:
                    stats = []
                elif "@@VM EXIT " in line:
                    try:
                        self.exit_status = int(line.split("@@VM EXIT ", 1)[1].split()[0])
                    except (ValueError, IndexError):
                        self.exit_status = 4
                self.cond.notify_all()
        with self.cond:
            self.eof = True
            self.cond.notify_all()

    def wait(self, pred, deadline):
        with self.cond:
            while not pred() and not self.eof:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.cond.wait(min(left, 1.0))
            return pred()

    def send(self, line):
        try:
            self.proc.stdin.write((line + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass


def kv_list(items, nports, what):
    out = {}
    for it in items:
        p, sep, f = it.partition("=")
        if not sep or not p.isdigit() or not f:
            raise SystemExit("vm: --%s %s: want PORT=FILE.pcap" % (what, it))
        if int(p) >= nports:
            raise SystemExit("vm: --%s %s: the machine has ports 0..%d" % (what, it, nports - 1))
        out[int(p)] = f
    return out


def run(a):
    t0 = time.monotonic()
    deadline = t0 + a.timeout
    ins = kv_list(a.inp, a.ports, "in")
    outs = kv_list(a.out, a.ports, "out")
    frames = {p: read_pcap(f) for p, f in ins.items()}
    pps = float(os.environ.get("VM_PPS", "500"))
    quiet = float(os.environ.get("VM_QUIET", "2"))
    verbose = os.environ.get("VM_VERBOSE", "") not in ("", "0")
    after = os.environ.get("VM_INJECT_AFTER", "")
    # VM_WINDOW=N (io-mode runs, where every frame comes back): at most N
    # frames injected and not yet back. A guest whose vCPUs the host
    # deschedules (a busy CI box) cannot then overflow QEMU's socket buffer,
    # where frames are lost before the NIC sees them. A window that does not
    # move for 3 s counts what is outstanding as gone (frames dropped on
    # purpose, or by the device model: QEMU's igb drops on TX what it cannot
    # parse), so the window opens again instead of letting one frame go
    # every 3 s from then on.
    window = int(os.environ.get("VM_WINDOW", "0"))
    gone = 0  # frames taken as lost by a stalled window
    ports = [Port(i, a.base) for i in range(a.ports)]

    proc = subprocess.Popen(a.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    con = Console(proc, a.console_log, verbose)
    con.marker = after or None

    def kill():
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    status = None
    if not con.wait(lambda: con.ready or con.exit_status is not None, deadline):
        kill()
        proc.wait()
        if time.monotonic() >= deadline:
            log("timeout (%d s) before the guest was ready" % a.timeout)
            status = 124
        else:
            log("the guest ended before it was ready")
            status = 4
    elif con.exit_status is not None and not con.ready:
        log("the guest failed before it was ready (status %d)" % con.exit_status)
    elif after and not con.wait(lambda: con.marker_seen or con.exit_status is not None,
                                deadline):
        kill()
        proc.wait()
        log("no console line with '%s' before the timeout (%d s)" % (after, a.timeout))
        status = 124
    else:
        log("guest ready after %.1f s; injecting %d frames at %g pps" %
            (time.monotonic() - t0, sum(len(f) for f in frames.values()), pps))
        # frames of several inputs interleaved, one port after the other
        order = []
        longest = max((len(f) for f in frames.values()), default=0)
        for k in range(longest):
            for p in sorted(frames):
                if k < len(frames[p]):
                    order.append((p, frames[p][k]))
        t_inj = time.monotonic()
        for n, (p, fr) in enumerate(order):
            due = t_inj + n / pps
            while True:
                now = time.monotonic()
                if now >= due:
                    break
                time.sleep(min(due - now, 0.05))
            if window:
                t_wait = time.monotonic()
                out = lambda: sum(pt.sent for pt in ports) - sum(len(pt.got) for pt in ports)
                while out() - gone >= window and time.monotonic() < deadline:
                    if time.monotonic() - max([t_wait] + [pt.last_rx for pt in ports]) >= 3:
                        gone = out()
                        break
                    time.sleep(0.002)
            ports[p].sock.sendto(fr, ports[p].dest)
            ports[p].sent += 1
            if now >= deadline:
                break
        t_end = time.monotonic()
        while time.monotonic() < deadline:
            last = max([t_end] + [pt.last_rx for pt in ports])
            if time.monotonic() - last >= quiet:
                break
            time.sleep(0.1)
        con.send("@@VM STOP")
        if not con.wait(lambda: con.exit_status is not None and (con.stats_b64 is not None
                                                                  or con.eof), deadline):
            pass
    if status is None:
        # the guest powers off after @@VM EXIT
        try:
            proc.wait(timeout=max(1, min(30, deadline - time.monotonic())))
        except subprocess.TimeoutExpired:
            kill()
            proc.wait()
        if con.exit_status is None:
            if time.monotonic() >= deadline:
                log("timeout (%d s)" % a.timeout)
                status = 124
            else:
                log("the guest ended without an exit status (QEMU status %s)" % proc.returncode)
                status = 4
        else:
            status = con.exit_status
    for pt in ports:
        pt.stop = True
    for pt in ports:
        pt.thread.join(1)
        log("port %d: injected %d, transmitted by the guest %d" % (pt.i, pt.sent, len(pt.got)))
        if pt.i in outs:
            write_pcap(outs[pt.i], pt.got)
    if a.stats_out:
        if con.stats_b64:
            with open(a.stats_out, "wb") as f:
                f.write(base64.b64decode(con.stats_b64))
        else:
            log("no stats file came back from the guest")
    if status != 0:
        log("console log: %s (last lines:)\n    %s" %
            (a.console_log, "\n    ".join(con.last_lines[-12:])))
    log("done in %.1f s, status %d" % (time.monotonic() - t0, status))
    return status


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    pb = sub.add_parser("pick-base")
    pb.add_argument("n", type=int)
    r = sub.add_parser("run")
    r.add_argument("--ports", type=int, required=True)
    r.add_argument("--base", type=int, required=True)
    r.add_argument("--in", dest="inp", action="append", default=[])
    r.add_argument("--out", action="append", default=[])
    r.add_argument("--console-log", required=True)
    r.add_argument("--stats-out")
    r.add_argument("--timeout", type=float, default=600)
    r.add_argument("command", nargs="+")
    a = ap.parse_args()
    if a.cmd == "pick-base":
        print(pick_base(a.n))
        return 0
    return run(a)


if __name__ == "__main__":
    sys.exit(main())
