#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""Run dpdk-forwarder in the imx8mp guest: the stand-alone runner of
scripts/vm/imx8mp/ (same command line and exit statuses as scripts/vm-run.sh,
which calls the same machine.sh hooks):

  vmrun.py [--in 0=A.pcap] [--out 0=B.pcap] [--stats-file F] [--timeout S]
           -- <dpdk-forwarder options>

It prepares the guest (vm_prepare), writes the guest script (vm_guest_setup,
the forwarder with vm_eal + the options + --stats-file, the @@VM console
protocol of scripts/vm/README.md), starts QEMU (vm_qemu) with the console on
a pipe, and once the guest says @@VM READY injects the input pcap into the
ENET over the dgram netdev at VM_PPS frames/s (default 500) while writing
every frame the port sends into the output pcap (never more than VM_WINDOW,
default 256, frames ahead of the output while output flows). When the output has been
quiet for VM_QUIET seconds (default 2) after the last input frame it sends
@@VM STOP, collects the stats file and exits with the forwarder's status
(124 on timeout, 2 on bad usage, 3 when the guest could not be prepared or
booted). Files named by --config / --cmdline-file go into the guest too.
"""

import base64
import os
import shlex
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
MACHINE = os.path.join(HERE, "machine.sh")
FILE_OPTS = ("--config", "--cmdline-file")


def usage(msg):
    sys.stderr.write("vmrun: %s\nusage: vmrun.py [--in 0=A.pcap] [--out 0=B.pcap] "
                     "[--stats-file F] [--timeout S] -- <dpdk-forwarder options>\n" % msg)
    sys.exit(2)


def hook(env, name, *args):
    cmd = 'source "$1"; shift; "$@"'
    return subprocess.run(["bash", "-c", cmd, "hook", MACHINE, name] + list(args),
                          env=env, check=True, stdout=subprocess.PIPE,
                          universal_newlines=True).stdout


def read_pcap(path):
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        return []
    magic = struct.unpack("<I", data[:4])[0]
    end = "<" if magic in (0xA1B2C3D4, 0xA1B23C4D) else ">"
    off, out = 24, []
    while off + 16 <= len(data):
        _, _, incl, _ = struct.unpack(end + "IIII", data[off:off + 16])
        out.append(data[off + 16:off + 16 + incl])
        off += 16 + incl
    return out


def write_pcap(path, frames):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for t, fr in frames:
            f.write(struct.pack("<IIII", int(t), int((t % 1) * 1e6), len(fr), len(fr)))
            f.write(fr)


def free_port_pair():
    for _ in range(200):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", 0))
        base = s.getsockname()[1]
        s.close()
        if base % 2 or base > 65000:
            continue
        try:
            a = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            a.bind(("127.0.0.1", base))
            b = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            b.bind(("127.0.0.1", base + 1))
        except OSError:
            continue
        a.close()
        return base, b
    raise SystemExit("vmrun: no free UDP port pair on 127.0.0.1")


def main(argv):
    ins, outs, stats_file, timeout = {}, {}, None, 600
    if "--" not in argv:
        usage("missing -- before the forwarder options")
    sep = argv.index("--")
    own, fwd = argv[:sep], argv[sep + 1:]
    i = 0
    while i < len(own):
        o = own[i]
        if o in ("--in", "--out", "--stats-file", "--timeout", "--machine") and i + 1 < len(own):
            v = own[i + 1]
            i += 2
            if o in ("--in", "--out"):
                port, _, f = v.partition("=")
                if port != "0" or not f:
                    usage("%s wants 0=FILE (imx8mp has one port)" % o)
                (ins if o == "--in" else outs)[0] = f
            elif o == "--stats-file":
                stats_file = v
            elif o == "--timeout":
                timeout = int(v)
            elif v != "imx8mp":
                usage("this runner is for --machine imx8mp")
        else:
            usage("unknown option %s" % o)
    if 0 in ins and not os.path.isfile(ins[0]):
        usage("no such input pcap: %s" % ins[0])

    work = tempfile.mkdtemp(prefix="vm-imx8mp-")
    env = dict(os.environ)
    env.setdefault("VM_CACHE", os.path.join(TOP, "build", "vm", "imx8mp"))
    env["VM_WORK"] = work
    try:
        subprocess.run(["bash", "-c", 'source "$1"; vm_prepare', "prep", MACHINE], env=env,
                       check=True)
    except subprocess.CalledProcessError:
        sys.stderr.write("vmrun: the guest could not be prepared\n")
        return 3
    base, sock = free_port_pair()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    env["VM_PORT_BASE"] = str(base)
    env.setdefault("VM_QEMU_TIMEOUT", str(timeout + 30))

    # Host files the options name go into the guest under /host.
    files, args = {}, []
    j = 0
    while j < len(fwd):
        a = fwd[j]
        name, eq, val = a.partition("=")
        if name in FILE_OPTS and eq:
            files[os.path.basename(val)] = val
            args.append("%s=/host/%s" % (name, os.path.basename(val)))
        elif a in FILE_OPTS and j + 1 < len(fwd):
            files[os.path.basename(fwd[j + 1])] = fwd[j + 1]
            args += [a, "/host/" + os.path.basename(fwd[j + 1])]
            j += 1
        else:
            args.append(a)
        j += 1
    eal = hook(env, "vm_eal").split()
    binpath = hook(env, "vm_guest_bin").strip()
    host_lines = []
    for n, path in files.items():
        with open(path, "rb") as f:
            host_lines.append("base64 -d > /host/%s <<'@@EOF'\n%s\n@@EOF" %
                              (n, base64.encodebytes(f.read()).decode().strip()))
    cmd = " ".join(shlex.quote(x) for x in [binpath] + eal + ["--"] + args +
                   ["--stats-file", "/tmp/stats.json"])
    script = os.path.join(work, "guest.sh")
    with open(script, "w") as f:
        f.write(hook(env, "vm_guest_setup"))
        f.write("mkdir -p /host\n" + "\n".join(host_lines) + "\n")
        f.write("""echo "@@VM SETUP-DONE"
