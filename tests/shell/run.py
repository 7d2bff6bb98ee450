#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""Shell, telemetry and capture tests: the real binary driven through a
pseudo-terminal (pexpect: line editing, completion, history), a pipe and a
command file, on net_pcap/net_null ports, with every command's effect checked.

    run.py CASE        (meson runs one test() per case; see CASES)
"""

import json
import signal
import os
import re
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import fwdtest as ft  # noqa: E402
from fwdtest import Fail, check, check_eq  # noqa: E402

try:
    import pexpect
except ImportError:
    raise SystemExit("shell tests need python3-pexpect (scripts/setup.sh installs it)")

PROMPT = "dpdk-forwarder> "
# rte_cmdline writes its prompt a character at a time, so a log line from another thread (the
# netlink sync's "route: netlink: resync: ...") can land inside it: "dpdk-for<log line>warder> ".
# Waiting for the plain prompt then times out; this pattern takes one such line anywhere in it.
PROMPT_RE = re.compile("".join(re.escape(ch) + r"(?:[a-zA-Z_]+: [^\r\n]*\r?\n)?"
                               for ch in PROMPT[:-1]) + re.escape(PROMPT[-1]))
SRC = os.environ.get("FWD_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))


class Shell:
    """dpdk-forwarder -i on a pseudo-terminal."""

    def __init__(self, case, eal, app=()):
        self.case = case
        self.stats = case.path("stats-shell.json")
        argv = case._argv(eal, ["-i", "--stats-file", self.stats] + list(app))
        self.p = pexpect.spawn(argv[0], argv[1:], cwd=case.dir, encoding="utf-8",
                               codec_errors="replace", timeout=15, dimensions=(50, 200))
        self.log = []
        self.p.logfile_read = _Tee(self.log)
        # EAL's start-up alone can take 15 s on a loaded 2-core box
        self.expect(PROMPT, 60)

    def expect(self, pattern, timeout=15):
        try:
            return self.p.expect(pattern, timeout=timeout)
        except (pexpect.TIMEOUT, pexpect.EOF) as e:
            raise Fail("waited for %r; got %s\n--- session ---\n%s" %
                       (pattern, type(e).__name__, "".join(self.log)[-3000:]))

    def cmd(self, line, timeout=15):
        """Send a command, return its output (between the echoed line and the next prompt)."""
        self.p.sendline(line)
        self.expect(PROMPT_RE, timeout)
        out = self.p.before
        # the line editor echoes what was typed: drop everything up to the echo
        i = out.find(line)
        return out[i + len(line):] if i >= 0 else out

    def drain(self):
        """Read what the forwarder wrote meanwhile (DPDK's logs): a full terminal
        buffer would block the writer, a telemetry thread logging a bad parameter."""
        try:
            while True:
                self.p.read_nonblocking(1 << 16, timeout=0)
        except (pexpect.TIMEOUT, pexpect.EOF):
            pass

    def quit(self):
        self.p.sendline("quit")
        self.expect(pexpect.EOF, 30)
        self.p.close()
        check_eq(self.p.exitstatus, 0, "exit status after quit\n" + "".join(self.log)[-2000:])
        st = ft.load_stats(self.stats)
        if st is not None:  # every shell session ends with the stop-time balance of its mode
            ft.check_balance(st)
        return st


class _Tee:
    def __init__(self, sink):
        self.sink = sink

    def write(self, s):
        self.sink.append(s)

    def flush(self):
        pass


def frames(n=40, seed=1):
    return ft.mixed_frames(n, seed=seed, min_size=64, max_size=300)


def wait_for(fn, what, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = fn()
        if v:
            return v
        time.sleep(0.05)
    raise Fail("timed out waiting for " + what)


def port_counter(sh, port, field):
    """rx or tx packets of a port from 'show port stats'."""
    out = sh.cmd("show port stats %d" % port)
    for line in out.splitlines():
        line = line.strip()
        if line.startswith(field + " "):
            return int(line.split()[1])
    raise Fail("no %s line in: %r" % (field, out))


# ------------------------------------------------------------------ cases

def case_commands(c):
    """Each basic command's effect, and bad lines leaving the shell alive."""
    vdevs, outs = c.pcap_ports([[frames()], [[]]], infinite=(0,))
    sh = Shell(c, c.eal(vdevs))
    out = sh.cmd("show lcores")
    check("forwarding stopped" in out and "lcore 1" in out and "rx 0/0 -> tx 1/0" in out, out)
    check_eq(port_counter(sh, 0, "rx"), 0, "nothing received before start")
    check("forwarding started: io mode" in sh.cmd("start"), "start")
    check("already started" in sh.cmd("start"), "second start")
    wait_for(lambda: port_counter(sh, 1, "tx") > 100, "packets forwarded to port 1")
    check("forwarding stopped" in sh.cmd("stop"), "stop")
    check("not started" in sh.cmd("stop"), "second stop")
    out = sh.cmd("show fwd stats")
    check("lcore 1: rx " in out and "drops: tx_full 0" in out, out)
    check("port stats cleared" in sh.cmd("clear port stats all"), "clear")
    check_eq(port_counter(sh, 0, "rx"), 0, "port 0 rx after clear")
    check_eq(port_counter(sh, 1, "tx"), 0, "port 1 tx after clear")
    sh.cmd("clear fwd stats")
    check("lcore 1: rx 0 tx 0 dropped 0" in sh.cmd("show fwd stats"), "fwd stats cleared")

    out = sh.cmd("foo bar")
    check("unknown command 'foo'" in out, out)
    out = sh.cmd("show port stats 9")
    check("bad port '9': expected a port number from 0 to 1, or all" in out, out)
    out = sh.cmd("set fwd warp")
    check("bad arguments for 'set'" in out and "set fwd io|mac|macswap|rxonly|route" in out, out)
    out = sh.cmd("show port")
    check("show port info|stats|xstats <port>|all" in out, out)
    out = sh.cmd("show drops")  # alive after all that
    for reason in ("tx_full", "runt", "rxonly", "stopped", "port_down", "pktgen_rx", "txq_stopped"):
        check(reason in out, "show drops lists " + reason)
    out = sh.cmd("show port info 0")
    check("net_pcap0" in out and "promiscuous on" in out and "forwards to port 1" in out, out)
    # net_pcap offers no RX checksum offload: the router sums every header itself
    check("RX IPv4 checksum: checked in software" in out, out)
    st = sh.quit()
    check_eq(st["mbufs_leaked"], 0, "mbufs leaked")
    check("final stats" in "".join(sh.log), "final stats printed at quit")


def case_set_fwd(c):
    """set fwd while forwarding: the workers are quiesced; the output shows mac, then macswap."""
    src = frames(30, seed=2)
    vdevs, outs = c.pcap_ports([[src], [[]]], infinite=(0,))
    sh = Shell(c, c.eal(vdevs), ["--eth-peer", "1,02:00:00:00:00:99"])
    check("forwarding mode: mac" in sh.cmd("set fwd mac"), "set fwd mac")
    sh.cmd("start")
    wait_for(lambda: port_counter(sh, 1, "tx") > 200, "mac frames out")
    check("forwarding mode: macswap" in sh.cmd("set fwd macswap"), "set fwd macswap")
    before = port_counter(sh, 1, "tx")
    wait_for(lambda: port_counter(sh, 1, "tx") > before + 200, "macswap frames out")
    sh.cmd("stop")
    st = sh.quit()
    check_eq(st["mbufs_leaked"], 0, "mbufs leaked across the mode change")
    check_eq(st["mode"], "macswap", "mode in the stats file")

    port1_mac = ft.mac_bytes(ft.port_stats(st, 1)["mac"])
    inputs = [bytes(f) for f in src]
    kinds = []
    for i, f in enumerate(ft.iter_pcap(outs[1][0])):
        orig = inputs[i % len(inputs)]
        if f == ft.mac_rewrite(orig, ft.mac_bytes("02:00:00:00:00:99"), port1_mac):
            kinds.append("mac")
        elif f == ft.mac_swap(orig):
            kinds.append("macswap")
        else:
            raise Fail("output frame %d is neither mac nor macswap of input %d" %
                       (i, i % len(inputs)))
    check(kinds and kinds[0] == "mac" and kinds[-1] == "macswap", "mac first, macswap last")
    switch = kinds.index("macswap")
    check("mac" not in kinds[switch:], "no mac frame after the switch to macswap")


def case_set_fwd_refused(c):
    """set fwd to a mode the running forwarder was not set up for is refused with the reason
    (was a SIGSEGV at the next start for pktgen); the mode stays; leaving pktgen or route mode
    for an L2 mode and coming back works."""
    null2 = ["--vdev", "net_null0", "--vdev", "net_null1"]
    pktgen_refused = "pktgen mode must be chosen at start (--fwd pktgen)"
    route_refused = "route mode must be chosen at start (--fwd route)"

    sh = Shell(c, c.eal(null2))
    check(pktgen_refused in sh.cmd("set fwd pktgen"), "pktgen refused in an io forwarder")
    check("forwarding started: io mode" in sh.cmd("start"), "still io after the refusal")
    check(pktgen_refused in sh.cmd("set fwd pktgen"), "refused while forwarding")
    wait_for(lambda: port_counter(sh, 1, "tx") > 100, "io still forwarding")
    sh.cmd("stop")
    st = sh.quit()
    check_eq((st["mode"], st["mbufs_leaked"]), ("io", 0), "io forwarder after the refusal")

    sh = Shell(c, c.eal(null2), ["--fwd", "route"])
    check(pktgen_refused in sh.cmd("set fwd pktgen"), "pktgen refused in a router")
    check("forwarding started: route mode" in sh.cmd("start"), "still route after the refusal")
    check("forwarding mode: io" in sh.cmd("set fwd io"), "route -> io")
    check("forwarding mode: route" in sh.cmd("set fwd route"), "io -> route again")
    sh.cmd("stop")
    st = sh.quit()
    check_eq((st["mode"], st["mbufs_leaked"]), ("route", 0), "router after the switches")

    sh = Shell(c, c.eal(null2), ["--fwd", "pktgen"])
    check(route_refused in sh.cmd("set fwd route"), "route refused in a generator")
    check("forwarding mode: macswap" in sh.cmd("set fwd macswap"), "pktgen -> macswap")
    check("set fwd pktgen first" in sh.cmd("pktgen set count 50"), "pktgen set needs pktgen mode")
    check("forwarding mode: pktgen" in sh.cmd("set fwd pktgen"), "macswap -> pktgen again")
    check("pktgen count = 50" in sh.cmd("pktgen set count 50"), "pktgen set back in pktgen mode")
    check("generating" in sh.cmd("pktgen start"), "pktgen start")
    wait_for(lambda: "tx_pkts 50 " in sh.cmd("show pktgen"), "the 50 packets sent")
    sh.cmd("stop")
    st = sh.quit()
    check_eq((st["mode"], st["mbufs_leaked"]), ("pktgen", 0), "generator after the switches")
    check_eq(st["pktgen"][0]["tx"]["tx_pkts"], 50, "generator counter")


def case_port_stop(c):
    """A stopped output port: nothing sent to it, packets counted as port_down; restart works."""
    vdevs, outs = c.pcap_ports([[frames()], [[]]], infinite=(0,))
    sh = Shell(c, c.eal(vdevs))
    check("port 1 stopped" in sh.cmd("port stop 1"), "port stop")
    check("stopped" in sh.cmd("show port info 1"), "port 1 shows stopped")
    sh.cmd("start")
    wait_for(lambda: ("port_down" in (o := sh.cmd("show drops"))) and
             int(o.split("port_down")[1].split()[0]) > 100, "port_down drops")
    sh.cmd("stop")
    check("port 1 started" in sh.cmd("port start 1"), "port start")
    sh.cmd("start")
    wait_for(lambda: port_counter(sh, 1, "tx") > 100, "forwarding after port start")
    sh.cmd("stop")
    out = sh.cmd("port stop 7")
    check("bad port '7'" in out, out)
    st = sh.quit()
    check(st["drops"]["port_down"] > 0, "port_down counted in the stats file")
    check_eq(st["mbufs_leaked"], 0, "mbufs leaked")
    tx = ft.port_stats(st, 1)["opackets"]
    check_eq(ft.pcap_count(outs[1][0]), tx, "tx pcap of the restarted port vs its opackets")


def drop_count(sh, reason):
    out = sh.cmd("show drops")
    return int(out.split(reason)[1].split()[0]) if reason in out else 0


def case_queue_stop(c):
    """port P rxq|txq Q stop|start on net_fec0 (model, looped wire) while frames flow:
    a stopped TX queue's packets count as txq_stopped, a stopped RX queue is not
    polled (the MAC drops, counted), both restart, and every mbuf is back at exit.
    A driver without the op (net_null) gives a clear error."""
    ft.need_fec_pmd()
    vdevs, outs = c.pcap_ports([[frames()]], infinite=(0,))
    vdevs += ["--vdev", "net_fec0,backend=model,mode=thread,wire=loop"]
    sh = Shell(c, c.eal(vdevs))
    check("port 1 rxq 3 stop" not in sh.cmd("port 1 rxq 3 stop"), "no echo of a bad queue")
    check("no rxq 3" in sh.cmd("port 1 rxq 3 stop"), "a queue that does not exist")
    sh.cmd("start")
    wait_for(lambda: port_counter(sh, 0, "tx") > 100, "frames through net_fec0 and back")
    for rnd in range(3):
        base = drop_count(sh, "txq_stopped")
        check("port 1 txq 0 stopped" in sh.cmd("port 1 txq 0 stop"), "txq stop")
        wait_for(lambda: drop_count(sh, "txq_stopped") > base + 100, "txq_stopped drops")
        tx = port_counter(sh, 1, "tx")
        time.sleep(0.2)
        check_eq(port_counter(sh, 1, "tx"), tx, "nothing sent by a stopped TX queue")
        check("port 1 txq 0 started" in sh.cmd("port 1 txq 0 start"), "txq start")
        wait_for(lambda: port_counter(sh, 1, "tx") > tx + 100, "TX again after start")
        check("port 1 rxq 0 stopped" in sh.cmd("port 1 rxq 0 stop"), "rxq stop")
        rx = port_counter(sh, 1, "rx")
        time.sleep(0.2)
        check_eq(port_counter(sh, 1, "rx"), rx, "a stopped RX queue is not polled")
        check("port 1 rxq 0 started" in sh.cmd("port 1 rxq 0 start"), "rxq start")
        wait_for(lambda: port_counter(sh, 1, "rx") > rx + 100, "RX again after start")
    sh.cmd("stop")
    # a port start starts its queues again
    sh.cmd("port 1 txq 0 stop")
    sh.cmd("port stop 1")
    sh.cmd("port start 1")
    sh.cmd("start")
    tx = port_counter(sh, 1, "tx")
    wait_for(lambda: port_counter(sh, 1, "tx") > tx + 100, "TX after port restart")
    sh.cmd("stop")
    st = sh.quit()
    check(st["drops"]["txq_stopped"] > 0, "txq_stopped in the stats file")
    check_eq(st["mbufs_leaked"], 0, "mbufs leaked")
    fec = ft.port_stats(st, 1)
    check(fec["ipackets"] + fec["imissed"] <= fec["opackets"],
          "net_fec0 received + missed <= sent: %s" % fec)
    check(fec["imissed"] > 0, "the MAC dropped while RX was stopped: %s" % fec)
    # no op in the driver: a clear error, not a crash
    sh = Shell(c, c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]))
    out = sh.cmd("port 0 rxq 0 stop")
    check("cannot stop rxq 0" in out, out)
    out = sh.cmd("port 0 txq 0 start")
    check("started" in out or "cannot" in out, out)
    sh.quit()


