# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""Helpers for the end-to-end tests: craft pcaps with scapy, run the real
dpdk-forwarder on net_pcap vdevs in a temp dir, read back what it wrote.

The binary comes from $DPDK_FORWARDER (meson passes dpdk_forwarder.full_path()).
Every failed check raises Fail with a message saying what differed.
"""

import atexit
import json
import mmap
import os
import random
import re
import shutil
import signal
import struct
import subprocess
import tempfile
import threading
import time

try:
    from scapy.layers.inet import ICMP, IP, TCP, UDP
    from scapy.layers.inet6 import IPv6
    from scapy.layers.l2 import ARP, Dot1Q, Ether
    from scapy.packet import Raw
    from scapy.utils import RawPcapReader, RawPcapWriter
except ImportError as e:  # the set-up script installs python3-scapy
    raise SystemExit("e2e: scapy is missing (%s); run scripts/setup.sh or "
                     "apt-get install python3-scapy" % e)

BIN = os.environ.get("DPDK_FORWARDER", "")
ERR_PREFIX = "dpdk-forwarder: error: "
DLT_EN10MB = 1


class Fail(AssertionError):
    """A check failed; the message says what was expected and what came."""


def check(cond, msg):
    if not cond:
        raise Fail(msg)


def check_eq(got, want, what):
    if got != want:
        raise Fail("%s: got %r, want %r" % (what, got, want))


# ---------------------------------------------------------------- packets

TAG = b"FWDT"
_TAG = struct.Struct(">4sHHI")  # magic, port, queue, seq


def tag(port, queue, seq):
    """12 bytes put at the start of each crafted payload, to find its origin."""
    return _TAG.pack(TAG, port, queue, seq)


def untag(frame):
    """(port, queue, seq) of a crafted frame, or None for a frame without a tag."""
    i = frame.find(TAG)
    if i < 0 or i + _TAG.size > len(frame):
        return None
    return _TAG.unpack_from(frame, i)[1:]


def mac_str(b):
    return ":".join("%02x" % x for x in b)


def mac_bytes(s):
    return bytes(int(x, 16) for x in s.split(":"))


def _rand_mac(rng):
    # unicast, locally administered, never one of the forwarder's own
    return mac_str(bytes([0x06 | (rng.randrange(64) << 2)]) +
                   bytes(rng.randrange(256) for _ in range(5)))


def _l3(kind, rng):
    ip4 = dict(src="10.%d.%d.%d" % (rng.randrange(256), rng.randrange(256), rng.randrange(1, 255)),
               dst="192.168.%d.%d" % (rng.randrange(256), rng.randrange(1, 255)))
    if kind == "udp4":
        return IP(**ip4) / UDP(sport=rng.randrange(1024, 65536), dport=rng.randrange(1, 1024))
    if kind == "tcp4":
        return IP(**ip4) / TCP(sport=rng.randrange(1024, 65536), dport=80, flags="PA",
                               seq=rng.randrange(1 << 32))
    if kind == "icmp4":
        return IP(**ip4) / ICMP(type=8, id=rng.randrange(65536), seq=rng.randrange(65536))
    if kind == "arp":
        return ARP(op=1, psrc=ip4["src"], pdst=ip4["dst"])
    if kind == "udp6":
        return IPv6(src="2001:db8::%x" % rng.randrange(1, 65536),
                    dst="2001:db8:1::%x" % rng.randrange(1, 65536)) / UDP(sport=5000, dport=6000)
    if kind == "vlan_udp4":
        return Dot1Q(vlan=rng.randrange(1, 4095), prio=rng.randrange(8)) / IP(**ip4) / \
            UDP(sport=1234, dport=4321)
    if kind == "vlan_tcp6":
        return Dot1Q(vlan=rng.randrange(1, 4095)) / IPv6(src="2001:db8::1", dst="2001:db8::2") / \
            TCP(sport=1111, dport=443, flags="S")
    raise ValueError(kind)


KINDS = ("udp4", "tcp4", "icmp4", "arp", "udp6", "vlan_udp4", "vlan_tcp6")


def mixed_frames(n, port=0, queue=0, seed=None, min_size=60, max_size=1514):
    """n frames of varied protocols and sizes (the first two are min_size and
    max_size, the rest random in between), each payload starting with
    tag(port, queue, seq). Returns a list of bytes."""
    rng = random.Random(seed if seed is not None else port * 1000 + queue + 1)
    frames = []
    for seq in range(n):
        kind = KINDS[seq % len(KINDS)]
        size = (min_size, max_size)[seq] if seq < 2 else rng.randint(min_size, max_size)
        src, dst = _rand_mac(rng), _rand_mac(rng)
        head = Ether(src=src, dst=dst) / _l3(kind, rng)
        room = size - len(head)
        payload = tag(port, queue, seq)
        payload += bytes(rng.randrange(256) for _ in range(max(0, room - len(payload))))
        frame = bytes(head / Raw(payload))
        check(len(frame) >= min_size, "crafted frame too short: %d" % len(frame))
        frames.append(frame)
    return frames


def runt(length=10, fill=0xEE):
    """A frame shorter than an Ethernet header (scapy Raw)."""
    return bytes(Raw(bytes([fill]) * length))


def write_pcap(path, frames):
    """Write frames (bytes, even runts) to an Ethernet pcap with scapy."""
    w = RawPcapWriter(path, linktype=DLT_EN10MB)
    w.write_header(None)
    for f in frames:
        w.write(f)
    w.close()
    return path


# ---------------------------------------------------------------- pcap reading

_GHDR = struct.Struct("<IHHiIII")
_RHDR = struct.Struct("<IIII")


def _walk(path):
    """Yield (offset, length) of every record of a little-endian pcap, strictly:
    a truncated record or trailing junk is a failure (a tx_pcap the forwarder
    did not close properly)."""
    size = os.path.getsize(path)
    check(size >= _GHDR.size, "%s: %d bytes, not even a pcap header" % (path, size))
    with open(path, "rb") as f:
        m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        try:
            magic, _, _, _, _, snaplen, linktype = _GHDR.unpack_from(m, 0)
            check(magic in (0xA1B2C3D4, 0xA1B23C4D), "%s: bad pcap magic %#x" % (path, magic))
            check_eq(linktype, DLT_EN10MB, "%s: link type" % path)
            off, n = _GHDR.size, 0
            while off < size:
                check(off + _RHDR.size <= size,
                      "%s: truncated record header at byte %d (after %d packets)" % (path, off, n))
                _, _, incl, orig = _RHDR.unpack_from(m, off)
                off += _RHDR.size
                check(incl <= snaplen and incl <= orig,
                      "%s: record %d has caplen %d, len %d" % (path, n, incl, orig))
                check(off + incl <= size,
                      "%s: record %d truncated (%d of %d bytes)" % (path, n, size - off, incl))
                yield m, off, incl
                off += incl
                n += 1
        finally:
            m.close()


def pcap_count(path):
    """Number of records in a pcap, checked strictly, without loading it."""
    return sum(1 for _ in _walk(path))


def iter_pcap(path):
    """Yield every frame of a pcap as bytes, checked strictly."""
    for m, off, incl in _walk(path):
        yield m[off:off + incl]


def read_pcap(path):
    """All frames of a pcap as a list of bytes. Read strictly by our own walker
    and again by scapy, which must agree."""
    frames = list(iter_pcap(path))
    n = 0
    for data, _ in RawPcapReader(path):
        check(n < len(frames) and bytes(data) == frames[n],
              "%s: scapy disagrees at packet %d" % (path, n))
        n += 1
    check_eq(n, len(frames), "%s: packets scapy reads" % path)
    return frames


def scapy_count(path):
    """Packets scapy's reader finds (it must read the whole file without error)."""
    n = 0
    for _ in RawPcapReader(path):
        n += 1
    return n


