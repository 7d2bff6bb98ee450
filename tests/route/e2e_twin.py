#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""End-to-end tests of the exception path (issue 18, docs/user-guide.md "The
exception path"): the router's port 0 has a kernel twin, a TAP the
forwarder makes in a namespace of the test's own (twin-netns); port 1 has
none. The forwarder runs in a namespace of its own; its ports are net_tap
devices there, each joined by tc to a veth whose other end is in a peer
namespace (port 0's network, 10.0.0.0/24) or a far one (port 1's,
10.1.0.0/24), so real kernels talk through the router (tcp: net_af_packet on
the veths instead, the other kind of kernel-facing port):

- tcp: a TCP connection from the peer to the router's address reaches a
  listener in the twin's namespace and its reply comes back (both
  directions, and ARP: the twin learns the peer from the ARP copies);
- flood: a UDP flood at the router's address beyond punt-rate is dropped as
  punt_rate (what passes is within the bucket), while frames forwarded to
  the far namespace keep arriving; UDP to port 1's address (no twin) is
  dropped as local_other; link-local multicast (224.0.0.9) reaches the
  twin's group member from port 0 and is dropped on port 1;
- bgp: FRR's bgpd in the peer namespace and in the twin's (with zebra
  feeding the forwarder over FPM): the session runs through the twin, and
  the route it learns forwards the far end's frames to the peer (skips
  without FRR);
- ping: iputils ping from the peer: the router's address answered by the
  slow path (not the twin), the far host through the router, a DF ping of
  port 1's MTU through and a larger one answered "frag needed" with the MTU;
- traceroute: traceroute -n from the peer to the far host, UDP and -I: hop
  1 the router (time exceeded from the slow path), hop 2 the far host;
- show: the shell's show twin;
- restart: port 0 stopped and started from the shell (net_tap gives its TAP
  the port's MAC again): the wire to it and the twin's TCP work after;
- slow_start: the forwarder held inside its ports' start (strace delays its
  ioctls): pings to the router and through it pass;
- bad_config: bad twin lines stop the start-up with their file:line.

Every run leaks no mbuf and keeps the slow path's balance. Needs root
(namespaces); skips (77) with a message when it is refused.

    e2e_twin.py CASE | --list | --check-registered CASE...