def case_promisc(c):
    # net_ring has promiscuous on/off (net_null has neither: see the error check below)
    sh = Shell(c, c.eal(["--vdev", "net_ring0", "--vdev", "net_ring1", "--vdev", "net_null0"]))
    check("promiscuous mode off on port 0" in sh.cmd("set promisc 0 off"), "promisc off")
    check("promiscuous off" in sh.cmd("show port info 0"), "port 0 off")
    check("promiscuous on" in sh.cmd("show port info 1"), "port 1 untouched")
    sh.cmd("set promisc all on")
    check("promiscuous on" in sh.cmd("show port info 0"), "port 0 on again")
    check("bad arguments" in sh.cmd("set promisc 0 maybe"), "bad on/off")
    out = sh.cmd("set promisc 2 off")
    check("port 2: cannot turn promiscuous mode off: Operation not supported" in out, out)
    sh.quit()


def case_completion_history(c):
    """Tab completion and history on the terminal."""
    sh = Shell(c, c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]))
    sh.p.send("sho\t")
    sh.expect("show ")
    sh.p.send("dr\t")
    sh.expect("drops ")
    sh.p.send("\r")
    sh.expect("port_down")
    sh.expect(PROMPT)
    sh.p.send("\x1b[A")  # up arrow: the last command comes back
    sh.expect("show drops")
    sh.p.send("\r")
    sh.expect("tx_full")
    sh.expect(PROMPT)
    sh.quit()


def case_pipe(c):
    """Commands piped on stdin (not a terminal); end of input exits cleanly."""
    vdevs, outs = c.pcap_ports([[frames(20)], [[]]])
    argv = c._argv(c.eal(vdevs), ["-i", "--stats-file", c.path("s.json")])
    p = subprocess.run(argv, input="help\nset fwd macswap\nstart\nshow lcores\nbogus\n",
                       capture_output=True, text=True, timeout=30, cwd=c.dir)
    check_eq(p.returncode, 0, "exit status at end of input\n" + p.stderr[-1500:])
    check("start: start forwarding" in p.stdout, "help listed")
    check("unknown command 'bogus'" in p.stdout, "bad command answered")
    check("forwarding started: macswap mode" in p.stdout, "mode set before start")
    st = ft.load_stats(c.path("s.json"))
    check_eq(st["mbufs_leaked"], 0, "mbufs leaked")
    got = ft.read_pcap(outs[1][0])
    # started, then the input stopped at end of stdin: whatever left went out swapped, in order
    want = [ft.mac_swap(bytes(f)) for f in frames(20)][:len(got)]
    ft.check_frames(got, want, "port 1 output")


def case_cmdline_file(c):
    """--cmdline-file without -i: the commands run, then the normal run goes on."""
    src = frames(25, seed=3)
    vdevs, outs = c.pcap_ports([[src], [[]]])
    cmds = c.path("cmds.txt")
    with open(cmds, "w") as f:
        f.write("set fwd macswap\nshow lcores\n")
    r = c.run(c.eal(vdevs), ["--cmdline-file", cmds, "--duration", "1"])
    r.check_ok()
    check("forwarding mode: macswap" in r.stdout, "the file's command ran")
    ft.check_frames(ft.read_pcap(outs[1][0]), [ft.mac_swap(bytes(f)) for f in src], "port 1")
    check_eq(r.stats["mbufs_leaked"], 0, "mbufs leaked")

    with open(cmds, "w") as f:
        f.write("start\nquit\nshow drops\n")
    r = c.run(c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]),
              ["--cmdline-file", cmds])
    r.check_ok()
    check("tx_full" not in r.stdout.split("quit")[1].split("final stats")[0],
          "nothing after quit runs")

    r = c.run(c.eal(["--vdev", "net_null0"]), ["--cmdline-file", c.path("none.txt")])
    check(r.rc == 1, "missing command file: exit 1, got %r" % r.rc)
    r.check_error(r"none\.txt: cannot open command file: No such file")

    # a directory opens (fopen takes it) but is no command file
    r = c.run(c.eal(["--vdev", "net_null0"]), ["--cmdline-file", c.dir, "--duration", "5"])
    check(r.rc == 1, "command file a directory: exit 1, got %r" % r.rc)
    r.check_error(re.escape(c.dir) + r": cannot open command file: Is a directory")
    # so is the config file (read before EAL: no EAL line either)
    r = c.run(c.eal(["--vdev", "net_null0"]), ["--config", c.dir, "--duration", "5"])
    check(r.rc == 1, "config file a directory: exit 1, got %r" % r.rc)
    r.check_error("^" + re.escape(c.dir) + ": ")
    check("EAL:" not in r.stderr, "refused before EAL started")


def case_sleep(c):
    """sleep in a --cmdline-file spaces commands while forwarding runs; bad
    seconds are refused; a signal ends a long sleep at once, with the final stats."""
    cmds = c.path("sleep.txt")
    with open(cmds, "w") as f:
        f.write("start\nsleep 0.3\nshow port stats 0\nsleep x\nsleep 3601\nsleep 60\n"
                "show drops\n")
    run = c.start(c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]),
                  ["--cmdline-file", cmds])
    run.wait_line("dpdk-forwarder> sleep 60", 20)
    t0 = time.monotonic()
    run.p.send_signal(signal.SIGINT)
    rc, out, err = run.finish(20)
    check_eq(rc, 0, "exit status after SIGINT in a sleep")
    check(time.monotonic() - t0 < 10, "SIGINT took %.1f s to end the sleep" %
          (time.monotonic() - t0))
    check("bad seconds 'x': expected a number of seconds from 0 to 3600" in out, out)
    check("bad seconds '3601'" in out, out)
    stats = out.split("dpdk-forwarder> show port stats 0")[1].split("dpdk-forwarder>")[0]
    m = re.search(r"rx (\d+) pkts", stats)
    check(m is not None and int(m.group(1)) > 0, "forwarding ran during the sleep: %r" % stats)
    check("show drops" not in out.split("sleep 60")[1], "nothing after the interrupted sleep")
    check("=== final stats" in out, "final stats after SIGINT")


def telemetry(prefix, cmd):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.connect("/var/run/dpdk/%s/dpdk_telemetry.v2" % prefix)
    json.loads(s.recv(4096))  # the greeting
    s.send(cmd.encode())
    out = json.loads(s.recv(65536))
    s.close()
    return out[cmd.split(",")[0]]