def check_frames(got, want, what):
    """Two frame lists must be equal; on failure say where and how."""
    if got == want:
        return
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            j = next((k for k in range(min(len(g), len(w))) if g[k] != w[k]), min(len(g), len(w)))
            raise Fail("%s: frame %d of %d/%d differs at byte %d (len %d, want %d; tag %r, want %r)"
                       "\n  got  %s\n  want %s" %
                       (what, i, len(got), len(want), j, len(g), len(w), untag(g), untag(w),
                        g[max(0, j - 8):j + 16].hex(), w[max(0, j - 8):j + 16].hex()))
    raise Fail("%s: %d frames, want %d (the common %d are equal)" %
               (what, len(got), len(want), min(len(got), len(want))))


# ---------------------------------------------------------------- running

class Result:
    def __init__(self, rc, stdout, stderr, stats, elapsed, argv):
        self.rc, self.stdout, self.stderr = rc, stdout, stderr
        self.stats, self.elapsed, self.argv = stats, elapsed, argv

    def describe(self):
        tail = lambda s: "\n".join(s.splitlines()[-15:])
        return ("command: %s\nexit status: %s\n--- stdout (tail)\n%s\n--- stderr (tail)\n%s" %
                (" ".join(self.argv), self.rc, tail(self.stdout), tail(self.stderr)))

    def check_ok(self):
        """Exit status 0, a final stats block, and a stats file if one was asked."""
        check(self.rc == 0, "forwarder failed\n" + self.describe())
        check("=== final stats" in self.stdout, "no final stats printed\n" + self.describe())

    def error_lines(self):
        return [l[len(ERR_PREFIX):] for l in self.stderr.splitlines() if l.startswith(ERR_PREFIX)]

    def check_error(self, pattern):
        """Failed cleanly (exit status > 0, no signal) with exactly one
        'dpdk-forwarder: error: ...' line on stderr, matching pattern."""
        check(self.rc is not None and self.rc > 0,
              "want a non-zero exit status (and no crash)\n" + self.describe())
        lines = self.error_lines()
        check(len(lines) == 1, "want exactly one '%s' line, got %d\n%s" %
              (ERR_PREFIX, len(lines), self.describe()))
        check(re.search(pattern, lines[0]) is not None,
              "error line %r does not match %r\n%s" % (lines[0], pattern, self.describe()))