%s >/tmp/fwd.log 2>&1 &
pid=$!
tail -f /tmp/fwd.log &
tpid=$!
while ! grep -q "forwarding on" /tmp/fwd.log; do
	kill -0 $pid 2>/dev/null || break
	sleep 0.2
done
if kill -0 $pid 2>/dev/null; then
	sleep 1
	echo "@@VM READY"
	while read -r line; do
		case "$line" in *"@@VM STOP"*) break ;; esac
	done
	kill -INT $pid
fi
wait $pid
st=$?
sleep 0.5
kill $tpid
echo "@@VM STATS-BEGIN"
[ -f /tmp/stats.json ] && base64 /tmp/stats.json
echo "@@VM STATS-END"
echo "@@VM EXIT $st"
""" % cmd)

    console = open(os.path.join(work, "console.log"), "w")
    qemu = subprocess.Popen(["bash", "-c", 'source "$1"; vm_qemu "$2"', "qemu", MACHINE, script],
                            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    frames_in = read_pcap(ins[0]) if 0 in ins else []
    captured = []
    state = {"ready": False, "exit": None, "stats": None, "injected": False}
    last_rx = [time.time()]

    def rx():
        sock.settimeout(0.2)
        while state["exit"] is None and qemu.poll() is None:
            try:
                fr = sock.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                return
            now = time.time()
            captured.append((now, fr))
            last_rx[0] = now

    def tx():
        # At VM_PPS, and never more than VM_WINDOW frames ahead of what came
        # back while output keeps coming (a guest vCPU starved by the host
        # would otherwise let the ENET ring and QEMU's socket overflow); after
        # 0.5 s without output (frames the forwarder drops) the pace alone.
        pps = float(os.environ.get("VM_PPS", "500"))
        window = int(os.environ.get("VM_WINDOW", "256"))
        t0 = time.time()
        for k, fr in enumerate(frames_in):
            delay = t0 + k / pps - time.time()
            if delay > 0:
                time.sleep(delay)
            while k - len(captured) >= window and time.time() - last_rx[0] < 0.5:
                time.sleep(0.005)
            sock.sendto(fr, ("127.0.0.1", base))
        last_rx[0] = max(last_rx[0], time.time())
        state["injected"] = True

    rx_t = threading.Thread(target=rx, daemon=True)
    rx_t.start()
    deadline = time.time() + timeout
    stats_lines, in_stats = [], False
    quiet = float(os.environ.get("VM_QUIET", "2"))

    def stopper():
        while time.time() < deadline and state["exit"] is None:
            if state["injected"] and time.time() - last_rx[0] >= quiet:
                qemu.stdin.write(b"@@VM STOP\n")
                qemu.stdin.flush()
                return
            time.sleep(0.1)

    for raw in qemu.stdout:
        line = raw.decode(errors="replace").rstrip("\r\n")
        console.write(line + "\n")
        console.flush()
        if os.environ.get("VM_VERBOSE"):
            sys.stderr.write(line + "\n")
        if line.startswith("@@VM READY") and not state["ready"]:
            state["ready"] = True
            last_rx[0] = time.time()
            threading.Thread(target=tx, daemon=True).start()
            threading.Thread(target=stopper, daemon=True).start()
        elif line.startswith("@@VM STATS-BEGIN"):
            in_stats = True
        elif line.startswith("@@VM STATS-END"):
            in_stats = False
        elif in_stats:
            stats_lines.append(line.strip())
        elif line.startswith("@@VM EXIT"):
            state["exit"] = int(line.split()[2])
        if time.time() > deadline:
            break
    if qemu.poll() is None:
        try:
            qemu.wait(timeout=20)
        except subprocess.TimeoutExpired:
            qemu.kill()
    console.close()
    if 0 in outs:
        write_pcap(outs[0], captured)
    if stats_file and stats_lines:
        with open(stats_file, "wb") as f:
            f.write(base64.b64decode("".join(stats_lines)))
    if state["exit"] is None:
        sys.stderr.write("vmrun: the guest did not finish (%s); console: %s/console.log\n" %
                         ("timeout" if time.time() > deadline else "QEMU exit %s" % qemu.returncode,
                          work))
        return 124 if time.time() > deadline or qemu.returncode == 124 else 3
    if state["exit"] != 0:
        sys.stderr.write("vmrun: forwarder exit %d; console: %s/console.log\n" %
                         (state["exit"], work))
    return state["exit"]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
