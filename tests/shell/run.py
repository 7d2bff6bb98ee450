#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""Shell, telemetry and capture tests: the real binary driven through a
pseudo-terminal (pexpect: line editing, completion, history), a pipe and a
command file, on net_pcap/net_null ports, with every command's effect checked.

    run.py CASE        (meson runs one test() per case; see CASES)
"""

import json
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
        self.expect(PROMPT)

    def expect(self, pattern, timeout=15):
        try:
            return self.p.expect(pattern, timeout=timeout)
        except (pexpect.TIMEOUT, pexpect.EOF) as e:
            raise Fail("waited for %r; got %s\n--- session ---\n%s" %
                       (pattern, type(e).__name__, "".join(self.log)[-3000:]))

    def cmd(self, line, timeout=15):
        """Send a command, return its output (between the echoed line and the next prompt)."""
        self.p.sendline(line)
        self.expect(PROMPT, timeout)
        out = self.p.before
        # the line editor echoes what was typed: drop everything up to the echo
        i = out.find(line)
        return out[i + len(line):] if i >= 0 else out

    def quit(self):
        self.p.sendline("quit")
        self.expect(pexpect.EOF, 30)
        self.p.close()
        check_eq(self.p.exitstatus, 0, "exit status after quit\n" + "".join(self.log)[-2000:])
        return ft.load_stats(self.stats)


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
    for reason in ("tx_full", "runt", "rxonly", "stopped", "port_down", "pktgen_rx"):
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
    check_eq(sorted(drops), sorted(["tx_full", "runt", "rxonly", "stopped", "port_down",
                                    "pktgen_rx"]), "drop reasons")
    check_eq(telemetry(prefix, "/forwarder/lcores"), {"1": ["0/0", "1/0"]}, "lcores")
    check(telemetry(prefix, "/ethdev/stats,0")["ipackets"] > 0, "DPDK's own /ethdev endpoint")
    sh.cmd("stop")
    st = sh.quit()
    check_eq(st["mbufs_leaked"], 0, "mbufs leaked")


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
        try:
            # printed once rte_pdump_enable() has returned ("Capturing on" comes before it)
            d.expect("Packets captured:")
        except (pexpect.TIMEOUT, pexpect.EOF):
            raise Fail("dumpcap did not attach: " + str(d.before)[-1500:])
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


CASES = {n[5:]: f for n, f in globals().items() if n.startswith("case_")}


if __name__ == "__main__":
    sys.exit(ft.run_cases(sys.argv, CASES, "shell-", "tests/shell/meson.build"))