class Case:
    """One test case: a temp dir, unique EAL file prefixes, the runs."""

    def __init__(self, name):
        check(BIN and os.access(BIN, os.X_OK), "set DPDK_FORWARDER to the dpdk-forwarder binary")
        self.name = name
        self.dir = tempfile.mkdtemp(prefix="fwd-e2e-%s-" % name)
        self.prefixes = []
        self.procs = []
        self.running = []
        # put before the forwarder's argv: ["ip", "netns", "exec", NS] runs it in a
        # namespace of the test's (ip execs it: the pid is the forwarder's)
        self.wrap = []

    def path(self, name):
        return os.path.join(self.dir, name)

    def prefix(self):
        p = "fwd-e2e-%s-%d-%d" % (self.name, os.getpid(), len(self.prefixes))
        self.prefixes.append(p)
        return p

    # -- devices

    def pcap_ports(self, inputs, infinite=(), tx_queues=None):
        """inputs[port][queue] = frames. Writes the rx pcaps and returns
        (vdev args, outs) with outs[port][queue] the tx_pcap paths. A port
        gets as many tx_pcap= as rx_pcap= unless tx_queues[port] says."""
        args, outs = [], []
        for p, queues in enumerate(inputs):
            kv = ["net_pcap%d" % p]
            for q, frames in enumerate(queues):
                kv.append("rx_pcap=" + write_pcap(self.path("in%d_%d.pcap" % (p, q)), frames))
            ntx = tx_queues[p] if tx_queues else len(queues)
            outs.append([self.path("out%d_%d.pcap" % (p, q)) for q in range(ntx)])
            kv += ["tx_pcap=" + o for o in outs[-1]]
            if p in infinite:
                kv.append("infinite_rx=1")
            args += ["--vdev", ",".join(kv)]
        return args, outs

    def eal(self, vdevs, lcores="0@0,1@1", mem=256):
        """Standard EAL arguments: no hugepages, no PCI, own file prefix."""
        return ["--no-huge", "-m", str(mem), "--no-pci", "--file-prefix", self.prefix(),
                "--lcores", lcores] + list(vdevs)

    # -- runs

    def _argv(self, eal, app):
        argv = [BIN] + list(eal) + ["--"] + list(app) if eal is not None else [BIN] + list(app)
        return self.wrap + argv

    def run(self, eal, app, timeout=30, stats=True):
        """Run to completion. eal=None runs with app args as the whole argv
        (no "--" added). stats=True adds --stats-file and loads it (None if the
        forwarder wrote none). A hang is killed and reported."""
        app = list(app)
        sfile = None
        if stats:
            sfile = self.path("stats%d.json" % len(self.prefixes))
            app += ["--stats-file", sfile]
        argv = self._argv(eal, app)
        t0 = time.monotonic()
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, errors="replace", cwd=self.dir)
        self.procs.append(p)
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            raise Fail("hang: still running after %d s\n%s" %
                       (timeout, Result(None, out, err, None, timeout, argv).describe()))
        return Result(p.returncode, out, err, load_stats(sfile), time.monotonic() - t0, argv)

    def start(self, eal, app):
        """Start in the background; returns a Running."""
        r = Running(self._argv(eal, app), self.dir)
        self.procs.append(r.p)
        self.running.append(r)
        return r

    def cleanup(self, keep=False):
        for p in self.procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        for r in self.running:
            r.errf.close()
        for pfx in self.prefixes:
            remove_runtime_dir(pfx)
        if keep:
            print("e2e: kept %s" % self.dir)
        else:
            shutil.rmtree(self.dir, ignore_errors=True)