def case_telemetry(c):
    eal = c.eal(["--vdev", "net_null0", "--vdev", "net_null1"])
    prefix = c.prefixes[-1]
    sh = Shell(c, eal)
    st = telemetry(prefix, "/forwarder/stats")
    check_eq((st["state"], st["mode"], st["ports"], st["rx_pkts"]), ("stopped", "io", 2, 0),
             "before start")
    check_eq(st["lcore1"]["rx_pkts"], 0, "lcore1 before start")
    sh.cmd("set fwd mac")
    sh.cmd("start")
    first = wait_for(lambda: telemetry(prefix, "/forwarder/stats")["rx_pkts"], "rx_pkts > 0")
    st = wait_for(lambda: (s := telemetry(prefix, "/forwarder/stats"))["rx_pkts"] > first and s,
                  "rx_pkts growing")
    check_eq((st["state"], st["mode"]), ("forwarding", "mac"), "while forwarding")
    check(st["lcore1"]["rx_pkts"] > 0, "per-lcore counter")
    drops = telemetry(prefix, "/forwarder/drops")
    # not pktgen_rx: the generator's received frames are measured, no drop (issue 37 item 19)
    check_eq(sorted(drops), sorted(["tx_full", "runt", "rxonly", "stopped", "port_down",
                                    "txq_stopped"]), "drop reasons")
    check_eq(telemetry(prefix, "/forwarder/lcores"), {"1": ["0/0", "1/0"]}, "lcores")
    check(telemetry(prefix, "/ethdev/stats,0")["ipackets"] > 0, "DPDK's own /ethdev endpoint")
    sh.cmd("stop")
    st = sh.quit()
    check_eq(st["mbufs_leaked"], 0, "mbufs leaked")


class TelClient:
    """One connection to a forwarder's telemetry socket (the library serves
    request after request on it); reconnects when the socket went away."""

    def __init__(self, prefix):
        self.path = "/var/run/dpdk/%s/dpdk_telemetry.v2" % prefix
        self.s = None

    def connect(self):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.s.settimeout(10)
        self.s.connect(self.path)
        json.loads(self.s.recv(4096))  # the greeting

    def raw(self, line):
        if self.s is None:
            self.connect()
        self.s.send(line.encode("utf-8", "surrogateescape"))
        data = self.s.recv(1 << 17)
        check(data, "no answer to %r: the telemetry socket closed" % line[:80])
        return json.loads(data)

    def close(self):
        if self.s is not None:
            self.s.close()
            self.s = None


# What a monitoring script's typo or a fuzzer sends as a parameter: each
# registered command gets every one of these.
HOSTILE = ["", "-1", "-0", "+1", "32", "31", "99999", "65535", "65536", "65537", "2147483648",
           "4294967295", "4294967296", "18446744073709551615", "18446744073709551616",
           "1" * 400, "abc", "0x10", "1e3", "nan", "0.5", " 0", "0 ", "\t", ",", ",,,", "0,",
           ",0", "0,0", "1,1", "0,-1", "0,99999", "-1,-1", "0,0,0,0,0,0", "0,abc",
           "0000:00:00.0", "0000:00:00.0,0", "net_null0", "MP_mbuf_pool_0", "a" * 950,
           "%s%n%s%n", "\u00e9\u4e2d\u2603\U0001f600", "\x01\x7f\x1b[2J", "../../../etc/passwd",
           "/", "/eal/heap_info,-1"]


def hostile_telemetry(c, sh, prefix):
    """Every registered command (DPDK's, the drivers', ours) with every
    HOSTILE parameter on one connection: each gets an answer, the process
    lives, the shell still answers."""
    t = TelClient(prefix)
    cmds = t.raw("/")["/"]
    check(len(cmds) > 30 and "/eal/heap_info" in cmds and "/forwarder/routes" in cmds,
          "registered commands: %r" % cmds)
    for cmd in sorted(set(cmds)):
        for param in HOSTILE:
            line = cmd + "," + param
            sh.drain()
            try:
                out = t.raw(line)
            except (OSError, ValueError) as e:
                alive = sh.p.isalive()
                raise Fail("%r: no valid answer (%s); forwarder %s" %
                           (line[:80], e, "alive" if alive else "dead, signal %r, exit %r" %
                            (sh.p.signalstatus, sh.p.exitstatus)))
            check(len(out) == 1, "%r: answer %r" % (line[:80], out))
        check(t.raw("/info")["/info"]["pid"] == sh.p.pid, "alive after %s" % cmd)
    # clients that hang up before their answer (the write would raise SIGPIPE)
    for i in range(30):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        s.connect(t.path)
        s.send(("/ethdev/xstats,0" if i % 2 else "/").encode())
        s.close()
    time.sleep(0.5)
    check(t.raw("/info")["/info"]["pid"] == sh.p.pid, "alive after clients hung up")
    t.close()
    check("lcore 1: rx " in sh.cmd("show fwd stats"), "the shell answers after the fuzzing")


def case_telemetry_hostile(c):
    """DPDK 22.11's /eal/heap_info,-1 and /eal/memzone_info,99999 read past
    their arrays and /ethdev/info,65536 past rte_eth_devices (SIGSEGV); the
    forwarder shadows them with checked handlers that answer DPDK's keys."""
    for mode, app in (("route", ["--config", os.path.join(SRC, "config", "router.ini")]),
                      ("pktgen", ["--fwd", "pktgen"])):
        eal = c.eal(["--vdev", "net_null0", "--vdev", "net_null1"])
        prefix = c.prefixes[-1]
        sh = Shell(c, eal, app)
        sh.cmd("start")
        hostile_telemetry(c, sh, prefix)
        t = TelClient(prefix)
        # the shadows answer first, with DPDK's own keys
        for cmd in ("/eal/heap_info", "/eal/memzone_info", "/ethdev/info"):
            check("checked by dpdk-forwarder" in t.raw("/help," + cmd)["/help"][cmd],
                  cmd + " is the forwarder's")
        heaps = t.raw("/eal/heap_list")["/eal/heap_list"]
        check_eq(heaps, [0], "heaps (one socket)")
        h = t.raw("/eal/heap_info,0")["/eal/heap_info"]
        check_eq((h["Head_id"], h["Name"]), (0, "socket_0"), "heap 0")
        check(h["Heap_size"] == h["Free_size"] + h["Alloc_size"] > 0, "heap 0 sizes: %r" % h)
        zones = t.raw("/eal/memzone_list")["/eal/memzone_list"]
        check(len(zones) >= 3, "memzones: %r" % zones)
        for z in zones:
            mz = t.raw("/eal/memzone_info,%d" % z)["/eal/memzone_info"]
            check(mz is not None and mz["Zone"] == z and mz["Name"] and mz["Length"] > 0 and
                  mz["Hugepage_used"] * mz["Hugepage_size"] >= mz["Length"],
                  "memzone %d: %r" % (z, mz))
        for bad in ("-1", "32", "99999", "%d" % (max(zones) + 1)):
            check_eq(t.raw("/eal/memzone_info," + bad), {"/eal/memzone_info": None},
                     "memzone " + bad)
        for bad in ("-1", "1", "32"):
            check_eq(t.raw("/eal/heap_info," + bad), {"/eal/heap_info": None}, "heap " + bad)
        info = t.raw("/ethdev/info,1")["/ethdev/info"]
        check_eq((info["name"], info["port_id"], info["dev_started"], info["rxq_state"],
                  info["nb_tx_queues"] == len(info["txq_state"])),
                 ("net_null1", 1, 1, [1], True), "ethdev info of port 1")
        for bad in ("65536", "65537", "2", "-1", "1x"):
            check_eq(t.raw("/ethdev/info," + bad), {"/ethdev/info": None}, "ethdev info " + bad)
        t.close()
        sh.cmd("stop")
        st = sh.quit()
        check_eq((st["mode"], st["mbufs_leaked"]), (mode, 0), "mode and leaks at exit")


def tel_pages(t, cmd, head):
    """Every page of a paged telemetry list (/forwarder/routes, /forwarder/trace), by "next":
    {key: value} over all pages, the pages' metadata, the largest reply in bytes. Each page
    must hold what its count says, and its entries no other page's."""
    got, metas, start, biggest = {}, [], 0, 0
    while True:
        t.s.send(("%s,%d" % (cmd, start)).encode())
        data = t.s.recv(1 << 17)
        check(data, "no answer to %s,%d" % (cmd, start))
        biggest = max(biggest, len(data))
        page = json.loads(data)[cmd]
        check(isinstance(page, dict), "%s,%d answered %r" % (cmd, start, page))
        meta = {k: page.pop(k) for k in head + ("start", "count", "more", "next") if k in page}
        check_eq((meta["start"], meta["count"]), (start, len(page)),
                 "%s page at %d: its count is what it holds" % (cmd, start))
        check(meta["count"] > 0 or not meta["more"], "%s: an empty page at %d with more" %
              (cmd, start))
        check(not set(page) & set(got), "%s: an entry on two pages" % cmd)
        got.update(page)
        metas.append(meta)
        if not meta["more"]:
            check("next" not in meta, "%s: no next on the last page" % cmd)
            return got, metas, biggest
        check_eq(meta["next"], start + meta["count"], "%s: next at %d" % (cmd, start))
        start = meta["next"]