"""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
sys.path.insert(0, HERE)
import fwdtest as ft  # noqa: E402
from fwdtest import Fail, check, check_eq  # noqa: E402
import e2e_route as er  # noqa: E402
from frr import FRR, Frr  # noqa: E402

PY = "/usr/bin/python3"
WAIT_S = 20  # the twin's address must show within this (a bounded poll)

# run in a namespace by `ip netns exec`: the peer's and far end's helpers
TX_CSUM_OFF = r"""
import ctypes, fcntl, socket, struct, sys
# ETHTOOL_STXCSUM off: a veth leaves TCP/UDP checksums to the receiver, and
# the router would carry them unfinished to the twin
ev = ctypes.create_string_buffer(struct.pack("II", 0x17, 0))
ifr = struct.pack("16sP", sys.argv[1].encode(), ctypes.addressof(ev)) + bytes(16)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
fcntl.ioctl(s.fileno(), 0x8946, ifr)
"""


class Topology:
    """Namespaces peer, rtr (the twins'), far, and dp: the forwarder's own (it
    runs there, `ip netns exec`, so nothing of the test is in the namespace
    the test was started in). A veth from dp to peer (port 0's network,
    10.0.0.2 on the peer's eth0) and one to far (port 1's, 10.1.0.2).
    @ports "tap": the forwarder's ports are net_tap devices it makes in dp
    (tap0, tap1), each joined there to its veth once it exists
    (wire_taps()); "af_packet": net_af_packet on the veths' dp ends (v0, v1).
    @fpm: a veth from dp (self.fpm_addr, the forwarder's FPM listener) to rtr
    (zebra). Deleted at exit: the namespaces take their devices with them."""

    TAP_MAC = ("02:00:0a:00:00:01", "02:00:0a:01:00:01")

    def __init__(self, fpm=False, ports="tap"):
        tag = "%d" % (os.getpid() % 100000)
        self.ports = ports
        self.ns = {k: "fwdtw-%s-%s" % (k, tag) for k in ("peer", "rtr", "far", "dp")}
        self.created = []
        p = subprocess.run(["ip", "netns", "add", self.ns["peer"]], capture_output=True, text=True)
        if p.returncode != 0:
            print("SKIP: ip netns add is not permitted here (%s): the twin tests need root" %
                  p.stderr.strip())
            sys.exit(77)
        self.created.append(self.ns["peer"])
        try:
            for k in ("rtr", "far", "dp"):
                self.sh("ip", "netns", "add", self.ns[k])
                self.created.append(self.ns[k])
            # the router is IPv4's alone: no IPv6 from dp's kernel (taps, veths) on the wire
            self.exec("dp", "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
                      "net.ipv6.conf.default.disable_ipv6=1")
            self.ip("dp", "link", "set", "lo", "up")
            for i, ns, addr in ((0, "peer", "10.0.0.2"), (1, "far", "10.1.0.2")):
                v = "v%d" % i
                self.ip("dp", "link", "add", v, "type", "veth", "peer", "name", "eth0", "netns",
                        self.ns[ns])
                self.ip("dp", "link", "set", v, "up")
                self.ip(ns, "link", "set", "lo", "up")
                self.ip(ns, "addr", "add", addr + "/24", "dev", "eth0")
                self.ip(ns, "link", "set", "eth0", "up")
                self.ip(ns, "route", "add", "default", "via", addr.rsplit(".", 1)[0] + ".1")
                self.run(ns, TX_CSUM_OFF, "eth0")
            self.ip("rtr", "link", "set", "lo", "up")
            if fpm:
                # zebra in rtr reaches the forwarder's FPM listener in dp
                self.fpm_addr = "192.168.255.1"
                self.ip("dp", "link", "add", "fpm", "type", "veth", "peer", "name", "fpm", "netns",
                        self.ns["rtr"])
                self.ip("dp", "addr", "add", self.fpm_addr + "/30", "dev", "fpm")
                self.ip("dp", "link", "set", "fpm", "up")
                self.ip("rtr", "addr", "add", "192.168.255.2/30", "dev", "fpm")
                self.ip("rtr", "link", "set", "fpm", "up")
        except BaseException:
            self.delete()
            raise

    def vdevs(self):
        """The forwarder's two ports, as --vdev arguments."""
        if self.ports == "af_packet":
            return ["--vdev", "net_af_packet0,iface=v0", "--vdev", "net_af_packet1,iface=v1"]
        return ["--vdev", "net_tap0,iface=tap0,mac=%s" % self.TAP_MAC[0],
                "--vdev", "net_tap1,iface=tap1,mac=%s" % self.TAP_MAC[1]]

    def port_mac(self, port):
        """Port @port's MAC: the net_tap devarg's, or its veth's."""
        if self.ports == "af_packet":
            return json.loads(self.ip("dp", "-j", "link", "show", "v%d" % port))[0]["address"]
        return self.TAP_MAC[port]

    def wire_taps(self, run):
        """net_tap: once the forwarder (Running @run) has started tap0 and tap1
        in dp, join each to its veth there (no-op for af_packet): tc redirects
        every frame each way (u32 matching all, mirred), so that neither dp's
        kernel nor any MAC decides where a frame goes. Not a bridge: net_tap gives
        its netdev the port's MAC at every port start (rte_eth_dev_start()
        restores it after the link is up), and a bridge keeps the frames for a
        MAC of its ports for dp's kernel: a port start after the bridge had
        changed the netdev's MAC -- a restart, or the first start racing the
        change on a busy machine -- left the port deaf to every unicast frame
        for the router, for good (route-bgp-e2e-routes, 2026-12: A's session
        stuck in Connect for 8 minutes)."""
        if self.ports != "tap":
            return
        deadline = time.monotonic() + WAIT_S
        for i in (0, 1):
            tap = "tap%d" % i
            while not re.search(r"[<,]UP[,>]", subprocess.run(
                    ["ip", "-n", self.ns["dp"], "link", "show", tap], capture_output=True,
                    text=True).stdout):
                if run.p.poll() is not None or time.monotonic() > deadline:
                    raise Fail("no %s up in %s within %d s\n%s" %
                               (tap, self.ns["dp"], WAIT_S, run.describe()))
                time.sleep(0.1)
            for a, b in ((tap, "v%d" % i), ("v%d" % i, tap)):
                self.tc("qdisc", "add", "dev", a, "handle", "ffff:", "ingress")
                self.tc("filter", "add", "dev", a, "parent", "ffff:", "protocol", "all", "u32",
                        "match", "u32", "0", "0", "action", "mirred", "egress", "redirect",
                        "dev", b)

    def tc(self, *args):
        """tc in dp; a qdisc net_tap made already (its rte_flow's ingress) is kept."""
        p = subprocess.run(["tc", "-n", self.ns["dp"]] + list(args), capture_output=True,
                           text=True)
        exists = "File exists" in p.stderr or "Exclusivity flag on" in p.stderr  # EEXIST
        check(p.returncode == 0 or (args[0] == "qdisc" and exists),
              "tc -n %s %s: %s" % (self.ns["dp"], " ".join(args), p.stderr))

    def tap_tx_dropped(self, port):
        """Frames dp's kernel could not queue to the forwarder on tap@port (its
        queue full): where a frame is lost before the router sees it."""
        st = json.loads(self.ip("dp", "-s", "-j", "link", "show", "tap%d" % port))[0]
        return st["stats64"]["tx"]["dropped"]

    @staticmethod
    def sh(*args):
        p = subprocess.run(list(args), capture_output=True, text=True)
        check(p.returncode == 0, "%s: %s" % (" ".join(args), p.stderr))
        return p.stdout

    def ip(self, ns, *args):
        return self.sh("ip", "-n", self.ns[ns], *args)

    def exec(self, ns, *args):
        return self.sh("ip", "netns", "exec", self.ns[ns], *args)

    def run(self, ns, code, *args, timeout=30):
        """Python @code in namespace @ns; its stdout."""
        p = subprocess.run(["ip", "netns", "exec", self.ns[ns], PY, "-c", code] + list(args),
                           capture_output=True, text=True, timeout=timeout)
        check(p.returncode == 0, "in %s: %s" % (ns, p.stderr[-2000:]))
        return p.stdout

    def popen(self, ns, code, *args):
        return subprocess.Popen(["ip", "netns", "exec", self.ns[ns], PY, "-c", code] + list(args),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def delete(self):
        for ns in self.created:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)
        self.created = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.delete()


DIAG_CHARS = 1500  # each command's share of a failure's message (head and tail)


def _cut(text, n=DIAG_CHARS):
    text = text.rstrip()
    return text if len(text) <= n else "%s\n[... %d chars ...]\n%s" % (
        text[:n // 2], len(text) - n, text[-n // 2:])


def diagnose(topo, tel=None):
    """What a failure on a port's path says, bounded (about 25 kB): the
    forwarder's twins, drops, slow-path and port counters (@tel: a function
    of a telemetry command, None without), and each namespace's kernel view of
    the wires -- addresses, neighbours, link counters, TCP sockets (rtr: the
    twins; peer; far; dp: the forwarder's TAPs and veths and what tc redirected
    to port 0 and from it)."""
    out = []
    if tel is not None:
        def nonzero(d):
            return {k: v for k, v in d.items() if v and not isinstance(v, (list, dict))}
        for cmd, f in (("/forwarder/twins", None), ("/forwarder/drops", nonzero),
                       ("/forwarder/router", nonzero)):
            try:
                d = tel(cmd)
                out.append("%s: %s" % (cmd, _cut(json.dumps(f(d) if f else d), 800)))
            except Exception as e:  # the forwarder gone: say so, go on
                out.append("%s: %r" % (cmd, e))
        for port in range(4):
            try:
                d = tel("/ethdev/stats,%d" % port)
                if d is None:  # no such port (no twin of port 1)
                    continue
                out.append("/ethdev/stats,%d: %s" % (port, json.dumps(
                    {k: v for k, v in d.items() if not isinstance(v, list)})))
            except Exception as e:
                out.append("/ethdev/stats,%d: %r" % (port, e))
    cmds = []
    for ns in ("rtr", "peer", "far"):
        cmds += [(ns, ["ip", "addr"]), (ns, ["ip", "neigh"]), (ns, ["ip", "-s", "-j", "link"]),
                 (ns, ["ss", "-tan"])]
    cmds += [("dp", ["ip", "-s", "-j", "link"])]
    cmds += [("dp", ["tc", "-s", "filter", "show", "dev", d, "ingress"]) for d in ("v0", "tap0")]
    for ns, argv in cmds:
        if ns not in topo.ns or not topo.created:
            continue
        p = subprocess.run(["ip", "netns", "exec", topo.ns[ns]] + argv, capture_output=True,
                           text=True, timeout=30)
        text = p.stdout
        if "-j" in argv and p.returncode == 0:
            text = "\n".join(_link_line(d) for d in json.loads(p.stdout))
        out.append("--- %s in %s\n%s" % (" ".join(argv), ns, _cut(text + p.stderr)))
    return "\n".join(out)


def _link_line(d):
    """One line of `ip -s -j link`'s device @d: name, flags, MAC, master, counters."""
    st = d.get("stats64", {})
    rx, tx = st.get("rx", {}), st.get("tx", {})
    return "%s <%s> %s%s rx %s pkts %s dropped %s errors, tx %s pkts %s dropped %s errors" % (
        d.get("ifname"), ",".join(d.get("flags", [])), d.get("address"),
        " master " + d["master"] if "master" in d else "", rx.get("packets"), rx.get("dropped"),
        rx.get("errors"), tx.get("packets"), tx.get("dropped"), tx.get("errors"))


def config(c, topo, rate=None, extra=(), port1=(), twin1=None):
    """Port 0 with twin rtr0 (@rate its punt-rate), port 1 (its keys @port1)
    with twin @twin1 or none, the twins in topo's rtr namespace; @extra: [route] lines."""
    lines = ["[forward]", "fwd = route", "[port 0]", "ip = 10.0.0.1/24", "twin = rtr0"]
    if rate is not None:
        lines.append("punt-rate = %d" % rate)
    lines += ["[port 1]", "ip = 10.1.0.1/24"] + (["twin = %s" % twin1] if twin1 else [])
    lines += list(port1)
    lines += ["[route]", "twin-netns = %s" % topo.ns["rtr"]]
    lines += list(extra)
    path = c.path("twin.ini")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def start(c, topo, cfg, duration):
    """The forwarder on the topology's ports, in its namespace, running;
    returns (Running, stats path) once the twin is up with the port's address
    and MAC (and net_tap's ports wired)."""
    sfile = c.path("stats.json")
    c.wrap = ["ip", "netns", "exec", topo.ns["dp"]]
    run = c.start(c.eal(topo.vdevs(), mem=512),
                  ["--config", cfg, "--duration", str(duration), "--stats-file", sfile])
    topo.wire_taps(run)
    mac = topo.port_mac(0)
    deadline = time.monotonic() + WAIT_S
    while True:
        p = subprocess.run(["ip", "-n", topo.ns["rtr"], "addr", "show", "dev", "rtr0"],
                           capture_output=True, text=True)
        if "inet 10.0.0.1/24" in p.stdout and "UP" in p.stdout:
            check(mac in p.stdout, "twin rtr0 has port 0's MAC %s:\n%s" % (mac, p.stdout))
            # the router is IPv4's alone: the twin sends no IPv6 out of the port
            check("inet6" not in p.stdout, "twin rtr0 without IPv6:\n%s" % p.stdout)
            break
        if run.p.poll() is not None or time.monotonic() > deadline:
            raise Fail("no twin rtr0 with 10.0.0.1/24 in %s within %d s\n%s\n%s" %
                       (topo.ns["rtr"], WAIT_S, run.describe(), diagnose(topo)))
        time.sleep(0.2)
    time.sleep(1)  # the workers start after the set-up that made the twin
    return run, sfile


def finish(run, sfile, timeout=60):
    rc, out, err = run.finish(timeout)
    check_eq(rc, 0, "exit status\n" + run.describe())
    st = ft.load_stats(sfile)
    check(st is not None, "no stats file\n" + run.describe())
    check_eq(st["mbufs_leaked"], 0, "mbufs_leaked")
    for mp in st["mempools"]:
        check_eq(mp["available"], mp["size"], "mempool %s available at exit" % mp["name"])
    ft.check_balance(st)
    return st, out


SERVER = r"""
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("10.0.0.1", 179))
s.listen(1)
s.settimeout(20)
print("listening", flush=True)
c, a = s.accept()
c.settimeout(10)
d = c.recv(100)
c.sendall(b"pong:" + d)
print("from %s:%d %s" % (a[0], a[1], d.decode()), flush=True)
c.close()
"""

CLIENT = r"""
import socket
c = socket.create_connection(("10.0.0.1", 179), timeout=10)
c.sendall(b"ping")
print(c.recv(100).decode())
"""


def enl_shell():
    """tests/shell/run.py (e2e_nlsync's loader: e2e_nlsync imports this module)."""
    import e2e_nlsync as enl
    return enl.shell_mod()


def telemetry(prefix, cmd):
    """One telemetry request to the forwarder of EAL file prefix @prefix."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.settimeout(10)
    s.connect("/var/run/dpdk/%s/dpdk_telemetry.v2" % prefix)
    json.loads(s.recv(4096))  # the greeting
    s.send(cmd.encode())
    out = json.loads(s.recv(65536))
    s.close()
    return out[cmd.split(",")[0]]  # the reply is keyed by the command without its parameters


def case_tcp(c):
    """A TCP connection (to 179, BGP's port) from the peer to the router's
    address is the twin's kernel's: the listener there gets the data from
    the peer's address and the peer gets its reply. The ports are
    net_af_packet here (net_tap in the other cases)."""
    with Topology(ports="af_packet") as topo:
        run, sfile = start(c, topo, config(c, topo), 6)
        srv = topo.popen("rtr", SERVER)
        check_eq(srv.stdout.readline().strip(), "listening", "server in the twin's namespace")
        got = topo.run("peer", CLIENT).strip()
        out, err = srv.communicate(timeout=20)
        check_eq(got, "pong:ping", "the peer's answer from the twin")
        check(out.strip().startswith("from 10.0.0.2:"), "the server's peer: %r %r" % (out, err))
        tel = telemetry(c.prefixes[-1], "/forwarder/twins")
        check_eq({k: tel["port0"][k] for k in ("ifname", "netns", "punt_rate")},
                 {"ifname": "rtr0", "netns": topo.ns["rtr"], "punt_rate": 10000},
                 "/forwarder/twins port0")
        check("port1" not in tel and tel["to_twin"] >= 3 and tel["from_twin"] >= 3,
              "/forwarder/twins: %r" % tel)
        st, _ = finish(run, sfile)
        sp = st["route"]["slow_path"]
        # SYN, data, ACKs, FIN at least; the reply (SYN-ACK, data, FIN) at least
        check(sp["to_twin"] >= 3, "to_twin %d" % sp["to_twin"])
        check(sp["from_twin"] >= 3, "from_twin %d" % sp["from_twin"])
        check(sp["arp_to_twin"] >= 1, "arp_to_twin %d: the peer's ARP copied" % sp["arp_to_twin"])
        check_eq(st["drops"]["local_other"], 0, "local_other (port 0 has a twin)")
        check_eq(st["drops"]["punt_rate"], 0, "punt_rate under the default rate")


UDP_SINK = r"""
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
group = sys.argv[2] if len(sys.argv) > 2 else ""
if group:
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((group, int(sys.argv[1])))
    s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                 socket.inet_aton(group) + socket.inet_aton(sys.argv[3]))
else:
    s.bind(("", int(sys.argv[1])))
s.settimeout(0.2)
print("ready", flush=True)
# until @argv[4] s have passed, or 1.5 s with nothing after the first, or @argv[5] came
n, end, last = 0, time.monotonic() + float(sys.argv[4]), None
most = int(sys.argv[5]) if len(sys.argv) > 5 else 1 << 62
while time.monotonic() < end and (last is None or time.monotonic() - last < 1.5) and n < most:
    try:
        s.recv(2048)
        n += 1
        last = time.monotonic()
    except socket.timeout:
        pass
print(n)
"""

# argv: dst port n [every fwd_dst fwd_n]: n datagrams to dst, as fast as it goes,
# and one to fwd_dst every @every of them
UDP_SEND = r"""
import socket, sys, time
dst, port, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
every = int(sys.argv[4]) if len(sys.argv) > 4 else 0
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
if dst.startswith("224."):
    s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 1)
t0, fwd = time.monotonic(), 0
for i in range(n):
    s.sendto(b"x" * 64, (dst, port))
    if every and i % every == 0:
        s.sendto(b"f" * 64, (sys.argv[5], 9000))
        fwd += 1
        time.sleep(0.001)
print(fwd, time.monotonic() - t0)
"""


def case_flood(c):
    """A UDP flood at the router's address beyond punt-rate: the excess is
    dropped as punt_rate, what went to the twin is within the bucket, and
    the frames forwarded meanwhile from the peer to the far end all pass.
    UDP to port 1's address (no twin) is local_other; 224.0.0.9 reaches the
    twin's group member from port 0 and is dropped as mcast_dst on port 1."""
    rate = 200
    with Topology() as topo:
        run, sfile = start(c, topo, config(c, topo, rate=rate), 20)
        # the far end knows the router first (ARP), so no forwarded frame waits
        topo.run("far", UDP_SEND, "10.1.0.1", "7", "1")
        twin_sink = topo.popen("rtr", UDP_SINK, "9999", "", "", "12")
        far_sink = topo.popen("far", UDP_SINK, "9000", "", "", "12")
        for p in (twin_sink, far_sink):
            check_eq(p.stdout.readline().strip(), "ready", "sink")
        fwd, secs = topo.run("peer", UDP_SEND, "10.0.0.1", "9999", "20000", "100",
                             "10.1.0.2").split()
        fwd, secs = int(fwd), float(secs)
        twin_got = int(twin_sink.communicate(timeout=30)[0].split()[-1])
        far_got = int(far_sink.communicate(timeout=30)[0].split()[-1])
        # before the forwarder exits (its taps go with it): what dp's kernel could
        # not queue to port 0 when the forwarder was slower than the flood (a CPU
        # shared with other tests), flood and forwarded frames alike
        lost_before = topo.tap_tx_dropped(0)
        # port 1 has no twin: its address drops what the slow path does not answer
        topo.run("far", UDP_SEND, "10.1.0.1", "7", "20")
        # link-local multicast: the twin's member gets it from port 0 only
        mc = topo.popen("rtr", UDP_SINK, "520", "224.0.0.9", "10.0.0.1", "3")
        check_eq(mc.stdout.readline().strip(), "ready", "multicast sink")
        time.sleep(0.5)  # the member's IGMP join
        topo.run("peer", UDP_SEND, "224.0.0.9", "520", "10")
        topo.run("far", UDP_SEND, "224.0.0.9", "520", "10")
        mc_got = int(mc.communicate(timeout=30)[0].split()[-1])
        st, _ = finish(run, sfile)
        sp, drops = st["route"]["slow_path"], st["drops"]
        # the bucket: rate per second and a burst of max(rate / 10, 32); the
        # whole run's to_twin (the flood, the multicast, the twin's ARP copies)
        bound = rate * (secs + 1) + 32 + 10 + 10
        check(sp["to_twin"] <= bound, "to_twin %d within punt-rate (%d)" % (sp["to_twin"], bound))
        # every flood frame is accounted for: to the twin (within the bucket), dropped
        # as punt_rate (the excess), on the way there (punt_full, twin_tx_full), or
        # before the router (dp's kernel could not queue it to the forwarder: on a
        # busy machine over half of the flood, seen; not the router's doing)
        seen = drops["punt_rate"] + drops["punt_full"] + drops["twin_tx_full"] + sp["to_twin"]
        check(drops["punt_rate"] > 0 and seen + lost_before >= 20000,
              "a 20000 flood at punt-rate %d: punt_rate %d, punt_full %d, twin_tx_full %d, "
              "to_twin %d, %d lost before the router" % (
                  rate, drops["punt_rate"], drops["punt_full"], drops["twin_tx_full"],
                  sp["to_twin"], lost_before))
        check(0 < twin_got <= sp["to_twin"], "the twin's socket got %d of to_twin %d" %
              (twin_got, sp["to_twin"]))
        # the flood shares the port's RX queue with them and nothing after: every
        # frame the router took was forwarded and arrived, and the ones it did not
        # take are within what the tap's queue dropped (none on a quiet machine)
        fwded = sum(lc["forwarded"] for lc in st["route"]["lcores"])
        check(0 < fwded == far_got and fwded + lost_before >= fwd,
              "frames to the far end during the %.1f s flood: %d sent, the router forwarded "
              "%d, %d arrived; the tap dropped %d frames before the router" %
              (secs, fwd, fwded, far_got, lost_before))
        check_eq(drops["local_other"], 21, "local_other: UDP to port 1's address (no twin)")
        check_eq(mc_got, 10, "224.0.0.9 from port 0 at the twin's member")
        check(drops["mcast_dst"] >= 10, "mcast_dst %d: 224.0.0.9 on port 1" % drops["mcast_dst"])


BGP_WAIT_S = 60  # two bgpd's session, zebra's FPM connect and replay: seconds, bounded

ROUTE_FWD = r"""
import socket, sys, time
# one datagram to 172.16.0.1 every 0.2 s until the peer's sink says it got one (argv[1] s)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
end = time.monotonic() + float(sys.argv[1])
n = 0
while time.monotonic() < end:
    s.sendto(b"bgp", ("172.16.0.1", 9000))
    n += 1
    time.sleep(0.2)
print(n)
"""


def case_bgp(c):
    """BGP through the forwarder: bgpd in the peer namespace announces
    172.16.0.0/16 to bgpd in the twin's namespace (a TCP session to the
    router's address, through the twin); zebra there hands the route to the
    forwarder over FPM, and frames from the far end to 172.16.0.1 are then
    forwarded to the peer."""
    if not os.path.exists(os.path.join(FRR, "bgpd")):
        print("SKIP: %s/bgpd is not installed (apt-get install frr)" % FRR)
        sys.exit(77)
    with Topology(fpm=True) as topo:
        frr = Frr(topo.ns, "fwdtw")
        try:
            topo.ip("peer", "addr", "add", "172.16.0.1/16", "dev", "lo")
            cfg = config(c, topo, extra=["fpm-listen = %s:2620" % topo.fpm_addr])
            run, sfile = start(c, topo, cfg, BGP_WAIT_S + 30)
            frr.daemon("rtr", "zebra", ["fpm address %s port 2620" % topo.fpm_addr],
                       ["-M", "dplane_fpm_nl"])
            frr.daemon("rtr", "bgpd", [
                "router bgp 65001", " bgp router-id 10.0.0.1", " no bgp ebgp-requires-policy",
                " neighbor 10.0.0.2 remote-as 65002", " neighbor 10.0.0.2 timers connect 1"])
            frr.daemon("peer", "zebra", [])
            frr.daemon("peer", "bgpd", [
                "router bgp 65002", " bgp router-id 10.0.0.2", " no bgp ebgp-requires-policy",
                " neighbor 10.0.0.1 remote-as 65001", " neighbor 10.0.0.1 timers connect 1",
                " address-family ipv4 unicast", "  network 172.16.0.0/16",
                " exit-address-family"])
            sink = topo.popen("peer", UDP_SINK, "9000", "", "", str(BGP_WAIT_S), "5")
            check_eq(sink.stdout.readline().strip(), "ready", "sink")
            sender = topo.popen("far", ROUTE_FWD, str(BGP_WAIT_S))
            got = int(sink.communicate(timeout=BGP_WAIT_S + 30)[0].split()[-1])
            sender.kill()
            sender.wait()
            if got == 0:
                raise Fail("nothing from the far end reached 172.16.0.1 in %d s\n%s\n%s\n%s" %
                           (BGP_WAIT_S, run.describe(), diagnose(
                               topo, lambda cmd: telemetry(c.prefixes[-1], cmd)), frr.logs()))
            routes = telemetry(c.prefixes[-1], "/forwarder/routes")
            r = routes.get("172_16_0_0/16")
            check(isinstance(r, str) and r.startswith("via 10.0.0.2 dev 0 proto fpm"),
                  "172.16.0.0/16 in the forwarder: %r" % r)
            run.p.send_signal(signal.SIGINT)
            st, _ = finish(run, sfile)
            sp = st["route"]["slow_path"]
            check(sp["to_twin"] >= 5 and sp["from_twin"] >= 5,
                  "the BGP session through the twin: to_twin %d from_twin %d" %
                  (sp["to_twin"], sp["from_twin"]))
            print("bgp: %d datagrams through the BGP route; slow path %r" %
                  (got, {k: v for k, v in sp.items() if v}))
        finally:
            frr.stop()


def tool(topo, ns, *argv, timeout=30):
    """A real tool (ping, traceroute) in namespace @ns: (exit status, stdout)."""
    p = subprocess.run(["ip", "netns", "exec", topo.ns[ns]] + list(argv),
                       capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout + p.stderr


def need_tool(name):
    if shutil.which(name) is None:
        print("SKIP: %s is not installed (scripts/setup.sh installs it)" % name)
        sys.exit(77)


def check_ping(out, dst, ttl, n, what):
    """iputils ping's output for @n echoes to @dst, all answered with @ttl."""
    lines = out.splitlines()
    check_eq(lines[0], "PING %s (%s) 56(84) bytes of data." % (dst, dst), "%s: first line" % what)
    got = [ln for ln in lines if ln.startswith("64 bytes")]
    check_eq(len(got), n, "%s: replies in\n%s" % (what, out))
    for i, ln in enumerate(got):
        check(re.fullmatch(r"64 bytes from %s: icmp_seq=%d ttl=%d time=[0-9.]+ ms" %
                           (re.escape(dst), i + 1, ttl), ln), "%s: reply %r" % (what, ln))
    check(re.search(r"^%d packets transmitted, %d received, 0%% packet loss, time \d+ms$" % (n, n),
                    out, re.M), "%s: summary in\n%s" % (what, out))


def case_ping(c):
    """iputils ping from the peer: the router's address answers from the
    slow path (echo_replies, nothing of it to the twin, TTL 64), a host of
    the far namespace through the router (TTL 63, the workers forward it),
    a DF ping of exactly port 1's MTU (1000) passes, and one larger gets
    "Frag needed and DF set (mtu = 1000)" from the router's address."""
    need_tool("ping")
    with Topology() as topo:
        run, sfile = start(c, topo, config(c, topo, port1=["mtu = 1000"]), 60)
        rc, out = tool(topo, "peer", "ping", "-n", "-c", "3", "-i", "0.2", "-W", "2", "10.0.0.1")
        check_eq(rc, 0, "ping 10.0.0.1:\n" + out)
        check_ping(out, "10.0.0.1", 64, 3, "ping the router")
        rc, out = tool(topo, "peer", "ping", "-n", "-c", "3", "-i", "0.2", "-W", "2", "10.1.0.2")
        check_eq(rc, 0, "ping 10.1.0.2:\n" + out)
        check_ping(out, "10.1.0.2", 63, 3, "ping through the router")
        # 972 + 8 + 20 = 1000 bytes: port 1's MTU exactly
        rc, out = tool(topo, "peer", "ping", "-n", "-c", "1", "-W", "2", "-M", "do", "-s", "972",
                       "10.1.0.2")
        check_eq(rc, 0, "ping -M do -s 972 10.1.0.2:\n" + out)
        check("980 bytes from 10.1.0.2: icmp_seq=1 ttl=63 " in out,  # ping counts ICMP
              "a DF ping of the MTU through the router:\n" + out)
        rc, out = tool(topo, "peer", "ping", "-n", "-c", "1", "-W", "2", "-M", "do", "-s", "1200",
                       "10.1.0.2")
        check_eq(rc, 1, "ping -M do -s 1200 10.1.0.2 (no reply):\n" + out)
        check("From 10.0.0.1 icmp_seq=1 Frag needed and DF set (mtu = 1000)\n" in out,
              "frag needed from the router:\n" + out)
        run.p.send_signal(signal.SIGINT)
        st, _ = finish(run, sfile)
        sp, drops = st["route"]["slow_path"], st["drops"]
        print("ping: slow path %r" % {k: v for k, v in sp.items() if v})
        check_eq(sp["echo_replies"], 3, "echo replies by the router (the pings to 10.0.0.1)")
        check_eq(sp["to_twin"], sp["arp_to_twin"],
                 "to_twin: the twin got ARP copies only, no echo")
        check_eq((sp["icmp_errors"], drops["frag_needed"]), (1, 1), "icmp_errors, frag_needed")
        fwded = sum(lc["forwarded"] for lc in st["route"]["lcores"])
        # 4 echoes to 10.1.0.2 and 4 replies; what waited for ARP is forwarded by the
        # slow path (the first request; on a loaded machine, one more a second of wait)
        check(fwded + sp["ctl_fwd"] == 8 and sp["ctl_fwd"] <= sp["arp_held"],
              "forwarded %d by the workers, %d by the slow path (%d held for ARP): 8 in all" %
              (fwded, sp["ctl_fwd"], sp["arp_held"]))
        check("netlink" not in st and "fpm" not in st, "no route sync in the stats file")


TRACE_HOP = r" %d  %s  [0-9.]+ ms  [0-9.]+ ms  [0-9.]+ ms"


def case_traceroute(c):
    """traceroute -n from the peer to the far host, with UDP probes (the
    default) and with ICMP echoes (-I): hop 1 is the router's address (time
    exceeded from the slow path, three probes each), hop 2 the far host."""
    need_tool("traceroute")
    with Topology() as topo:
        run, sfile = start(c, topo, config(c, topo), 60)
        for opt in ([], ["-I"]):
            rc, out = tool(topo, "peer", "traceroute", "-n", "-w", "2", *opt, "10.1.0.2")
            what = "traceroute -n %s10.1.0.2" % (opt[0] + " " if opt else "")
            check_eq(rc, 0, "%s:\n%s" % (what, out))
            print("%s:\n%s" % (what, out.rstrip()))
            lines = out.splitlines()
            check_eq(lines[0], "traceroute to 10.1.0.2 (10.1.0.2), 30 hops max, 60 byte packets",
                     what + ": first line")
            check_eq(len(lines), 3, what + ": two hops in\n" + out)
            check(re.fullmatch(TRACE_HOP % (1, r"10\.0\.0\.1"), lines[1]),
                  "%s: hop 1 the router: %r" % (what, lines[1]))
            check(re.fullmatch(TRACE_HOP % (2, r"10\.1\.0\.2"), lines[2]),
                  "%s: hop 2 the far host: %r" % (what, lines[2]))
        run.p.send_signal(signal.SIGINT)
        st, _ = finish(run, sfile)
        sp, drops = st["route"]["slow_path"], st["drops"]
        print("traceroute: slow path %r" % {k: v for k, v in sp.items() if v})
        check_eq((drops["ttl_exceeded"], sp["icmp_errors"], sp["icmp_ratelimited"]), (6, 6, 0),
                 "ttl_exceeded, icmp_errors, icmp_ratelimited: three probes of hop 1 twice")
        check_eq(sp["to_twin"], sp["arp_to_twin"], "to_twin: ARP copies only")


def case_show(c):
    """The shell's show twin: the twin (port, interface, namespace, DPDK port
    after the router's, punt-rate) and its counters; none for port 1."""
    with Topology() as topo:
        c.wrap = ["ip", "netns", "exec", topo.ns["dp"]]
        sh = enl_shell().Shell(c, c.eal(topo.vdevs(), mem=512),
                               ["--config", config(c, topo, rate=300)])
        try:
            out = sh.cmd("show twin")
            check("port 0: twin rtr0 in namespace %s, port 2, punt-rate 300" % topo.ns["rtr"]
                  in out, "show twin:\n%s" % out)
            check("to_twin 0 arp_to_twin 0 from_twin " in out and "punt_rate 0" in out,
                  "show twin counters:\n%s" % out)
            check("port 1:" not in out, "port 1 has no twin:\n%s" % out)
        finally:
            st = sh.quit()
        check(st is not None and st["mbufs_leaked"] == 0, "mbufs leaked after the shell")


class _ShellRun:
    """A shell session as wire_taps() sees a Running: alive, and its log."""

    def __init__(self, sh):
        self.sh = sh
        self.p = self

    def poll(self):
        return None if self.sh.p.isalive() else self.sh.p.exitstatus

    def describe(self):
        return "".join(self.sh.log)[-3000:]


def ping_through(topo, what):
    """The peer pings the far host through the router: the first reply within
    as many tries as a loaded machine needs (a try is 2 s; ARP comes first)."""
    for _ in range(10):
        rc, out = tool(topo, "peer", "ping", "-n", "-c", "1", "-W", "2", "10.1.0.2")
        if rc == 0:
            return
    raise Fail("%s: no reply from 10.1.0.2 through the router in 10 tries:\n%s\n%s" %
               (what, out, diagnose(topo)))


def case_restart(c):
    """Port 0 stopped and started again from the shell: net_tap gives its TAP
    the port's own MAC again at the start, and port 0's wire (the peer's pings
    through the router, a TCP connection to the twin) works as before. A
    bridge in dp would keep every unicast frame for the router from then on
    (the start-up race that kept route-bgp-e2e-routes' A in Connect)."""
    need_tool("ping")
    with Topology() as topo:
        c.wrap = ["ip", "netns", "exec", topo.ns["dp"]]
        sh = enl_shell().Shell(c, c.eal(topo.vdevs(), mem=512), ["--config", config(c, topo)])
        try:
            topo.wire_taps(_ShellRun(sh))
            check("forwarding started" in sh.cmd("start"), "start")
            ping_through(topo, "before the restart")
            check("port 0 stopped" in sh.cmd("port stop 0"), "port stop 0")
            check("port 0 started" in sh.cmd("port start 0"), "port start 0")
            # (DPDK 22.11's ethdev gives it the port's MAC: what this case is about)
            tap = json.loads(topo.ip("dp", "-j", "link", "show", "tap0"))[0]["address"]
            print("restart: tap0's MAC after the port's start %s, the port's %s" %
                  (tap, topo.port_mac(0)))
            ping_through(topo, "after the restart")
            srv = topo.popen("rtr", SERVER)
            check_eq(srv.stdout.readline().strip(), "listening", "server in the twin's namespace")
            got = topo.run("peer", CLIENT).strip()
            srv.communicate(timeout=20)
            check_eq(got, "pong:ping", "the peer's answer from the twin after the restart")
        finally:
            st = sh.quit()
        check(st is not None and st["mbufs_leaked"] == 0, "mbufs leaked after the shell")


SLOW_IOCTL_US = 200000  # slow_start: each of the forwarder's first ioctls held this long


def case_slow_start(c):
    """The forwarder descheduled inside its ports' start, where the first run
    of route-bgp-e2e-routes on a busy box was: each of its first 40 ioctls is
    held 0.2 s on its way back (strace), so that the test sees tap0 up and
    wires it before ethdev gives tap0 the port's MAC again. The peer's pings
    to the router (the slow path answers) and through it pass all the same.
    Skips without strace."""
    need_tool("ping")
    need_tool("strace")
    with Topology() as topo:
        start_ = c.start

        def held(eal, app):
            # LeakSanitizer cannot run under ptrace: no leak check here (the other
            # cases have it), the mbuf check at exit stays
            asan = os.environ.get("ASAN_OPTIONS", "")
            c.wrap = c.wrap + ["env", "ASAN_OPTIONS=%s%sdetect_leaks=0" % (
                asan, ":" if asan else ""), "strace", "-f", "-qq", "-o", "/dev/null", "-e",
                "trace=ioctl", "-e", "inject=ioctl:delay_exit=%d:when=1..40" % SLOW_IOCTL_US]
            return start_(eal, app)
        c.start = held
        run, sfile = start(c, topo, config(c, topo), 60)
        for dst in ("10.0.0.1", "10.1.0.2"):
            rc, out = tool(topo, "peer", "ping", "-n", "-c", "3", "-i", "0.2", "-W", "2", dst)
            check_eq(rc, 0, "ping %s after a slow start:\n%s\n%s" % (
                dst, out, diagnose(topo, lambda cmd: telemetry(c.prefixes[-1], cmd))))
        # the forwarder is strace's child (a SIGINT to strace would only detach it)
        with open("/proc/%d/task/%d/children" % (run.p.pid, run.p.pid)) as f:
            os.kill(int(f.read().split()[0]), signal.SIGINT)
        finish(run, sfile)


def case_bad_config(c):
    """Bad twin lines stop the start-up, each with its file:line."""
    er.bad_config(c, "[port 0]\nip = 10.0.0.1/24\ntwin = a/b\n", 5,
                  r"twin 'a/b' is not an interface name")
    er.bad_config(c, "[port 0]\nip = 10.0.0.1/24\ntwin = rtr0\n[port 1]\nip = 10.1.0.1/24\n"
                  "twin = rtr0\n", 8, r"twin rtr0 is port 0's already")
    er.bad_config(c, "[port 0]\nip = 10.0.0.1/24\npunt-rate = 0\n", 5,
                  r"punt-rate '0' is not a number")
    er.bad_config(c, "[port 0]\nip = 10.0.0.1/24\npunt-rate = 100\n", 4,
                  r"punt-rate without twin: nothing to limit")
    er.bad_config(c, "[port 0]\ntwin = rtr0\n", 4, r"twin rtr0 without ip")
    ns = "fwdtw-none-%d" % os.getpid()
    er.bad_config(c, "[route]\ntwin-netns = %s\n" % ns, 4,
                  r"twin-netns %s: /run/netns/%s: No such file or directory" % (ns, ns))


CASES = {n[5:]: f for n, f in list(globals().items()) if n.startswith("case_")}


if __name__ == "__main__":
    sys.exit(ft.run_cases(sys.argv, CASES, "twin-", "tests/route/meson.build"))