class Running:
    """A forwarder running in the background, stdout read line by line."""

    def __init__(self, argv, cwd):
        self.argv = argv
        self.errpath = os.path.join(cwd, "stderr%d.txt" % id(self))
        self.errf = open(self.errpath, "w+")
        self.p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=self.errf, text=True,
                                  errors="replace", cwd=cwd)
        self.lines = []
        self.cond = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.p.stdout:
            with self.cond:
                self.lines.append(line)
                self.cond.notify_all()
        with self.cond:
            self.lines.append(None)  # EOF
            self.cond.notify_all()

    def wait_line(self, prefix, timeout):
        """Wait until stdout has a line starting with prefix; Fail on EOF or timeout."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                if any(l is not None and l.startswith(prefix) for l in self.lines):
                    return
                if None in self.lines:
                    raise Fail("exited before printing %r\n%s" % (prefix, self._describe()))
                left = deadline - time.monotonic()
                if left <= 0:
                    raise Fail("no %r line on stdout within %d s\n%s" %
                               (prefix, timeout, self._describe()))
                self.cond.wait(left)

    def _describe(self):
        self.errf.flush()
        with open(self.errpath, errors="replace") as f:
            err = f.read()
        out = "".join(l for l in self.lines if l is not None)
        return Result(self.p.poll(), out, err, None, 0, self.argv).describe()

    def describe(self):
        """Command, exit status and the tails of stdout and stderr, for messages."""
        return self._describe()

    def finish(self, timeout):
        """Wait for exit; returns (rc, stdout, stderr). A hang is killed and reported."""
        try:
            self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            raise Fail("did not exit within %d s\n%s" % (timeout, self._describe()))
        self.reader.join(5)
        self.errf.flush()
        with open(self.errpath, errors="replace") as f:
            err = f.read()
        return self.p.returncode, "".join(l for l in self.lines if l is not None), err


def runtime_dir(prefix):
    """EAL's runtime dir of a file prefix: <runtime>/dpdk/<prefix>."""
    base = "/var/run" if os.geteuid() == 0 else os.environ.get("XDG_RUNTIME_DIR", "/tmp")
    return os.path.join(base, "dpdk", prefix)


def remove_runtime_dir(prefix):
    """EAL leaves its runtime dir (<runtime>/dpdk/<prefix>) behind: remove ours."""
    shutil.rmtree(runtime_dir(prefix), ignore_errors=True)