def case_telemetry_pages(c):
    """Telemetry pages are sized by bytes (issue 37 item 12): a table of 16-hop ECMP routes
    and a full trace, paged by "next", give every entry (128 long routes a page overflowed the
    16 KiB reply: routes vanished while count said 128; the trace sent 79 of 250 packets)."""
    from scapy.layers.inet import IP, UDP
    from scapy.layers.l2 import Ether

    n_routes, hops = 306, ["10.1.0.%d" % (2 + i) for i in range(16)]
    cfg = c.path("ecmp.ini")
    with open(cfg, "w") as f:
        # flow-table = on: /forwarder/flows pages its workers below (off by default, issue 41)
        f.write("[forward]\nfwd = route\nflow-table = on\n[port 0]\nip = 10.0.0.1/24\n"
                "[port 1]\nip = 10.1.0.1/24\n[route]\n")
        for i in range(n_routes):
            f.write("route = 172.%d.%d.0/24 %s\n" % (16 + i // 256, i % 256,
                                                      " ".join("via " + h for h in hops)))
    frame = bytes(Ether(src="02:00:00:00:00:02", dst="02:70:63:61:70:00") /
                  IP(src="10.0.0.2", dst="172.16.0.9") / UDP(sport=1024, dport=9) / (b"\0" * 18))
    vdevs, _ = c.pcap_ports([[[frame]], [[]]], infinite=(0,))
    eal = c.eal(vdevs)
    prefix = c.prefixes[-1]
    sh = Shell(c, eal, ["--config", cfg])
    t = TelClient(prefix)
    t.connect()
    routes, metas, biggest = tel_pages(t, "/forwarder/routes", ("total",))
    total = metas[0]["total"]
    check(total >= n_routes, "total %r" % total)
    check_eq(len(routes), total, "routes over all pages (%d pages)" % len(metas))
    check(biggest < 16384, "a routes reply of %d bytes" % biggest)
    for i in range(n_routes):
        key = "172_%d_%d_0/24" % (16 + i // 256, i % 256)
        grp = routes.get(key)
        check(isinstance(grp, list) and len(grp) == 17 and
              [g.split()[1] for g in grp[:16]] == hops and grp[16].startswith("proto static"),
              "%s: %r" % (key, grp))

    # a full trace: every packet recorded, over telemetry, page after page
    check("tracing the next 256 packets" in sh.cmd("trace start 256"), "trace start 256")
    sh.cmd("start")
    out = trace_done(sh, "256 traced packets")
    sh.cmd("stop")
    shown = trace_packets(out)
    check_eq(len(shown), 256, "show trace's packets")
    pkts, metas, biggest = tel_pages(t, "/forwarder/trace", ("recorded", "asked", "recording"))
    check_eq((metas[0]["recorded"], metas[0]["asked"], metas[0]["recording"]), (256, 256, 0),
             "trace counts")
    check(len(metas) > 1, "a trace of 256 routed packets fits no single reply")
    check(biggest < 16384, "a trace reply of %d bytes" % biggest)
    check_eq(sorted(pkts), sorted("packet%d" % i for i in range(1, 257)), "packets over all pages")
    for head, stages in shown:
        key = "packet" + head.split()[1]
        check_eq(pkts[key][1:], stages, key + "'s lines, as show trace prints them")
    for bad in ("-1", "abc", "4294967296"):
        check_eq(t.raw("/forwarder/trace," + bad), {"/forwarder/trace": None}, "start " + bad)
    end = t.raw("/forwarder/trace,300")["/forwarder/trace"]
    check_eq((end["count"], end["more"], "next" in end), (0, 0, False), "past the end")
    # the per-lcore endpoints page their lcore<N> dicts the same way (127 workers overflow)
    for cmd in ("/forwarder/stats", "/forwarder/router", "/forwarder/flows",
                "/forwarder/flows,bytes,", "/forwarder/flows,pkts,"):
        name = cmd.split(",")[0]
        sep = "" if cmd.endswith(",") else ","
        first = t.raw(cmd + sep + "0")[name]
        lcores = [k for k in first if k.startswith("lcore")]
        check_eq((first["start"], first["count"], first["more"], len(lcores)), (0, 1, 0, 1),
                 cmd + " page 0: %r" % first)
        second = t.raw(cmd + sep + "1")[name]
        check_eq((second["count"], second["more"], [k for k in second if k.startswith("lcore")]),
                 (0, 0, []), cmd + " past the last worker")
        check_eq(t.raw(cmd + sep + "x"), {name: None}, cmd + " a bad start")
    t.close()
    st = sh.quit()
    check_eq(st["mbufs_leaked"], 0, "mbufs leaked")


def tel_workers(t, cmd):
    """Every lcore<N> of a per-worker endpoint (/forwarder/stats, /router, /flows, /pktgen),
    paged by "next": {lcore<N>: its dict}, and the first page."""
    got, start, first = {}, 0, None
    for _ in range(64):
        page = t.raw("%s,%d" % (cmd, start))[cmd]
        check(isinstance(page, dict), "%s,%d answered %r" % (cmd, start, page))
        first = first or page
        lcores = {k: v for k, v in page.items() if k.startswith("lcore")}
        check(not set(lcores) & set(got), "%s: a worker on two pages" % cmd)
        got.update(lcores)
        if not page.get("more"):
            return got, first
        start = page["next"]
    raise Fail("%s: more than 64 pages" % cmd)


def case_telemetry_workers(c):
    """20 workers on 2 CPUs (issue 37): from the moment the telemetry socket is there, each
    per-worker endpoint answers an object (null before: the forwarder registered them after
    its set-up, which takes seconds for 20 workers, and the library answers null to a command
    it does not know); once forwarding, every worker's lcore<N> is on a page, an object with
    its counters. In pktgen mode a worker's received frames are measured, not dropped (issue
    37 item 19: telemetry still counted them as dropped)."""
    workers = ["lcore%d" % i for i in range(1, 21)]
    rt = c.path("route20.ini")
    with open(rt, "w") as f:
        f.write("[forward]\nfwd = route\nrxq = 10\n[port 0]\nip = 10.0.0.1/24\n[port 1]\n"
                "ip = 10.1.0.1/24\n[route]\nroute = 172.16.0.0/16 via 10.1.0.2\n"
                "[filter]\ndeny = proto tcp dport 22\n")
    gen = c.path("pktgen20.ini")
    with open(gen, "w") as f:
        f.write("[forward]\nfwd = pktgen\nport-topology = loop\nrxq = 10\n[pktgen]\n"
                "size = 64\nflows = 64\nrate = 10kpps\n")
    for mode, cfg, vdevs, cmds in (
            ("route", rt, ["--vdev", "net_null0", "--vdev", "net_null1"],
             ("/forwarder/stats", "/forwarder/router", "/forwarder/flows")),
            ("pktgen", gen, ["--vdev", "net_ring0", "--vdev", "net_ring1"],
             ("/forwarder/stats", "/forwarder/pktgen"))):
        eal = c.eal(vdevs, lcores="(0-20)@(0,1)", mem=1024)
        prefix = c.prefixes[-1]
        sfile = c.path("stats-%s.json" % mode)
        run = c.start(eal, ["--config", cfg, "--stats-file", sfile, "--stats-period", "0"])
        sock = "/var/run/dpdk/%s/dpdk_telemetry.v2" % prefix
        deadline = time.monotonic() + 120  # EAL and 20 workers on a busy 2-core box
        t = TelClient(prefix)
        # the socket's file is there from its bind(), connections from its listen() just
        # after: refused in between (seen beside two CPU hogs)
        while True:
            try:
                t.connect()
                break
            except (FileNotFoundError, ConnectionRefusedError):
                t.close()
            check(run.p.poll() is None, "the forwarder exited\n" + run.describe())
            check(time.monotonic() < deadline, "no telemetry socket listening at " + sock)
            time.sleep(0.002)
        states = []
        while True:
            for cmd in cmds:
                r = t.raw(cmd)[cmd]
                check(isinstance(r, dict), "%s %s answered %r after %d answers %r" %
                      (mode, cmd, r, len(states), states[-3:]))
            st = t.raw("/forwarder/stats")["/forwarder/stats"]
            if st["state"] == "forwarding":
                break
            check(st["state"] in ("starting", "stopped") and st["mode"] == mode,
                  "%s: state while starting: %r" % (mode, st))
            states.append(st["state"])
            check(run.p.poll() is None and time.monotonic() < deadline,
                  "%s: not forwarding (states %r)\n%s" % (mode, states[-3:], run.describe()))
        for cmd in cmds:
            lcores, first = tel_workers(t, cmd)
            check_eq(sorted(lcores), sorted(workers), "%s %s: the workers over its pages" %
                     (mode, cmd))
            bad = [k for k, v in lcores.items() if not isinstance(v, dict) or not v]
            check(not bad, "%s %s: workers without counters: %r" % (mode, cmd, bad))
            if cmd == "/forwarder/stats":
                check_eq(first["workers"], 20, mode + ": workers")
        if mode == "pktgen":
            # every generator's frames came back: received, measured, none dropped
            while True:
                lcores, st = tel_workers(t, "/forwarder/stats")
                if all(v["rx_pkts"] > 0 for v in lcores.values()):
                    break
                check(time.monotonic() < deadline, "pktgen: lcores that received nothing: %r" %
                      [k for k, v in lcores.items() if v["rx_pkts"] == 0])
                time.sleep(0.2)
            check_eq({k: v["dropped"] for k, v in lcores.items() if v["dropped"]}, {},
                     "pktgen: received frames counted as dropped per lcore")
            check_eq([k for k, v in lcores.items() if v.get("measured", 0) == 0], [],
                     "pktgen: lcores whose received frames are not measured")
            check_eq(st["dropped"], 0, "pktgen: dropped in total")
            check(st.get("measured", 0) > 0, "pktgen: measured in total: %r" % st)
            check("pktgen_rx" not in t.raw("/forwarder/drops")["/forwarder/drops"],
                  "pktgen_rx among the drop reasons")
        else:
            check(all("measured" not in v for v in tel_workers(t, "/forwarder/stats")[0].values()),
                  "route: measured on a worker without a generator")
        t.close()
        run.p.send_signal(signal.SIGINT)
        rc, _, err = run.finish(60)
        check_eq(rc, 0, "%s: exit status\n%s" % (mode, err[-2000:]))
        st = ft.load_stats(sfile)
        check(st is not None and st["mbufs_leaked"] == 0, "%s: stats file %r" % (mode, st and
                                                                               st["mbufs_leaked"]))


def case_telemetry_filter(c):
    """/forwarder/filter (issue 37 item 13: the filter rules' packet counts were in the stats
    file only): 128 long rules, paged by bytes, each rule<N> as `filter show` prints it, with
    its packets; a bad start is null, past the end an empty page."""
    n = 128
    cfg = c.path("filter.ini")
    with open(cfg, "w") as f:
        f.write("[forward]\nfwd = route\n[port 0]\nip = 10.0.0.1/24\n[port 1]\n"
                "ip = 10.1.0.1/24\n[route]\nroute = 172.16.0.0/16 via 10.1.0.2\n[filter]\n")
        for i in range(n):
            # as long as a rule gets (~100 characters): 128 of them overflow one reply
            f.write("permit = proto sctp src 200.200.%d.128/25 dst 200.201.%d.128/25 "
                    "sport 60000-65000 dport 60000-65000\n" % (100 + i, 100 + i))
    eal = c.eal(["--vdev", "net_null0", "--vdev", "net_null1"])
    prefix = c.prefixes[-1]
    sh = Shell(c, eal, ["--config", cfg])
    shown = {}
    for line in sh.cmd("filter show").splitlines():
        m = re.fullmatch(r"\s*(\d+): (.*) \| (\d+) pkts\s*", line)
        if m:
            shown["rule" + m.group(1)] = {"rule": m.group(2), "pkts": int(m.group(3))}
    check_eq(len(shown), n, "filter show's rules")
    t = TelClient(prefix)
    t.connect()
    rules, metas, biggest = tel_pages(t, "/forwarder/filter", ("rules",))
    check_eq(metas[0]["rules"], n, "rules")
    check(len(metas) > 1, "128 long rules fit no single reply")
    check(biggest < 16384, "a filter reply of %d bytes" % biggest)
    check_eq(rules, shown, "the rules over all pages, as filter show prints them")
    for bad in ("-1", "abc", "4294967296"):
        check_eq(t.raw("/forwarder/filter," + bad), {"/forwarder/filter": None}, "start " + bad)
    end = t.raw("/forwarder/filter,%d" % (n + 5))["/forwarder/filter"]
    check_eq(end, {"rules": n, "start": n + 5, "count": 0, "more": 0}, "past the end")
    t.close()
    st = sh.quit()
    check_eq(st["mbufs_leaked"], 0, "mbufs leaked")


def case_routes_paging(c):
    """/forwarder/routes answers 128 routes a page and says how many there are
    and where the next page starts (it stopped at 128, silently)."""
    n_static = 300
    cfg = c.path("routes.ini")
    with open(cfg, "w") as f:
        # flow-table = on: the flows endpoint below counts flows (off by default, issue 41)
        f.write("[forward]\nfwd = route\nflow-table = on\n[port 0]\nip = 10.0.0.1/24\n"
                "[port 1]\nip = 10.1.0.1/24\n[route]\n")
        for i in range(n_static):
            f.write("route = 172.%d.%d.0/24 via 10.1.0.2\n" % (16 + i // 256, i % 256))
    eal = c.eal(["--vdev", "net_null0", "--vdev", "net_null1"])
    prefix = c.prefixes[-1]
    sh = Shell(c, eal, ["--config", cfg])
    t = TelClient(prefix)
    first = t.raw("/forwarder/routes")["/forwarder/routes"]
    total = first["total"]
    check(total >= n_static, "total %r" % total)
    got, start, pages = {}, 0, 0
    while True:
        page = t.raw("/forwarder/routes,%d" % start)["/forwarder/routes"]
        meta = {k: page.pop(k) for k in ("total", "start", "count", "more", "next") if k in page}
        check_eq((meta["total"], meta["start"], meta["count"]),
                 (total, start, min(128, total - start)), "page at %d" % start)
        check_eq(len(page), meta["count"], "routes on the page at %d" % start)
        check(not set(page) & set(got), "a route on two pages")
        got.update(page)
        pages += 1
        if not meta["more"]:
            check("next" not in meta, "no next on the last page")
            break
        check_eq(meta["next"], start + meta["count"], "next")
        start = meta["next"]
    check_eq(pages, (total + 127) // 128, "pages")
    check_eq(len(got), total, "routes over all pages")
    for i in range(n_static):
        key = "172_%d_%d_0/24" % (16 + i // 256, i % 256)
        check(re.fullmatch(r"via 10\.1\.0\.2 dev 1 proto static age \d+", got.get(key, "")),
              "%s: %r" % (key, got.get(key)))
    out = sh.cmd("route add 192.168.7.0/24 via 10.1.0.2")
    check("error" not in out.lower(), out)
    # where each route came from, as show route says it; an ECMP group's origin last
    sh.cmd("route add 192.168.8.0/24 via 10.1.0.2 via 10.1.0.3")
    t_all = {}
    for start in range(0, total + 2, 128):
        t_all.update(t.raw("/forwarder/routes,%d" % start)["/forwarder/routes"])
    check(re.fullmatch(r"via 10\.1\.0\.2 dev 1 proto shell age \d+",
                       str(t_all.get("192_168_7_0/24"))), "shell route: %r" % t_all.get("192_168_7_0/24"))
    grp = t_all.get("192_168_8_0/24")
    check(isinstance(grp, list) and len(grp) == 3 and grp[0].startswith("via 10.1.0.2 dev 1 ")
          and re.fullmatch(r"proto shell age \d+", grp[-1]), "ECMP route: %r" % grp)
    sh.cmd("route del 192.168.8.0/24")
    check_eq(t.raw("/forwarder/routes")["/forwarder/routes"]["total"], total + 1,
             "total after route add")
    end = t.raw("/forwarder/routes,%d" % (total + 1))["/forwarder/routes"]
    check_eq(end, {"total": total + 1, "start": total + 1, "count": 0, "more": 0}, "past the end")
    for bad in ("-1", "abc", "1 ", "0x10", "4294967296"):
        check_eq(t.raw("/forwarder/routes," + bad), {"/forwarder/routes": None}, "start " + bad)
    # the flows endpoint says how many flows there are next to its top 10
    fl = t.raw("/forwarder/flows")["/forwarder/flows"]
    check("flows" in fl and "flows_shown" in fl and fl["flows_shown"] <= 10, "flows: %r" % fl)
    st = t.raw("/forwarder/stats")["/forwarder/stats"]
    check_eq(st["workers"], 1, "the stats say how many lcores they cover")
    t.close()
    sh.quit()


def case_route_files(c):
    """route load: the good lines in, the first 10 bad ones shown as file:line,
    the rest counted; a dev by DPDK name; route flush removes every static
    route (the config's too), not the connected ones; neigh load; a missing
    file; not in io mode."""
    cfg = c.path("rf.ini")
    with open(cfg, "w") as f:
        f.write("[forward]\nfwd = route\n[port 0]\nip = 10.0.0.1/24\n[port 1]\n"
                "ip = 10.1.0.1/24\n[route]\nroute = 192.168.0.0/16 via 10.1.0.2\n")
    good = ["172.16.%d.0/24 via 10.1.0.%d dev net_null1 proto bgp metric 20" % (i, 2 + i % 5)
            for i in range(40)]
    bad = ["172.17.%d.0/24 via 10.9.0.2" % i for i in range(12)]
    lines = ["# a dump", ""] + good[:20] + bad + good[20:] + \
        ["blackhole 198.51.100.0/24", "10.20.0.0/16 proto bgp",
         "\tnexthop via 10.1.0.2 dev 1 weight 1", "\tnexthop via 10.0.0.2 dev 0 weight 1"]
    routes = c.path("dump.routes")
    with open(routes, "w") as f:
        f.write("\n".join(lines) + "\n")
    eal = c.eal(["--vdev", "net_null0", "--vdev", "net_null1"])
    sh = Shell(c, eal, ["--config", cfg])
    out = sh.cmd("route load " + routes, 60)
    shown = re.findall(r"^%s:(\d+): next hop 10\.9\.0\.2 is not on any connected network" %
                       re.escape(routes), out, re.M)
    check_eq([int(x) for x in shown], list(range(23, 33)), "the first 10 bad lines, by line\n" + out)
    m = re.search(r"^(\d+) routes loaded from %s, (\d+) bad lines\r?$" % re.escape(routes), out,
                  re.M)
    check(m is not None, "summary line: " + out)
    # the multipath route (last) is in: 40 good + blackhole + ECMP, 12 bad; its
    # gateways are listed in the group's order (by address), not the file's
    check_eq((int(m.group(1)), int(m.group(2))), (42, 12), "routes loaded, bad lines")
    check("(2 more bad lines not shown)" in out, out)
    table = sh.cmd("show route")
    check("172.16.39.0/24 via 10.1.0.6 dev 1" in table, table)
    check("198.51.100.0/24 blackhole" in table, table)
    check("172.17." not in table, table)
    check(re.search(r"^10\.20\.0\.0/16 proto file age \d\d:\d\d:\d\d\r?\n\tnexthop via 10\.0\.0\.2 dev 0\r?\n"
                    r"\tnexthop via 10\.1\.0\.2 dev 1\r?$", table, re.M) is not None,
          "the ECMP route and its two gateways: " + table)
    n_static = 1 + 41 + 1
    out = sh.cmd("route flush")
    check(out.strip().startswith("%d routes flushed (" % n_static), "route flush: " + out)
    table = sh.cmd("show route")
    check("172.16." not in table and "192.168.0.0/16" not in table, table)
    check("10.0.0.0/24 connected dev 0" in table, "connected routes stay: " + table)
    # neighbours
    neigh = c.path("lan.neigh")
    with open(neigh, "w") as f:
        f.write("10.1.0.2 dev net_null1 lladdr 02:00:00:00:01:02 REACHABLE\n"
                "10.1.0.3 dev 1 lladdr 02:00:00:00:01:03 router STALE\n"
                "10.1.0.4 dev 1 FAILED\n"
                "10.0.0.5 dev 0 lladdr 02:00:00:00:00:05 PERMANENT\n")
    out = sh.cmd("neigh load " + neigh)
    check(re.search(r"^3 neighbours loaded from %s, 1 lines skipped" % re.escape(neigh), out,
                    re.M) is not None, out)
    out = sh.cmd("neigh show")
    for want in ("02:00:00:00:01:02", "02:00:00:00:01:03", "02:00:00:00:00:05"):
        check(want in out, "neigh show: " + out)
    out = sh.cmd("route load " + c.path("missing.routes"))
    check("missing.routes: cannot open route file: No such file or directory" in out, out)
    check("0 routes loaded from" in out, out)
    sh.quit()
    sh = Shell(c, eal, [])
    check("not routing" in sh.cmd("route load " + routes), "route load in io mode")
    check("not routing" in sh.cmd("route flush"), "route flush in io mode")
    sh.quit()


def case_route_files_hostile(c):
    """route load / neigh load of what is not a route file never hangs the
    shell: a device (/dev/zero once read for ever, deaf to SIGTERM), a
    directory, binary data, a pipe with no writer (waited for 10 s, then
    said); the shell answers after each. A writer that opens after the load
    began is read to its close. Then a pipe whose writer never closes it:
    SIGTERM still ends the forwarder cleanly, with the routes read so far
    counted."""
    cfg = c.path("rfh.ini")
    with open(cfg, "w") as f:
        f.write("[forward]\nfwd = route\n[port 0]\nip = 10.0.0.1/24\n[port 1]\n"
                "ip = 10.1.0.1/24\n")
    zeros = c.path("zeros.routes")
    with open(zeros, "wb") as f:
        f.write(b"10.40.0.0/16 via 10.1.0.2\n" + bytes(4 << 20))
    fifo = c.path("pipe.routes")
    os.mkfifo(fifo)
    eal = c.eal(["--vdev", "net_null0", "--vdev", "net_null1"])
    sh = Shell(c, eal, ["--config", cfg])
    for cmd, want in (("route load /dev/zero", "/dev/zero: not a regular file or a pipe"),
                      ("neigh load /dev/zero", "not read as a neighbour file"),
                      ("route load /dev/null", "/dev/null: not a regular file or a pipe"),
                      ("route load " + c.dir, "is a directory, not a route file"),
                      ("neigh load " + c.dir, "is a directory, not a neighbour file"),
                      ("route load " + zeros, "zeros.routes:2: NUL byte: not a text file, read no further\r\n"
                       "1 routes loaded from " + zeros),
                      # no writer: waited for, within the shell's bound (10 s), and said
                      ("route load " + fifo, "pipe.routes: waiting for a writer to open the pipe\r\n"
                       "%s: no writer opened the pipe in 10.0 s: nothing read\r\n"
                       "0 routes loaded from %s, 1 bad lines" % (fifo, fifo))):
        out = sh.cmd(cmd, 60)
        check(want in out, "%s: %s" % (cmd, out))
    table = sh.cmd("show route")
    check("10.40.0.0/16 via 10.1.0.2 dev 1" in table, table)
    # a writer that opens after the load began: waited for, read to its close
    sh.p.sendline("route load " + fifo)
    sh.expect(r"waiting for a writer to open the pipe\r?\n", 20)
    w = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    os.write(w, b"10.44.0.0/16 via 10.1.0.2\n10.45.0.0/16 via 10.1.0.2\n")
    os.close(w)
    sh.expect(PROMPT_RE, 20)
    check("2 routes loaded from " + fifo in sh.p.before, sh.p.before)
    check("10.45.0.0/16 via 10.1.0.2 dev 1" in sh.cmd("show route"), "a late writer's routes")
    # a writer that never closes: the load waits on the pipe, SIGTERM ends it
    w = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
    try:
        # the last line stays pending (a nexthop line could follow): 2 of 3 go in
        os.write(w, b"10.41.0.0/16 via 10.1.0.2\n10.42.0.0/16 via 10.1.0.2\n"
                 b"10.43.0.0/16 via 10.1.0.2\n")
        sh.p.sendline("route load " + fifo)
        sh.expect(r"route load .*\r?\n", 10)
        time.sleep(0.5)
        sh.p.kill(signal.SIGTERM)
        sh.expect(pexpect.EOF, 20)
    finally:
        os.close(w)
    sh.p.close()
    out = "".join(sh.log)
    check_eq(sh.p.exitstatus, 0, "exit status after SIGTERM during a pipe load\n" + out[-2000:])
    check("pipe.routes: load interrupted" in out, out[-2000:])
    check("2 routes loaded from " + fifo in out, out[-2000:])
    ft.check_balance(ft.load_stats(sh.stats))


def case_route_replace(c):
    """route replace: an add when the prefix has no route, else the static
    route swapped (via to via, to ECMP, to blackhole, back to via); a refused
    one leaves the old route; the port's own network is never replaced."""
    cfg = c.path("rr.ini")
    with open(cfg, "w") as f:
        f.write("[forward]\nfwd = route\n[port 0]\nip = 10.0.0.1/24\n[port 1]\n"
                "ip = 10.1.0.1/24\n")
    sh = Shell(c, c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]), ["--config", cfg])

    def route_of(prefix):
        return sh.cmd("show route " + prefix)

    check_eq(sh.cmd("route replace 172.16.0.0/16 via 10.1.0.2").strip(),
             "route 172.16.0.0/16 set", "replace of nothing adds")
    check("172.16.0.0/16 via 10.1.0.2 dev 1 proto shell" in route_of("172.16.0.0/16"),
          route_of("172.16.0.0/16"))
    check("already exists" in sh.cmd("route add 172.16.0.0/16 via 10.1.0.3"), "add stays strict")
    check_eq(sh.cmd("route replace 172.16.0.0/16 via 10.0.0.2").strip(),
             "route 172.16.0.0/16 set", "via to via")
    out = route_of("172.16.0.0/16")
    check("172.16.0.0/16 via 10.0.0.2 dev 0" in out and "10.1.0.2" not in out, out)
    out = sh.cmd("route replace 172.16.0.0/16 via 10.9.9.9")
    check("route 172.16.0.0/16 not replaced: " in out and "not on any connected network" in out,
          out)
    check("172.16.0.0/16 via 10.0.0.2 dev 0" in route_of("172.16.0.0/16"), "a refused one leaves it")
    check_eq(sh.cmd("route replace 172.16.0.0/16 via 10.0.0.2 via 10.1.0.2").strip(),
             "route 172.16.0.0/16 set", "to ECMP")
    out = route_of("172.16.0.0/16")
    check(re.search(r"nexthop via 10\.0\.0\.2 dev 0\r?\n\s*nexthop via 10\.1\.0\.2 dev 1", out)
          is not None, out)
    check_eq(sh.cmd("route replace 172.16.0.0/16 blackhole").strip(), "route 172.16.0.0/16 set",
             "to blackhole")
    check("172.16.0.0/16 blackhole" in route_of("172.16.0.0/16"), route_of("172.16.0.0/16"))
    check_eq(sh.cmd("route replace 172.16.0.0/16 dev 1").strip(), "route 172.16.0.0/16 set",
             "to on-link")
    check("172.16.0.0/16 dev 1 proto shell" in route_of("172.16.0.0/16"), route_of("172.16.0.0/16"))
    out = sh.cmd("route replace 10.0.0.0/24 via 10.1.0.2")
    check("not replaced" in out and "the port's own network" in out, out)
    check("10.0.0.0/24 connected dev 0" in sh.cmd("show route"), "connected route kept")
    # one route all along: each replace moved it from one kind to the next, counted once
    summary = sh.cmd("show route summary")
    check("by kind: connected 2 local 4 via 0 dev 1 blackhole 0" in summary, summary)
    check("by prefix length: /16 1 /24 2 /32 4" in summary, summary)
    sh.quit()


def case_router_files_example(c):
    """config/router-files.ini, the user guide's example, starts and holds
    every route of config/router.routes as written there (the ECMP route
    with both of its gateways) and the neighbours of config/router.neigh."""
    eal = c.eal(["--vdev", "net_null0", "--vdev", "net_null1"])
    sh = Shell(c, eal, ["--config", os.path.join(SRC, "config", "router-files.ini")])
    table = sh.cmd("show route")
    for want in ("0.0.0.0/0 via 10.0.0.254 dev 0", "172.16.0.0/16 via 10.1.0.2 dev 1",
                 "172.17.0.0/16 via 10.1.0.3 dev 1", "10.9.9.9/32 via 10.1.0.2 dev 1",
                 "10.20.0.0/16 dev 1", "192.0.2.0/24 blackhole", "198.51.100.0/24 reject",
                 "203.0.113.0/24 reject", "192.168.0.0/16 via 10.1.0.2 dev 1"):
        check(re.search(r"^%s proto \w+ age \d\d:\d\d:\d\d\r?$" % re.escape(want), table, re.M) is not None,
              "%r in show route: %s" % (want, table))
    check(re.search(r"^10\.30\.0\.0/16 proto \w+ age \d\d:\d\d:\d\d\r?\n\tnexthop via 10\.0\.0\.2 dev 0\r?\n"
                    r"\tnexthop via 10\.1\.0\.2 dev 1\r?$", table, re.M) is not None,
          "the ECMP route: " + table)
    neigh = sh.cmd("neigh show")
    for ip, mac in (("10.1.0.2", "02:00:00:00:01:02"), ("10.1.0.3", "02:00:00:00:01:03"),
                    ("10.0.0.254", "02:00:00:00:00:fe")):
        check(re.search(r"^%s +dev \d %s static" % (re.escape(ip), mac), neigh,
                        re.M | re.I) is not None, "%s in neigh show: %s" % (ip, neigh))
    check("10.1.0.4" not in neigh, "the FAILED line is skipped: " + neigh)
    sh.quit()


def case_stdout_closed(c):
    """A reader that closes stdout (`| head`): no SIGPIPE death; a
    non-interactive run keeps its duration and writes the stats file, and
    the shell ends as at the end of input."""
    eal = c.eal(["--vdev", "net_null0", "--vdev", "net_null1"])
    stats = c.path("closed.json")
    argv = c._argv(eal, ["--stats-period", "0.05", "--duration", "1.5", "--stats-file", stats])
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=c.dir)
    p.stdout.readline()
    p.stdout.close()  # what head does after its lines
    err = p.stderr.read().decode(errors="replace")
    rc = p.wait(30)
    check_eq(rc, 0, "exit status with stdout closed (-13 is SIGPIPE)\n" + err[-1500:])
    check(time.monotonic() - t0 >= 1.4, "ran its --duration")
    st = ft.load_stats(stats)
    check(st is not None, "stats file written")
    check(st["lcores"][0]["rx_pkts"] > 0 and st["mbufs_leaked"] == 0, "stats file content")

    # the shell: its answers go nowhere, so it stops as at the end of input
    eal = c.eal(["--vdev", "net_null0", "--vdev", "net_null1"])
    stats = c.path("closed-shell.json")
    p = subprocess.Popen(c._argv(eal, ["-i", "--stats-file", stats]), stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=c.dir)
    p.stdin.write(b"start\n")
    p.stdin.flush()
    p.stdout.read(1)
    p.stdout.close()
    for _ in range(200):  # every command now writes to a closed pipe
        try:
            p.stdin.write(b"show fwd stats\nshow port info all\n")
            p.stdin.flush()
        except BrokenPipeError:
            break  # the shell has gone: it stopped reading
        time.sleep(0.01)
    try:
        rc = p.wait(30)
    except subprocess.TimeoutExpired:
        p.kill()
        raise Fail("the shell did not end when its output was closed")
    err = p.stderr.read().decode(errors="replace")
    check_eq(rc, 0, "shell exit status with stdout closed\n" + err[-1500:])
    st = ft.load_stats(stats)
    check(st is not None and st["mbufs_leaked"] == 0, "shell stats file written")

    # a closed standard descriptor (>&-): the output does not land in a file EAL opens
    eal = c.eal(["--vdev", "net_null0", "--vdev", "net_null1"])
    stats = c.path("nofd.json")
    p = subprocess.run(c._argv(eal, ["--duration", "0.5", "--stats-file", stats]),
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=c.dir,
                       preexec_fn=lambda: os.close(1), timeout=30)
    check_eq(p.returncode, 0, "exit status with fd 1 closed\n" + p.stderr.decode()[-1500:])
    check(ft.load_stats(stats)["mbufs_leaked"] == 0, "stats file with fd 1 closed")


def cpu_ticks(pid):
    """utime + stime of PID (clock ticks), 0 once it is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return 0


def attach_progress(child, peer_pid, pattern, what, idle_s=30, cap_s=600):
    """Expect PATTERN from the pexpect CHILD while it or PEER_PID makes progress
    (gains CPU time): Fail after IDLE_S seconds in which neither ran, or CAP_S
    in all, or at the child's exit."""
    start = last = time.monotonic()
    seen = cpu_ticks(child.pid) + cpu_ticks(peer_pid)
    while True:
        try:
            child.expect(pattern, timeout=5)
            return
        except pexpect.EOF:
            raise Fail("%s: it exited: %s" % (what, str(child.before)[-1500:]))
        except pexpect.TIMEOUT:
            now, ticks = time.monotonic(), cpu_ticks(child.pid) + cpu_ticks(peer_pid)
            if ticks != seen:
                seen, last = ticks, now
            if now - last > idle_s or now - start > cap_s:
                raise Fail("%s in %.0f s (%.0f s without progress): %s" % (
                    what, now - start, now - last, str(child.before)[-1500:]))


def case_dumpcap(c):
    """dpdk-dumpcap attaches as a secondary process and captures a running port.

    DPDK 22.11's pdump does not wait for a worker still inside its RX callback
    when a capture is disabled, so a dumpcap leaving while packets flow can crash
    the primary (seen here ~1 in 10). The test attaches first, then forwards a
    finite input, so the capture ends with the traffic: every packet, exactly."""
    if not os.path.exists("/usr/bin/dpdk-dumpcap"):
        raise Fail("dpdk-dumpcap missing: scripts/setup.sh installs dpdk-dev")
    from scapy.layers.inet import IP, UDP
    from scapy.layers.l2 import Ether
    src = [bytes(Ether(src="02:00:00:00:00:aa", dst="02:00:00:00:00:bb") /
                 IP(src="10.0.0.1", dst="10.0.0.2") / UDP(sport=1000 + i, dport=2000) /
                 (ft.tag(0, 0, i) + bytes(18 + 7 * i))) for i in range(30)]
    prefix = c.prefix()
    cap = c.path("cap.pcapng")
    with Hugepages(128, prefix):
        inp = ft.write_pcap(c.path("in.pcap"), src)
        # port 1 receives nothing, so port 0 transmits nothing: the capture (RX and
        # TX of port 0) is exactly the input
        vdevs = ["--vdev", "net_pcap0,rx_pcap=%s" % inp,
                 "--vdev", "net_pcap1,tx_pcap=%s" % c.path("out1.pcap")]
        # no --huge-unlink: the secondary maps the primary's hugepage files
        eal = ["-m", "128", "--no-pci", "--file-prefix", prefix, "--lcores", "0@0,1@1"] + vdevs
        sh = Shell(c, eal)
        d = pexpect.spawn("dpdk-dumpcap", ["--file-prefix", prefix, "-i", "0", "-c",
                                           str(len(src)), "-w", cap], encoding="utf-8",
                          codec_errors="replace", timeout=30)
        # printed once rte_pdump_enable() has returned ("Capturing on" comes before it);
        # a secondary's EAL start maps the primary's memory and asks it over IPC, which
        # takes minutes on a loaded 2-core machine: wait while either process runs
        attach_progress(d, sh.p.pid, "Packets captured:", "dumpcap did not attach")
        sh.cmd("start")
        d.expect(pexpect.EOF)
        d.close()
        check_eq(d.exitstatus, 0, "dumpcap exit status: " + str(d.before)[-1500:])
        sh.cmd("stop")
        st = sh.quit()
        check_eq(st["mbufs_leaked"], 0, "mbufs leaked with a capture attached")
    from scapy.utils import rdpcap
    ft.check_frames([bytes(p) for p in rdpcap(cap)], src, "captured packets")
    ft.check_frames(ft.read_pcap(c.path("out1.pcap")), src, "forwarded packets")


class Hugepages:
    """Reserve 2 MiB pages for a primary that a secondary must attach to; give them
    back, with the page files the primary left (it keeps them for secondaries)."""

    def __init__(self, n, prefix):
        self.n = n
        self.prefix = prefix

    def __enter__(self):
        path = "/proc/sys/vm/nr_hugepages"
        with open(path) as f:
            self.before = int(f.read())
        if self.before < self.n:
            with open(path, "w") as f:
                f.write(str(self.n))
        os.makedirs("/dev/hugepages", exist_ok=True)
        if subprocess.run(["mountpoint", "-q", "/dev/hugepages"]).returncode != 0:
            subprocess.run(["mount", "-t", "hugetlbfs", "nodev", "/dev/hugepages"], check=True)
        with open("/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages") as f:
            free = int(f.read())
        if free < 32:
            # __exit__ does not run when __enter__ fails: give the pages back here
            self.__exit__()
            held = sorted({re.sub(r"map_\d+$", "", f) for f in os.listdir("/dev/hugepages")})
            check(False, "could not reserve 2 MiB hugepages: %d free; page files in "
                  "/dev/hugepages: %s" % (free, ", ".join(held) or "none"))

    def __exit__(self, *exc):
        for f in os.listdir("/dev/hugepages"):
            if f.startswith(self.prefix + "map_"):
                os.unlink(os.path.join("/dev/hugepages", f))
        if self.before < self.n:
            with open("/proc/sys/vm/nr_hugepages", "w") as f:
                f.write(str(self.before))


def case_docs(c):
    """docs/shell.md lists exactly the commands 'help' prints."""
    p = subprocess.run(c._argv(c.eal(["--vdev", "net_null0"]), ["-i"]), input="help\n",
                       capture_output=True, text=True, timeout=30, cwd=c.dir)
    # help lines: two spaces, then the usage (the final stats indent by four)
    helps = [l.strip() for l in p.stdout.split("dpdk-forwarder> help")[1].splitlines()
             if re.match(r"  \S", l) and ": " in l]
    check(len(helps) >= 10, "help printed %d commands" % len(helps))
    with open(os.path.join(SRC, "docs", "shell.md")) as f:
        doc = f.read()
    for h in helps:
        usage, desc = h.split(": ", 1)
        check("- `%s`: %s" % (usage, desc) in doc, "docs/shell.md lacks `%s`: %s" % (usage, desc))
    documented = [l.split("`")[1] for l in doc.splitlines() if l.startswith("- `")]
    usages = [h.split(": ", 1)[0] for h in helps]
    for d in documented:
        check(d in usages, "docs/shell.md documents `%s`, which the shell does not have" % d)


def fwd_stats_port0(sh):
    """(rx packets, rx Mpps) of port 0 from 'show fwd stats'."""
    out = sh.cmd("show fwd stats")
    m = re.search(r"^port 0 \(\S+\): rx (\d+) pkts \d+ bytes \(([0-9.]+) Mpps\)", out, re.M)
    check(m is not None, "no port 0 line in: %r" % out)
    return int(m.group(1)), float(m.group(2))


def case_rates(c):
    """The rate 'show fwd stats' prints after a start, a clear or a port restart
    covers that run only: it cannot exceed the packets counted since then over
    the time the test waited (a lower bound of the rate's time); the first one
    after a restart used to divide the previous run's packets by the new run's
    time (94 261 Mpps on net_null)."""
    wait = 0.5
    sh = Shell(c, c.eal(["--vdev", "net_null0", "--vdev", "net_null1"]))

    def check_rate(base, what):
        time.sleep(wait)
        rx, mpps = fwd_stats_port0(sh)
        got = rx - base if rx >= base else rx  # a PMD may zero its counters on restart
        bound = got / wait / 1e6
        check(0 < mpps <= bound + 0.0005,
              "%s: %.3f Mpps, but %d packets in at least %.1f s are at most %.3f Mpps" %
              (what, mpps, got, wait, bound))

    check("forwarding started" in sh.cmd("start"), "start")
    time.sleep(0.3)
    fwd_stats_port0(sh)  # a rate base in the first run
    time.sleep(1)
    sh.cmd("stop")
    base = port_counter(sh, 0, "rx")  # not 'show fwd stats': that would be a new rate base
    sh.cmd("start")
    check_rate(base, "after stop and start")

    time.sleep(1)
    sh.cmd("stop")
    base = port_counter(sh, 0, "rx")
    sh.cmd("start")
    check_rate(base, "after a second start")

    check("port stats cleared" in sh.cmd("clear port stats all"), "clear port stats")
    check_rate(0, "after clear port stats")

    base = port_counter(sh, 0, "rx")
    check("forwarding stats cleared" in sh.cmd("clear fwd stats"), "clear fwd stats")
    check_rate(base, "after clear fwd stats")

    sh.cmd("port stop all")
    base = port_counter(sh, 0, "rx")
    check("started" in sh.cmd("port start all"), "port start all")
    check_rate(base, "after port stop and start")
    sh.cmd("stop")
    fwd_stats_port0(sh)
    rx, _ = fwd_stats_port0(sh)
    check_eq(fwd_stats_port0(sh), (rx, 0.0), "the rate of a stopped forwarder")
    sh.quit()


def case_testpmd_commands(c):
    """testpmd's shell spellings (issue 23): show config fwd, show port summary
    all, set burst/nbcore, start tx_first on two looped rings, stop printing the
    run's forward statistics and Done., and did-you-mean for a typo."""
    sh = Shell(c, c.eal(["--vdev", "net_ring0", "--vdev", "net_ring1"]))
    out = sh.cmd("show config fwd")
    check("io packet forwarding - ports=2 - cores=1 - streams=2 - burst=32" in out, out)
    out = sh.cmd("show port summary all")
    check("Number of available ports: 2" in out and re.search(r"\n1 +\S+ +net_ring1 +net_ring +up", out),
          out)
    check("burst set to 16" in sh.cmd("set burst 16"), "set burst 16")
    check("burst=16" in sh.cmd("show config fwd"), "burst shown after set burst")
    check("expected 1 to 512" in sh.cmd("set burst 0"), "set burst 0 refused")
    check("nbcore is 1" in sh.cmd("set nbcore 1"), "set nbcore 1")
    out = sh.cmd("set nbcore 3")
    check("fixed at start" in out and "--nb-cores 3" in out, out)
    out = sh.cmd("strat")
    check("unknown command 'strat'; did you mean 'start'?" in out, out)
    out = sh.cmd("start tx_first")
    check("tx_first: sent 32 packets" in out and "forwarding started: io mode" in out, out)
    # the rings loop: the 32 frames go round and round
    wait_for(lambda: port_counter(sh, 1, "rx") > 1000, "tx_first's frames looping")
    out = sh.cmd("show fwd stats all")
    check("lcore 1: rx " in out and "drops: " in out, out)
    out = sh.cmd("stop")
    m = re.search(r"Forward statistics for port 0 .*\n\s*RX-packets: (\d+) +RX-dropped: (\d+) +"
                  r"RX-total: (\d+)\s*\n\s*TX-packets: (\d+) +TX-dropped: (\d+)", out)
    check(m is not None and int(m.group(1)) > 1000 and int(m.group(4)) > 1000, out)
    check("Accumulated forward statistics for all ports" in out and out.rstrip().endswith("Done."),
          out)
    # a second run's statistics are its own
    sh.cmd("start")
    time.sleep(0.2)
    out = sh.cmd("stop")
    m2 = re.search(r"port 0 .*\n\s*RX-packets: (\d+)", out)
    check(m2 is not None, out)
    sh.cmd("set fwd rxonly")
    out = sh.cmd("start tx_first")
    check("tx_first needs a mode that forwards what it receives" in out, out)
    sh.quit()


def case_stats_snapshot(c):
    """A live 'show fwd stats' (and 'show fwd stats all') is one snapshot that
    adds up (issue 23): under traffic each block's lcores balance, with what is
    in flight, and the drops line is their dropped; tx_first's frames are an
    lcore's; stop's summary counts them among the ports' TX. Then the issue's
    route example: two workers dropping every net_null frame as l2_other_host
    while the blocks are read."""
    sh = Shell(c, c.eal(["--vdev", "net_ring0", "--vdev", "net_ring1"]))
    out = sh.cmd("start tx_first")
    check("tx_first: sent 64 packets" in out, out)
    wait_for(lambda: port_counter(sh, 1, "rx") > 1000, "tx_first's frames looping")
    for cmd in ("show fwd stats", "show fwd stats all") * 3:
        b = ft.check_stats_block(sh.cmd(cmd), final=False)
        check_eq(sum(lc["extras"].get("tx_first", 0) for lc in b["lcores"]), 64,
                 "tx_first frames in the lcores' lines")
    out = sh.cmd("stop")
    m = re.search(r"Accumulated forward statistics for all ports.*\n\s*RX-packets: (\d+) .*\n"
                  r"\s*TX-packets: (\d+)", out)
    check(m is not None, out)
    check_eq(int(m.group(1)) + 64, int(m.group(2)), "stop: RX + tx_first's 64 vs TX\n" + out)
    b = ft.check_stats_block(sh.cmd("show fwd stats"), final=True)
    out = sh.cmd("show port stats all")
    for p in (0, 1):
        m = re.search(r"port %d .*\n\s*rx (\d+) pkts (\d+) bytes.*\n\s*tx (\d+) pkts (\d+) bytes" % p,
                      out)
        check(m is not None, out)
        rx, rxb, tx, txb = map(int, m.groups())
        check(rx > 0 and rxb == 60 * rx and txb == 60 * tx,
              "port %d: net_ring's bytes are the app's (60 a frame)\n%s" % (p, out))
    sh.quit()

    sh = Shell(c, c.eal(["--vdev", "net_null0", "--vdev", "net_null1"], lcores="0@0,1@1,2@1"),
               ["--config", os.path.join(SRC, "config", "router.ini")])
    sh.cmd("start")
    time.sleep(0.2)
    for _ in range(6):
        b = ft.check_stats_block(sh.cmd("show fwd stats"), final=False)
        check(b["drops"].get("l2_other_host", 0) > 0 and b["all"] is not None, "route block %r" % b)
    sh.cmd("stop")
    ft.check_stats_block(sh.cmd("show fwd stats"), final=True)
    sh.quit()


def trace_packets(out):
    """show trace's output -> [(header line, [stage lines])] per packet."""
    pkts = []
    for line in out.splitlines():
        if re.match(r"^Packet \d+$", line.strip()):
            pkts.append([line.strip(), []])
        elif pkts and line.startswith("    "):
            pkts[-1][1].append(line.strip())
        elif pkts and line.startswith("  ") and not pkts[-1][1]:
            pkts[-1][0] += " | " + line.strip()
    return pkts


def trace_done(sh, what):
    """show trace's output once the trace has recorded all it was asked."""
    def done():
        out = sh.cmd("show trace")
        return out if "not recording" in out else None
    return wait_for(done, what, timeout=60)


def trace_frames():
    """Into port 0 of the trace case's router (router.ini with port 1's MTU 576):
    one frame for each thing the trace must show."""
    from scapy.layers.inet import IP, UDP
    from scapy.layers.l2 import Ether

    def f(dst, size=60, **ip):
        p = Ether(src="02:00:00:00:00:02", dst="02:70:63:61:70:00") / \
            IP(src="10.0.0.2", dst=dst, **ip) / UDP(sport=1024, dport=9)
        return bytes(p / (b"\0" * max(0, size - len(p))))

    bad = bytearray(f("172.16.0.9"))
    bad[24] ^= 0xff  # the IPv4 header checksum
    return [f("172.16.0.1"),                        # 1 routed via 10.1.0.2 out of port 1
            f("192.0.2.1"),                         # 2 blackhole
            f("172.16.0.2", ttl=1),                 # 3 TTL expires: ICMP time exceeded
            bytes(bad),                             # 4 ip_cksum
            f("198.51.100.1"),                      # 5 reject: ICMP host unreachable
            f("172.16.0.3", size=1000),             # 6 fragmented for MTU 576 (2 fragments)
            f("172.16.0.4", size=1000, flags="DF")]  # 7 DF: ICMP fragmentation needed


def case_trace(c):
    """trace start N [port P], show trace, trace stop|clear: route stages, port filter, io mode."""
    from scapy.layers.inet import IP, UDP
    from scapy.layers.l2 import Ether

    with open(os.path.join(SRC, "config", "router.ini")) as f:
        ini = f.read()
    cfg = c.path("router-576.ini")
    with open(cfg, "w") as f:
        f.write(ini.replace("[port 1]\nip = 10.1.0.1/24\nmtu = 1500", "[port 1]\nip = 10.1.0.1/24\nmtu = 576"))
    back = [bytes(Ether(src="02:00:00:00:01:02", dst="02:70:63:61:70:01") /
                  IP(src="172.16.0.1", dst="10.0.0.2") / UDP(sport=9, dport=1024) / (b"\0" * 18))]
    vdevs, _ = c.pcap_ports([[trace_frames()], [back]], infinite=(0, 1))
    eal = c.eal(vdevs)
    prefix = c.prefixes[-1]
    # the flow-group lines come from the flow table, off by default (issue 41)
    sh = Shell(c, eal, ["--config", cfg, "--flow-table", "on"])

    # bad arguments are refused, with why
    for bad, want in (("trace start 0", "bad count '0'"), ("trace start x", "bad count 'x'"),
                      ("trace start 257", "expected 1 to 256"),
                      ("trace start 3 port 99", "bad port '99'"),
                      ("trace start 3 port x", "bad port 'x'")):
        out = sh.cmd(bad)
        check(want in out, "%s: %r" % (bad, out))
    check("0 packets recorded" in sh.cmd("show trace"), "nothing traced yet")

    check("tracing the next 5 packets" in sh.cmd("trace start 5"), "trace start 5")
    sh.cmd("start")
    out = trace_done(sh, "5 traced packets")
    pkts = trace_packets(out)
    check_eq(len(pkts), 5, out)
    check("5 packets recorded of 5" in out, out)
    check(all("rx port 0" in h for h, _ in pkts), out)
    # port 0 is polled first: the first five are the pcap's first five, in order
    routed, bh, ttl, cksum, reject = (st for _, st in pkts)
    for want in ("ethernet: 02:00:00:00:00:02 -> 02:70:63:61:70:00, type 0x0800",
                 "ipv4: 10.0.0.2 -> 172.16.0.1, proto 17, ttl 64",
                 "route: 172.16.0.0/16 hit by 172.16.0.1",
                 "next-hop: ", "via 10.1.0.2 out of port 1",
                 "neighbour: 10.1.0.2 resolved, 02:00:00:00:01:02", "tx: port 1 queue 0"):
        check(any(want in s for s in routed), "routed packet lacks %r:\n%s" % (want, out))
    check(any(s.startswith("flow-group: group 0, ") for s in routed), out)
    check(any(s.startswith("route: 192.0.2.0/24 ") for s in bh), out)
    check(any(s.startswith("next-hop: ") and "blackhole" in s for s in bh), out)
    check_eq(bh[-1].split()[:2], ["drop:", "blackhole"], out)
    check(any(s.startswith("punt: ttl to the slow path") for s in ttl), out)
    check(any(s.startswith("icmp: time exceeded (type 11 code 0)") for s in ttl), out)
    check_eq(ttl[-1].split()[:2], ["drop:", "ttl_exceeded"], out)
    check_eq(cksum[-1].split()[:2], ["drop:", "ip_cksum"], out)
    check(not any(s.startswith("route:") for s in cksum), "an input drop has no route:\n" + out)
    check(any(s.startswith("icmp: host unreachable (type 3 code 1)") for s in reject), out)
    check_eq(reject[-1].split()[:2], ["drop:", "reject"], out)
    sh.cmd("stop")
    # the same records over telemetry, a packet an array of show trace's lines
    tel = telemetry(prefix, "/forwarder/trace")
    check_eq((tel["recorded"], tel["asked"], tel["recording"]), (5, 5, 0), "telemetry %r" % tel)
    check_eq(sorted(k for k in tel if k.startswith("packet")),
             ["packet%d" % i for i in range(1, 6)], "telemetry %r" % tel)
    check("tx: port 1 queue 0" in tel["packet1"] and "rx port 0 queue 0" in tel["packet1"][0],
          "telemetry packet1 %r" % tel["packet1"])
    check(tel["packet2"][-1].startswith("drop: blackhole"), "telemetry packet2 %r" % tel)

    # the fragmenting router and DF, further in the pcap
    sh.cmd("trace start 7 port 0")
    sh.cmd("start")
    out = trace_done(sh, "7 traced packets")
    sh.cmd("stop")
    pkts = trace_packets(out)
    check_eq(len(pkts), 7, out)
    frag = [st for _, st in pkts if any(s.startswith("fragment: ") for s in st)]
    check(frag and any("fragment: into 2 fragments for mtu 576" in s for s in frag[0]), out)
    check(any(s.startswith("punt: mtu to the slow path") for s in frag[0]), out)
    df = [st for _, st in pkts if any("fragmentation needed (type 3 code 4) mtu 576" in s
                                       for s in st)]
    check(df and df[0][-1].startswith("drop: frag_needed"), out)

    # port 1 only
    check("received on port 1" in sh.cmd("trace start 3 port 1"), "trace start 3 port 1")
    sh.cmd("start")
    out = trace_done(sh, "3 traced packets of port 1")
    sh.cmd("stop")
    pkts = trace_packets(out)
    check_eq(len(pkts), 3, out)
    check("(port 1)" in out, out)
    check(all("rx port 1 queue 0" in h for h, _ in pkts), out)
    check(all(any(s.startswith("ipv4: 172.16.0.1 -> 10.0.0.2") for s in st) for _, st in pkts),
          out)

    # clear empties; stop stops: nothing recorded after it
    check("trace cleared" in sh.cmd("trace clear"), "trace clear")
    check("0 packets recorded" in sh.cmd("show trace"), "cleared")
    sh.cmd("trace start 200")
    check("trace stopped" in sh.cmd("trace stop"), "trace stop")
    sh.cmd("start")
    time.sleep(0.5)
    sh.cmd("stop")
    out = sh.cmd("show trace")
    check("0 packets recorded of 200" in out and "not recording" in out, out)
    st = sh.quit()
    for name in ("blackhole", "ttl_exceeded", "ip_cksum", "reject", "frag_needed"):
        check(st["drops"].get(name, 0) > 0, "%s counted in the stats file" % name)

    # io mode: rx, the action, the tx port
    vdevs, _ = c.pcap_ports([[frames(8)], [[]]], infinite=(0,))
    sh = Shell(c, c.eal(vdevs), ["--fwd", "io"])
    sh.cmd("trace start 2")
    sh.cmd("start")
    out = trace_done(sh, "2 traced packets in io mode")
    sh.cmd("stop")
    pkts = trace_packets(out)
    check_eq(len(pkts), 2, out)
    for h, st in pkts:
        check("rx port 0 queue 0" in h, out)
        check("action: io: unchanged" in st, out)
        check_eq(st[-1], "tx: port 1 queue 0", out)
    sh.quit()


def case_restarts_keep_run(c):
    """The commands that stop and restart the workers mid-run (set burst, set
    fwd, a queue's stop and start, clear fwd stats, trace start, a port's stop
    and start) are part of the user's run, as trace start already was (issue
    37): each took the run's base again, and stop's totals counted from the
    last of them. Frames loop through two rings from start tx_first to stop;
    stop's accumulated RX and TX are then every frame of the ports."""
    sh = Shell(c, c.eal(["--vdev", "net_ring0", "--vdev", "net_ring1"]))
    out = sh.cmd("start tx_first")
    check("forwarding started" in out, out)
    steps = (("set burst 16",), ("set fwd mac",), ("set fwd io",),
             ("port 0 rxq 0 stop", "port 0 rxq 0 start"), ("port 1 txq 0 stop",),
             ("clear fwd stats",), ("trace start 4",), ("set burst 32",),
             ("port stop 0", "port start 0"))
    for cmds in steps:
        # frames before each step and after it: each one is mid-run
        before = port_counter(sh, 1, "rx")
        wait_for(lambda: port_counter(sh, 1, "rx") > before + 1000,
                 "frames looping before " + " / ".join(cmds), 30)
        for cmd in cmds:
            out = sh.cmd(cmd)
            check("unknown command" not in out and "usage" not in out.lower(), cmd + ": " + out)
    out = sh.cmd("stop")
    m = re.search(r"Accumulated forward statistics for all ports.*\n\s*RX-packets: (\d+) .*\n"
                  r"\s*TX-packets: (\d+)", out)
    check(m is not None, out)
    rx = sum(port_counter(sh, p, "rx") for p in (0, 1))
    tx = sum(port_counter(sh, p, "tx") for p in (0, 1))
    check_eq((int(m.group(1)), int(m.group(2))), (rx, tx),
             "stop's RX and TX vs the ports' (the whole run, over %d restarts)\n%s"
             % (sum(len(s) for s in steps), out))
    sh.quit()


CASES = {n[5:]: f for n, f in globals().items() if n.startswith("case_")}


if __name__ == "__main__":
    sys.exit(ft.run_cases(sys.argv, CASES, "shell-", "tests/shell/meson.build"))
