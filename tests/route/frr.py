"""FRR daemons for the route tests (e2e_fpm, e2e_twin, e2e_bgp), started the
same way on FRR 8.4 (Debian 12) and FRR 10 (Debian 13).

Each daemon runs in a namespace of the test's own, with a run folder per
namespace (zebra's socket, the vty sockets, pid files) that user frr can
reach. zebra and bgpd read their config with -f on both releases. Static
routes cannot: FRR 10's staticd takes no -f (its config comes through
mgmtd, which has no -f either), so they are entered with vtysh, which sends
`ip route` to staticd on 8.4 and to mgmtd on 10 (mgmtd, where installed,
is started beside staticd and hands the routes to it).
"""

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

from fwdtest import Fail

FRR = "/usr/lib/frr"
VTYSH = "/usr/bin/vtysh"
VTY_WAIT_S = 30  # a daemon's vty socket comes up in well under a second; bounded all the same


class Frr:
    """FRR daemons in the test's namespaces. nsmap maps the names a test uses
    for its namespaces to the namespaces' real names."""

    def __init__(self, nsmap, prefix="fwd-frr"):
        self.nsmap, self.prefix, self.procs, self.dirs = nsmap, prefix, [], {}

    def run_dir(self, ns):
        """ns's run folder, made the first time (owned by user frr)."""
        if ns not in self.dirs:
            d = tempfile.mkdtemp(prefix="%s-%s-" % (self.prefix, ns))
            os.chmod(d, 0o755)
            shutil.chown(d, "frr", "frr")
            self.dirs[ns] = d
        return self.dirs[ns]

    def daemon(self, ns, name, conf_lines=None, extra=()):
        """Start FRR's NAME in ns, in the foreground (the test owns the process);
        with conf_lines, a config file of them (after a hostname) read with -f."""
        run = self.run_dir(ns)
        args = []
        if conf_lines is not None:
            conf = os.path.join(run, name + ".conf")
            with open(conf, "w") as f:
                f.write("\n".join(["hostname %s-%s" % (self.prefix, ns)] + conf_lines) + "\n")
            shutil.chown(conf, "frr", "frr")
            args = ["-f", conf]
        # a socket left by a killed instance would pass for the new one's
        sock = os.path.join(run, name + ".vty")
        if os.path.exists(sock):
            os.unlink(sock)
        log = open(os.path.join(run, name + ".log"), "a")
        p = subprocess.Popen(
            ["ip", "netns", "exec", self.nsmap[ns], os.path.join(FRR, name)] + list(extra) + args +
            ["-i", os.path.join(run, name + ".pid"), "-z", os.path.join(run, "zserv.api"),
             "--vty_socket", run, "-A", "127.0.0.1", "-P", "0", "-u", "frr", "-g", "frr"],
            stdout=log, stderr=log)
        log.close()
        self.procs.append(p)
        return p

    def _wait_vty(self, ns, name, proc):
        """Until NAME's vty socket in ns's run folder takes a connection (the
        daemon is up), while the daemon lives; Fail with its log else."""
        sock = os.path.join(self.run_dir(ns), name + ".vty")
        end = time.monotonic() + VTY_WAIT_S
        while True:
            if proc.poll() is not None:
                raise Fail("%s exited (%s) before its vty socket was up:\n%s"
                           % (name, proc.returncode, self.logs()))
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(sock)
                return
            except OSError:
                if time.monotonic() > end:
                    raise Fail("%s: no vty socket %s after %d s:\n%s"
                               % (name, sock, VTY_WAIT_S, self.logs()))
                time.sleep(0.1)
            finally:
                s.close()

    def static_routes(self, ns, routes):
        """staticd in ns (with mgmtd where FRR has it: 9 and later), then the
        static routes ROUTES, (prefix, gateway or "blackhole") pairs, entered
        with vtysh: `ip route PREFIX GATEWAY` as a config file would say it."""
        names = ["mgmtd"] if os.path.exists(os.path.join(FRR, "mgmtd")) else []
        names.append("staticd")
        for name in names:
            self._wait_vty(ns, name, self.daemon(ns, name))
        cmd = ["ip", "netns", "exec", self.nsmap[ns], VTYSH, "--vty_socket",
               self.run_dir(ns), "-c", "configure terminal"]
        for r in routes:
            cmd += ["-c", "ip route %s %s" % r]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        # vtysh says a command it could not run on stdout, and may still exit 0
        if p.returncode != 0 or "%" in p.stdout or "failed" in p.stderr:
            raise Fail("vtysh %s: exit %d\n%s%s\n%s"
                       % (" ".join(cmd[6:]), p.returncode, p.stdout, p.stderr, self.logs()))

    def logs(self):
        """The end of every daemon's log, for a failure's message."""
        out = []
        for ns, d in self.dirs.items():
            for n in sorted(os.listdir(d)):
                if n.endswith(".log"):
                    with open(os.path.join(d, n), errors="replace") as f:
                        out.append("--- %s %s\n%s" % (ns, n, f.read()[-1500:]))
        return "\n".join(out)

    def kill(self):
        """SIGKILL every daemon started and wait for it; the run folders stay
        (a test starts FRR again in them)."""
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
                p.wait(10)
        self.procs.clear()

    def flush_kernel(self, ns):
        """Remove from ns's kernel FIB the routes a SIGKILLed zebra left there.
        The next zebra reads them back as its own and should sweep them, but
        its sweep can run before they reach its RIB (FRRouting/frr#21824; FRR
        10 sends them all again over FPM, and they stay): that is zebra's
        state, not the forwarder's, which a test of the forwarder's own mark
        and sweep must not depend on."""
        # zebra's routes use its next-hop objects: deleting those deletes them
        # (iproute2 6.1's `route flush` refuses routes with an nhid); the rest
        # (blackholes) by protocol
        ip = ["ip", "-n", self.nsmap[ns]]
        subprocess.run(ip + ["nexthop", "flush"], capture_output=True)
        for proto in ("static", "bgp"):
            subprocess.run(ip + ["route", "flush", "proto", proto], capture_output=True)
        left = subprocess.run(ip + ["route", "show", "proto", "static"], capture_output=True,
                              text=True).stdout + subprocess.run(
            ip + ["route", "show", "proto", "bgp"], capture_output=True, text=True).stdout
        if left.strip():
            raise Fail("zebra's routes in the kernel of %s after the flush:\n%s" % (ns, left))

    def stop(self):
        """kill(), and remove the run folders (kept with E2E_KEEP=1)."""
        self.kill()
        if os.environ.get("E2E_KEEP") != "1":
            for d in self.dirs.values():
                shutil.rmtree(d, ignore_errors=True)
            self.dirs.clear()