def own_prefix(tag):
    """A file prefix "TAG_PID" for the DPDK processes (the forwarder, testpmd)
    a test runs without a Case, its runtime dir removed when the test exits:
    EAL leaves it behind, and a test leaves nothing (issue 37.16)."""
    prefix = "%s_%d" % (tag, os.getpid())
    atexit.register(remove_runtime_dir, prefix)
    return prefix


def load_stats(path):
    if path is None or not os.path.exists(path):
        return None
    with open(path) as f:
        text = f.read()
    try:
        return json.loads(text)
    except ValueError as e:
        raise Fail("stats file %s is not valid JSON: %s\n%s" % (path, e, text[:2000]))


# ---------------------------------------------------------------- stats checks

def port_stats(stats, port):
    for p in stats["ports"]:
        if p["port"] == port:
            return p
    raise Fail("port %d missing from the stats file" % port)


def check_lcore_balance(lc, generated=0):
    """One lcore's balance at a stop (its TX buffers are flushed then): what
    it received, what the route slow path gave it to send (slow_tx) and what
    it generated (--fwd pktgen) and what start tx_first sent on its queue
    (tx_first) went out (tx_pkts), was dropped under a
    reason, or was handed to the route slow path (punted)."""
    d = sum(lc["drops"].values())
    got_in = lc["rx_pkts"] + lc.get("slow_tx", 0) + lc.get("tx_first", 0) + generated
    got_out = lc["tx_pkts"] + d + lc.get("punted", 0) + lc.get("in_flight", 0)
    check(got_in == got_out,
          "lcore %d: rx_pkts %d + slow_tx %d + tx_first %d + generated %d != tx_pkts %d + "
          "drops %d + punted %d + in_flight %d (%d frames unaccounted)\n  drops %r" %
          (lc["lcore"], lc["rx_pkts"], lc.get("slow_tx", 0), lc.get("tx_first", 0), generated,
           lc["tx_pkts"], d, lc.get("punted", 0), lc.get("in_flight", 0), got_in - got_out,
           {k: v for k, v in lc["drops"].items() if v}))


def slow_path_drops(stats):
    """{reason: count} of the drops the route slow path decided (the totals
    less what the lcores counted)."""
    d = dict(stats["drops"])
    for lc in stats["lcores"]:
        for k, v in lc["drops"].items():
            d[k] -= v
    return d


def check_route_balance(stats, final=True):
    """The route slow path's balance (docs/architecture.md, "Every frame
    accounted for"): the frames the workers punted were taken by the slow
    path or are still on its rings; what it took and built was handed on to
    send, dropped under a reason, consumed (ARP used, datagrams cut into
    fragments) or is still held for ARP; what it handed on was sent by the
    worker or is still on the TX ring. @final (the stats at exit): nothing is
    in flight any more, everything left over was counted as a drop."""
    rt = stats["route"]
    sp, inf, carried = rt["slow_path"], rt["in_flight"], rt["in_flight_at_clear"]
    lcs = stats["lcores"]
    drops = slow_path_drops(stats)
    punted = sum(lc["punted"] for lc in lcs)
    slow_tx = sum(lc["slow_tx"] for lc in lcs)
    # what was in flight at a clear leaves counted without having come in since
    check_eq(punted + carried["queued"], sp["ctl_rx"] + inf["queued"],
             "frames punted by the lcores (+ on the rings at a clear) vs ctl_rx + still on the "
             "rings to the slow path")
    # the kernel twins (docs/user-guide.md, "The exception path"): ARP copies
    # built for them and what they sent came in, what went to them left
    built = (sp["icmp_errors"] + sp["arp_requests"] + sp["arp_replies"] + sp["fragments"] +
             drops["ctl_nomem"] + sp.get("arp_to_twin", 0) + sp.get("from_twin", 0))
    got_in = sp["ctl_rx"] + built + carried["held"]
    got_out = (sp["ctl_tx"] + sum(drops.values()) + sp["arp_in"] + sp["fragmented"] + inf["held"] +
               sp.get("to_twin", 0))
    check(got_in == got_out,
          "slow path: ctl_rx %d + built %d != ctl_tx %d + drops %d + arp_in %d + fragmented %d + "
          "held %d (%d frames unaccounted)\n  slow path %r\n  its drops %r" %
          (sp["ctl_rx"], built, sp["ctl_tx"], sum(drops.values()), sp["arp_in"], sp["fragmented"],
           inf["held"], got_in - got_out, sp, {k: v for k, v in drops.items() if v}))
    check_eq(sp["ctl_tx"] + carried["tx_ring"], slow_tx + inf["tx_ring"],
             "slow path ctl_tx (+ on the TX ring at a clear) vs the lcores' slow_tx + still on "
             "the TX ring")
    if final:
        check_eq(inf, {"queued": 0, "held": 0, "tx_ring": 0},
                 "frames in flight through the slow path at exit (they must be counted drops)")


