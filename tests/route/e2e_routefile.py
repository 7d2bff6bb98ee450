#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""End-to-end tests of route and neighbour files (routes-file, neigh-file):
a config that loads a few thousand generated routes over /8../32 and a few
hundred static neighbours from `ip -4 route show` / `ip -4 neigh show` style
files, scapy frames to a sample of destinations of every prefix length, each
checked to leave towards the right neighbour's MAC; a bad file line stops the
start-up with its file:line.

    e2e_routefile.py CASE | --list | --check-registered CASE...
"""

import os
import random
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
import fwdtest as ft  # noqa: E402
from fwdtest import check, check_eq  # noqa: E402
import e2e_route as er  # noqa: E402

N_NEIGH = 300


def neigh_ip(i):
    """Neighbour i on port 1's network 10.1.0.0/22 (from 10.1.0.2)."""
    n = i + 2
    return "10.1.%d.%d" % (n // 256, n % 256)


def neigh_mac(i):
    return "02:00:00:01:%02x:%02x" % (i // 256, i % 256)


def gen_routes(rng):
    """{(prefix int, plen): neighbour index}: 120 routes of every length
    from /8 to /24, 60 of /25../32 (inside 100 /24s: the table has 256 tbl8
    groups), nested ones included; outside 10/8 and the special blocks."""
    routes = {}
    for plen in range(8, 33):
        n, have = (40 if plen == 8 else 120 if plen <= 24 else 60), 0  # 88 /8s to choose from
        while have < n:
            if plen <= 24:
                first = rng.choice([a for a in range(11, 100) if a != 127])
                addr = first << 24 | rng.getrandbits(24)
            else:
                addr = (198 << 24 | 18 << 16 | rng.randrange(100) << 8 | rng.getrandbits(8))
            mask = (0xFFFFFFFF << (32 - plen)) & 0xFFFFFFFF
            if (addr & mask, plen) not in routes:
                routes[(addr & mask, plen)] = rng.randrange(N_NEIGH)
                have += 1
    return routes


def ip_str(a):
    return "%d.%d.%d.%d" % (a >> 24, a >> 16 & 255, a >> 8 & 255, a & 255)


def lpm(routes, addr):
    for plen in range(32, -1, -1):
        mask = (0xFFFFFFFF << (32 - plen)) & 0xFFFFFFFF if plen else 0
        if (addr & mask, plen) in routes:
            return (addr & mask, plen)
    return None


def write_files(c, routes, rng):
    """The route file in `ip -4 route show`'s shapes (proto, metric, scope,
    src, onlink, dev by name and by number, one-hop nexthop lines, a comment,
    CRLF, one unknown attribute twice) and the neighbour file."""
    lines = ["# ip -4 route show (generated)"]
    for i, ((p, plen), nb) in enumerate(sorted(routes.items())):
        dst = ip_str(p) if plen == 32 else "%s/%d" % (ip_str(p), plen)
        gw = neigh_ip(nb)
        form = i % 6
        if form == 0:
            lines.append("%s via %s dev net_pcap1 proto bgp metric 20" % (dst, gw))
        elif form == 1:
            lines.append("%s via %s dev 1 proto static scope global onlink\r" % (dst, gw))
        elif form == 2:
            lines.append("%s via %s" % (dst, gw))
        elif form == 3:
            lines.append("%s proto bgp metric 20 \n\tnexthop via %s dev net_pcap1 weight 1 "
                         % (dst, gw))
        elif form == 4:
            lines.append("%s via %s dev 1 proto zebra metric 20 src 10.1.0.1 color red" % (dst, gw))
        else:
            lines.append("")
            lines.append("%s via %s proto kernel" % (dst, gw))
    lines.append("blackhole 192.0.2.0/24 proto static")
    lines.append("unreachable 203.0.113.0/24 proto static metric 1024")
    rpath = c.path("table.routes")
    with open(rpath, "w") as f:
        f.write("\n".join(lines) + "\n")
    nl = []
    for i in range(N_NEIGH):
        state = rng.choice(["REACHABLE", "STALE", "PERMANENT", "router STALE", "DELAY"])
        dev = "net_pcap1" if i % 2 else "1"
        nl.append("%s dev %s lladdr %s %s" % (neigh_ip(i), dev, neigh_mac(i), state))
    nl.append("10.1.3.200 dev 1 FAILED")
    nl.append("10.1.3.201 dev net_pcap1 INCOMPLETE")
    npath = c.path("lan.neigh")
    with open(npath, "w") as f:
        f.write("\n".join(nl) + "\n")
    return rpath, npath


def route_config(c, extra_route=()):
    """Port 0 10.0.0.1/24 (where the frames come in), port 1 10.1.0.1/22;
    the files by relative name (relative to the config's directory)."""
    path = c.path("rt.ini")
    with open(path, "w") as f:
        f.write("[forward]\nfwd = route\n[port 0]\nip = 10.0.0.1/24\n[port 1]\n"
                "ip = 10.1.0.1/22\n[route]\nroute = 100.64.0.0/10 via 10.1.0.2\n"
                + "".join(l + "\n" for l in extra_route) +
                "routes-file = table.routes\nneigh-file = lan.neigh\n")
    return path


def case_files_forward(c):
    rng = random.Random(17)
    routes = gen_routes(rng)
    write_files(c, routes, rng)
    cfg = route_config(c)
    all_routes = dict(routes)
    all_routes[(100 << 24 | 64 << 16, 10)] = 0  # the config's own route, 10.1.0.2
    frames, expect, seq = [], {}, 0
    by_len = {}
    for (p, plen), nb in routes.items():
        by_len.setdefault(plen, []).append(p)
    for plen in range(8, 33):
        for p in rng.sample(by_len[plen], 4):
            host = rng.getrandbits(32 - plen) if plen < 32 else 0
            addr = p | host
            best = lpm(all_routes, addr)
            frames.append(er.udp("10.0.0.9", ip_str(addr), seq))
            expect[(0, seq)] = (1, neigh_mac(all_routes[best]))
            seq += 1
    frames.append(er.udp("10.0.0.9", "100.100.1.1", seq))  # the config's own route
    expect[(0, seq)] = (1, neigh_mac(0))
    seq += 1
    n_routed = seq
    frames += [er.udp("10.0.0.9", "192.0.2.%d" % i, seq + i) for i in range(3)]  # blackhole
    r, outs = er.run_route(c, [frames, []], cfg)
    routed = {k: v for k, v in expect.items()}
    er.check_routed([[], outs[1]], [frames[:n_routed], []], routed, 2)
    er.check_drops(r.stats, {"blackhole": 3})
    logs = r.stdout + r.stderr
    check_eq(len(re.findall(r"ignoring unknown attribute", logs)), 1,
             "one warning for the file's unknown attributes\n" + r.describe())
    check("table.routes:" in logs and "'color'" in logs, "the warning names the file and attribute")


def case_files_bad_line(c):
    """A bad line in a route file stops the start-up: exit status 1, the error
    is file:line: reason, nothing forwarded; a missing file is told at the
    config line before EAL."""
    rpath = c.path("table.routes")
    with open(rpath, "w") as f:
        f.write("172.16.0.0/16 via 10.1.0.2\n# comment\n\n172.17.0.0/16 via 10.1.0.3\n"
                "172.18.0.0/16 via 10.9.0.2 dev 1\n172.19.0.0/16 via 10.1.0.4\n")
    with open(c.path("lan.neigh"), "w") as f:
        f.write("10.1.0.2 dev 1 lladdr 02:00:00:00:01:02 REACHABLE\n")
    cfg = route_config(c)
    eal = c.eal(["--vdev", "net_null0", "--vdev", "net_null1"])
    r = c.run(eal, ["--config", cfg, "--duration", "1"], stats=False)
    check_eq(r.rc, 1, "exit status\n" + r.describe())
    r.check_error(r"^%s:5: next hop 10\.9\.0\.2 is not on any connected network" %
                  re.escape(rpath))
    check("final stats" not in r.stdout, "no forwarding run after a bad route file")
    # an unknown dev name
    with open(rpath, "w") as f:
        f.write("172.16.0.0/16 via 10.1.0.2 dev eth0\n")
    r = c.run(eal, ["--config", cfg, "--duration", "1"], stats=False)
    check_eq(r.rc, 1, "exit status\n" + r.describe())
    r.check_error(r"^%s:1: unknown dev 'eth0'" % re.escape(rpath))
    # what the file says reaches the terminal escaped: the warning the log
    # prints and the error line (an escape sequence would drive the terminal)
    with open(rpath, "wb") as f:
        f.write(b"172.16.0.0/16 via 10.1.0.2 \x1b]0;owned\x07 x\n"
                b"172.17.0.0/16 via 10.1.0.2 dev \x1b[2Jred\n")
    r = c.run(eal, ["--config", cfg, "--duration", "1"], stats=False)
    check_eq(r.rc, 1, "exit status\n" + r.describe())
    r.check_error(r"^%s:2: unknown dev '\\x1b\[2Jred'" % re.escape(rpath))
    check("table.routes:1: ignoring unknown attribute '\\x1b]0;owned\\x07'" in
          r.stdout + r.stderr, "the warning, escaped\n" + r.describe())
    check("\x1b" not in r.stdout + r.stderr and "\x07" not in r.stdout + r.stderr,
          "a raw escape reached the terminal\n" + r.describe())
    # a neighbour file's bad MAC
    with open(rpath, "w") as f:
        f.write("172.16.0.0/16 via 10.1.0.2\n")
    with open(c.path("lan.neigh"), "w") as f:
        f.write("10.1.0.2 dev 1 lladdr 02:00:00:00:01:02 REACHABLE\n"
                "10.1.0.3 dev 1 lladdr 02:00:00:00:01 STALE\n")
    r = c.run(eal, ["--config", cfg, "--duration", "1"], stats=False)
    check_eq(r.rc, 1, "exit status\n" + r.describe())
    r.check_error(r"^%s:2: '02:00:00:00:01' is not a unicast MAC" %
                  re.escape(c.path("lan.neigh")))
    # a missing file: the config's line, before EAL starts
    os.unlink(rpath)
    r = c.run(eal, ["--config", cfg, "--duration", "1"], stats=False)
    check_eq(r.rc, 1, "exit status\n" + r.describe())
    r.check_error(r"^%s:9: routes-file %s: No such file or directory" %
                  (re.escape(cfg), re.escape(rpath)))
    # what is not a route file: refused at its line, before EAL; a pipe is
    # taken (read at start until its writer closes it), never waited on here
    for what, why in (("/dev/zero", "not a regular file or a pipe"), (c.dir, "is a directory")):
        os.symlink(what, rpath)
        r = c.run(eal, ["--config", cfg, "--duration", "1"], stats=False)
        os.unlink(rpath)
        check_eq(r.rc, 1, "exit status\n" + r.describe())
        r.check_error(r"^%s:9: routes-file %s: %s" % (re.escape(cfg), re.escape(rpath), why))
    with open(c.path("lan.neigh"), "w") as f:
        f.write("10.1.0.2 dev 1 lladdr 02:00:00:00:01:02 REACHABLE\n")
    os.mkfifo(rpath)
    w = os.open(rpath, os.O_RDWR | os.O_NONBLOCK)
    try:
        os.write(w, b"172.16.0.0/16 via 10.1.0.2\n172.17.0.0/16 via 10.1.0.2\n")
        p = subprocess.Popen(c._argv(eal, ["--config", cfg, "--duration", "1"]), cwd=c.dir,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        # close only once the forwarder has the pipe open: the last close
        # before its open would discard what was written
        ft_wait_open(p.pid, rpath, 60)
        os.close(w)  # the writer done: the start-up reads to the end and goes on
        w = -1
        out, _ = p.communicate(timeout=60)
    finally:
        if w >= 0:
            os.close(w)
    check_eq(p.returncode, 0, "a route file from a pipe\n" + out[-2000:])
    check(re.search(r"2 routes loaded from %s" % re.escape(rpath), out) is not None, out[-2000:])
    os.unlink(rpath)


def case_files_fifo_late(c):
    """routes-file and neigh-file on pipes whose writers open after the
    forwarder (BIRD or a script started beside it): the start-up says it
    waits, waits for each writer and reads to its close, then runs with
    every route and neighbour. (Once it read EOF at once: `0 routes loaded`,
    the table missing, the writer blocked in its open for ever.) SIGTERM
    ends a wait for a writer that never comes."""
    rpath, npath = c.path("table.routes"), c.path("lan.neigh")
    os.mkfifo(rpath)
    os.mkfifo(npath)
    cfg = route_config(c)
    eal = c.eal(["--vdev", "net_null0", "--vdev", "net_null1"])
    p = subprocess.Popen(c._argv(eal, ["--config", cfg, "--duration", "1"]), cwd=c.dir,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seen = []
    try:
        for path, text in ((rpath, "172.16.0.0/16 via 10.1.0.2\n172.17.0.0/16 via 10.1.0.3\n"
                                   "172.18.0.0/16 via 10.1.0.4\n"),
                           (npath, "10.1.0.2 dev 1 lladdr 02:00:00:00:01:02 REACHABLE\n")):
            # the forwarder says when it has found no writer (its output, not a timer)
            want = "%s: waiting for a writer to open the pipe" % path
            while not any(want in l for l in seen):
                line = p.stdout.readline()
                if line == "":
                    raise ft.Fail("the forwarder did not wait for %s's writer:\n%s"
                                  % (path, "".join(seen)[-3000:]))
                seen.append(line)
            try:
                w = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as e:  # ENXIO: nobody reads it any more
                raise ft.Fail("%s: the forwarder did not wait for the pipe's writer: %s"
                              % (path, e))
            os.write(w, text.encode())
            os.close(w)
        out, _ = p.communicate(timeout=60)
        out = "".join(seen) + out
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    check_eq(p.returncode, 0, "routes from a pipe written late\n" + out[-3000:])
    check(re.search(r"3 routes loaded from %s" % re.escape(rpath), out) is not None, out[-3000:])
    check(re.search(r"1 neighbours loaded from %s" % re.escape(npath), out) is not None,
          out[-3000:])
    # a writer that never comes: SIGTERM ends the wait, and the start-up
    p = subprocess.Popen(c._argv(eal, ["--config", cfg, "--duration", "1"]), cwd=c.dir,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for line in p.stdout:
            if "waiting for a writer" in line:
                break
        p.send_signal(signal.SIGTERM)
        out, _ = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    check_eq(p.returncode, 1, "SIGTERM while waiting for a pipe's writer\n" + out[-3000:])
    check("%s: load interrupted" % rpath in out, out[-3000:])
    check("final stats" not in out, "no forwarding run on a table not loaded")
    os.unlink(rpath)
    os.unlink(npath)


def ft_wait_open(pid, path, timeout):
    """Wait until process pid has path open (its /proc/PID/fd links)."""
    end = time.monotonic() + timeout
    real = os.path.realpath(path)
    while time.monotonic() < end:
        try:
            for fd in os.listdir("/proc/%d/fd" % pid):
                try:
                    if os.readlink("/proc/%d/fd/%s" % (pid, fd)) == real:
                        return
                except OSError:
                    pass
        except OSError:
            raise ft.Fail("the forwarder exited before it opened " + path)
        time.sleep(0.05)
    raise ft.Fail("the forwarder did not open %s in %d s" % (path, timeout))


def case_full_table(c):
    """A full table: ROUTES (default 1 000 000, 200 000 under ASan) routes with the DFZ's length mix over 65 536
    gateways (bench/route/mkfulltable.py), loaded from files at start; frames to a sample of
    destinations of every prefix length present, each leaving towards its longest match's
    gateway; the load's time is logged."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                    "bench", "route"))
    import mkfulltable as mk
    # under the sanitizers (CI's second half) a fifth of it: the same code, a fifth the time
    n = int(os.environ.get("ROUTES", "200000" if "ASAN_OPTIONS" in os.environ else "1000000"))
    nh = 65536
    routes = mk.generate(n, nh, 19)
    mk.write(c.path(""), routes, nh)
    table = {(a, plen): g for a, plen, g in routes}
    rng = random.Random(19)
    by_len = {}
    for a, plen, _ in routes:
        by_len.setdefault(plen, []).append(a)
    frames, expect, seq = [], {}, 0
    for plen in sorted(by_len):
        for p in rng.sample(by_len[plen], min(8, len(by_len[plen]))):
            addr = p | (rng.getrandbits(32 - plen) if plen < 32 else 0)
            best = lpm(table, addr)
            frames.append(er.udp("10.0.0.9", ip_str(addr), seq))
            expect[(0, seq)] = (1, mk.gw_mac(table[best]))
            seq += 1
    vdevs, outs = c.pcap_ports([[list(map(bytes, frames))], [[]]])
    r = c.run(c.eal(vdevs, mem=1024), ["--config", c.path("full.ini"), "--duration", "1"],
              timeout=120)
    r.check_ok()
    outputs = [ft.read_pcap(o[0]) for o in outs]
    er.check_route_stats(r, [frames, []], outputs)
    er.check_routed(outputs, [frames, []], expect, 2)
    logs = r.stdout + r.stderr
    m = re.search(r"(\d+) routes loaded from \S+ in ([0-9.]+) s \(([0-9.]+) s of CPU\)", logs)
    check(m is not None, "the load's time is logged\n" + r.describe())
    check_eq(int(m.group(1)), n, "routes loaded")
    print("# %d routes loaded in %s s (%s s of CPU); %d destinations over %d prefix lengths"
          % (n, m.group(2), m.group(3), seq, len(by_len)))


CASES = {n[5:]: f for n, f in list(globals().items()) if n.startswith("case_")}


if __name__ == "__main__":
    sys.exit(ft.run_cases(sys.argv, CASES, "route-file-", "tests/route/meson.build"))