def check_balance(stats, generated=None, final=True):
    """The stop-time balance of every mode, for any test: per lcore
    (check_lcore_balance()), the drop totals = the lcores' + the slow
    path's, and in route mode the slow path's own (check_route_balance()).
    @generated = {lcore: frames its generator had accepted by the port}; in
    pktgen mode it defaults to each lcore's tx_pkts (the generator's own
    balance is the pktgen tests'), so that there the received frames must all
    be counted. @final: the stats at exit (nothing left in flight)."""
    check(stats is not None, "no stats file written")
    for lc in stats["lcores"]:
        g = 0
        if generated is not None:
            g = generated.get(lc["lcore"], 0)
        elif stats["mode"] == "pktgen":
            g = lc["tx_pkts"]
        check_lcore_balance(lc, g)
        if final:
            check_eq(lc.get("in_flight", 0), 0, "lcore %d: packets in flight at a stop" % lc["lcore"])
    if "route" in stats:
        check_route_balance(stats, final)
    else:
        check_eq(slow_path_drops(stats), {k: 0 for k in stats["drops"]},
                 "drop totals vs the sum over lcores")


_LCORE_LINE = re.compile(r"^lcore (\d+): rx (\d+) tx (\d+) dropped (\d+) in flight (\d+)(.*)$")
_ALL_LINE = re.compile(r"^all lcores: rx (\d+) tx (\d+) dropped (\d+) in flight (\d+)(.*)$")
_QUEUE_LINE = re.compile(r"^    (rx|tx) port \d+ queue \d+: (\d+) pkts$")


def _extras(tail):
    """{'to slow path': n, 'from slow path': n, 'tx_first': n, 'generated': n, ...}"""
    out = {}
    for part in tail.split("|"):
        m = re.match(r"^\s*(.*?)\s*$", part).group(1)
        for k, v in re.findall(r"([a-z_]+(?: [a-z_]+)*) (\d+)", m):
            out[k] = int(v)
    return out


def parse_stats_block(text):
    """One printed stats block (periodic, show fwd stats, final): {'lcores':
    [{lcore, rx, tx, dropped, in_flight, extras, rxq: [..], txq: [..]}],
    'all': {...} or None, 'drops': {reason: n}}."""
    lcores, cur, all_, drops = [], None, None, None
    for line in text.splitlines():
        line = line.rstrip("\r")
        m = _LCORE_LINE.match(line)
        if m:
            cur = dict(zip(("lcore", "rx", "tx", "dropped", "in_flight"), map(int, m.groups()[:5])))
            cur.update(extras=_extras(m.group(6)), rxq=[], txq=[])
            lcores.append(cur)
            continue
        m = _QUEUE_LINE.match(line)
        if m and cur is not None:
            cur[m.group(1) + "q"].append(int(m.group(2)))
            continue
        m = _ALL_LINE.match(line)
        if m:
            all_ = dict(zip(("rx", "tx", "dropped", "in_flight"), map(int, m.groups()[:4])))
            all_["extras"] = _extras(m.group(5))
            continue
        if line.startswith("drops:"):
            f = line[len("drops:"):].split()
            drops = {f[i]: int(f[i + 1]) for i in range(0, len(f) - 1, 2)}
    check(lcores and drops is not None, "no lcore or drops line in the stats block:\n" + text)
    return {"lcores": lcores, "all": all_, "drops": drops}


def check_stats_block(text, final, burst=32):
    """The identity every display must show (issue 23): per lcore, rx + from
    slow path + tx_first + generated = tx + dropped + to slow path + measured
    + in flight,
    its queue lines sum to its rx and tx, in flight is 0 at a stop and at most
    what its TX buffers and one burst hold while running; in total the 'all
    lcores' line is the lcores' sum and the lcores' dropped plus the slow
    path's are the drops line's sum. Returns the parsed block."""
    b = parse_stats_block(text)
    for lc in b["lcores"]:
        x = lc["extras"]
        got_in = lc["rx"] + x.get("from slow path", 0) + x.get("tx_first", 0) + x.get("generated", 0)
        # --fwd pktgen: what the generator's receive side took is "measured", not dropped
        got_out = (lc["tx"] + lc["dropped"] + x.get("to slow path", 0) + x.get("measured", 0) +
                   lc["in_flight"])
        check(got_in == got_out, "lcore %d does not add up (in %d, out %d): %r\n%s" %
              (lc["lcore"], got_in, got_out, lc, text))
        check_eq(sum(lc["rxq"]), lc["rx"], "lcore %d: its rx queue lines vs rx\n%s" % (lc["lcore"], text))
        check_eq(sum(lc["txq"]), lc["tx"], "lcore %d: its tx queue lines vs tx\n%s" % (lc["lcore"], text))
        # Live, 'in flight' also holds what the worker received between the snapshot's read of
        # its outputs and of its inputs: bounded by the reader's own delay (a descheduled reader
        # on a loaded box saw 192 with 96 buffered), so only its sign is checked; at a stop, 0.
        if final:
            check_eq(lc["in_flight"], 0, "lcore %d: in flight at a stop\n%s" % (lc["lcore"], text))
        else:
            check(lc["in_flight"] >= 0, "lcore %d: in flight %d < 0\n%s" %
                  (lc["lcore"], lc["in_flight"], text))
    ctl = 0
    if b["all"] is not None:
        a = b["all"]
        for k in ("rx", "tx", "dropped", "in_flight"):
            check_eq(a[k], sum(lc[k] for lc in b["lcores"]), "all lcores %s\n%s" % (k, text))
        ctl = a["extras"].get("slow path dropped", 0)
    check_eq(sum(b["drops"].values()), sum(lc["dropped"] for lc in b["lcores"]) + ctl,
             "the drops line's sum vs the lcores' dropped + the slow path's\n" + text)
    return b


def stats_blocks_text(stdout):
    """The printed '=== ... ===' stats blocks of a run's stdout: [(title, text)]."""
    parts = re.split(r"^(=== .* ===)$", stdout, flags=re.M)
    return [(parts[i], parts[i + 1]) for i in range(1, len(parts) - 1, 2)]


def check_stats(stats, inputs=None, outputs=None):
    """What must hold after every clean run: every lcore's balance and the
    totals' (check_balance()), every mbuf is back. With inputs[port] (frames
    received) and outputs[port] (frames in its tx pcaps), each port's packet
    and byte counters must equal the pcaps'."""
    check(stats is not None, "no stats file written")
    check_eq(stats["mbufs_leaked"], 0, "mbufs_leaked")
    check(len(stats["mempools"]) >= 1, "no mempool in the stats file")
    for mp in stats["mempools"]:
        check_eq(mp["available"], mp["size"], "mempool %s available" % mp["name"])
    check_balance(stats)
    total_drops = {k: 0 for k in stats["drops"]}
    rx = tx = 0
    for lc in stats["lcores"]:
        check_eq(sum(q["pkts"] for q in lc["rx_queues"]), lc["rx_pkts"],
                 "lcore %d: sum of its rx queue counters" % lc["lcore"])
        check_eq(sum(q["pkts"] for q in lc["tx_queues"]), lc["tx_pkts"],
                 "lcore %d: sum of its tx queue counters" % lc["lcore"])
        for k, v in lc["drops"].items():
            total_drops[k] += v
        rx += lc["rx_pkts"]
        tx += lc["tx_pkts"]
    if "route" not in stats:
        check_eq(stats["drops"], total_drops, "global drops vs the sum over lcores")
    check_eq(rx, sum(p["ipackets"] for p in stats["ports"]), "lcores' rx vs ports' ipackets")
    check_eq(tx, sum(p["opackets"] for p in stats["ports"]), "lcores' tx vs ports' opackets")
    for p in stats["ports"]:
        for k in ("imissed", "ierrors", "oerrors", "rx_nombuf"):
            check_eq(p[k], 0, "port %d %s" % (p["port"], k))
    if inputs is not None:
        for port, frames in enumerate(inputs):
            ps = port_stats(stats, port)
            check_eq(ps["ipackets"], len(frames), "port %d ipackets vs its rx pcaps" % port)
            check_eq(ps["ibytes"], sum(map(len, frames)), "port %d ibytes vs its rx pcaps" % port)
    if outputs is not None:
        for port, frames in enumerate(outputs):
            ps = port_stats(stats, port)
            check_eq(ps["opackets"], len(frames), "port %d opackets vs its tx pcaps" % port)
            check_eq(ps["obytes"], sum(map(len, frames)), "port %d obytes vs its tx pcaps" % port)


def default_peer(port):
    """The forwarder's default --fwd mac peer of an output port (testpmd's)."""
    return bytes([2, 0, 0, 0, 0, port])


def mac_rewrite(frame, dst, src):
    return dst + src + frame[12:]


def mac_swap(frame):
    return frame[6:12] + frame[0:6] + frame[12:]


def signal_by_name(name):
    return getattr(signal, name)


class Skip(Exception):
    """A case that cannot run on this build: meson counts exit 77 as skipped."""


def need_fec_pmd():
    """Skip the case when the build has no net_fec (-Dfec_pmd: meson sets FWD_FEC_PMD=0)."""
    if os.environ.get("FWD_FEC_PMD", "1") == "0":
        raise Skip("net_fec is not built here (-Dfec_pmd: the driver-SDK headers of this "
                   "DPDK could not be had)")


def run_cases(argv, cases, prefix, registry):
    """The command line of every end-to-end script: CASE runs one case in its own
    Case (temp dir kept on failure with E2E_KEEP=1); --list prints the cases;
    --check-registered NAMES... fails unless NAMES are exactly the cases (so a case
    missing from the meson.build named by @registry cannot go unnoticed).
    Returns the exit status."""
    import sys
    import traceback

    if len(argv) == 2 and argv[1] == "--list":
        print("\n".join(cases))
        return 0
    if len(argv) >= 2 and argv[1] == "--check-registered":
        missing = sorted(set(cases) - set(argv[2:]))
        extra = sorted(set(argv[2:]) - set(cases))
        if missing or extra:
            print("%s and %s disagree: not registered %r, unknown %r" %
                  (registry, os.path.basename(argv[0]), missing, extra))
            return 1
        print("all %d cases are registered" % len(cases))
        return 0
    if len(argv) != 2 or argv[1] not in cases:
        print("usage: %s CASE | --list\ncases: %s" % (argv[0], " ".join(cases)), file=sys.stderr)
        return 2
    name = argv[1]
    c = Case(prefix + name)
    ok = False
    t0 = time.monotonic()
    try:
        cases[name](c)
        ok = True
    except Skip as e:
        print("SKIP %s: %s" % (name, e))
        c.cleanup(keep=False)
        return 77
    except Fail as e:
        print("FAIL %s: %s" % (name, e))
    except Exception:
        print("ERROR %s:" % name)
        traceback.print_exc(file=sys.stdout)
    finally:
        c.cleanup(keep=not ok and os.environ.get("E2E_KEEP") == "1")
    if ok:
        print("PASS %s (%.1f s)" % (name, time.monotonic() - t0))
    return 0 if ok else 1
