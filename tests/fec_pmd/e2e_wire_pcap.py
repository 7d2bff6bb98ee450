#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""End to end over the model's pcap wire: an io forwarder between net_fec0
(model, thread mode, wire=pcap:[fec_in,fec_out]) and net_pcap0
(rx_pcap=pcap_in, tx_pcap=pcap_out).

    fec_in  --cable--> net_fec0 RX --io--> net_pcap0 TX --> pcap_out
    pcap_in --> net_pcap0 RX --io--> net_fec0 TX --cable--> fec_out

Every frame is checked both ways (the MAC pads short frames to 60 on the
cable), and the ports' counters must agree with the files.

    e2e_wire_pcap.py forwarder      dpdk-forwarder --fwd io ($DPDK_FORWARDER)
    e2e_wire_pcap.py testpmd        Debian's dpdk-testpmd -d $FEC_PMD_SO
                                    --forward-mode=io, counts compared with a
                                    dpdk-forwarder run on the same input
    e2e_wire_pcap.py scatter        dpdk-forwarder --mbuf-size 640: 512 bytes of
                                    frame a mbuf, so net_fec0 receives the longer
                                    frames as chains (scattered RX over several
                                    BDs) and sends the pcap port's chains (multi-
                                    segment TX); every frame must still be whole
"""
import atexit
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time

from scapy.all import IP, UDP, Dot1Q, Ether, Raw, rdpcap, wrpcap

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from fwdtest import own_prefix  # noqa: E402  (the runtime dir removed at exit)

FEC_MAC = "02:00:00:fe:c0:00"
N_WIRE = 400  # frames arriving on the FEC cable
N_PCAP = 300  # frames the pcap port feeds to the FEC's TX


def wire_frames():
    """Frames on the cable towards the MAC: >= 60 bytes (a cable carries no
    runts), to the port's own address or broadcast, some VLAN-tagged, up to
    1514. Nothing that needs promiscuous mode: the cable starts delivering at
    dev_start, before the application turns promiscuous mode on, and the MAC
    rightly drops foreign frames until then (the filters have their own test)."""
    out = []
    for i in range(N_WIRE):
        dst = [FEC_MAC, "ff:ff:ff:ff:ff:ff"][i % 2]
        pay = b"W%05d" % i + bytes([i % 251]) * (i * 13 % 1460)
        p = Ether(dst=dst, src="02:11:22:33:44:55")
        if i % 9 == 4:
            p = p / Dot1Q(vlan=i % 4000 + 1)
        p = p / IP(src="10.1.0.1", dst="10.1.0.2") / UDP(sport=i, dport=7) / Raw(pay)
        b = bytes(p)[:1514]
        out.append(b + bytes(max(0, 60 - len(b))))
    return out


def port_frames():
    """Frames the pcap port sends out through the FEC: some shorter than 60."""
    out = []
    for i in range(N_PCAP):
        pay = b"P%05d" % i + bytes([(i * 7) % 256]) * (i * 29 % 1450)
        p = Ether(dst="02:33:44:55:66:77", src="02:00:00:00:00:01")
        p = p / IP(src="10.2.0.1", dst="10.2.0.2") / UDP(sport=i, dport=9) / Raw(pay)
        b = bytes(p)
        if i % 10 == 3:
            b = b[:42]  # the MAC pads it
        out.append(b[:1514])
    return out


def fit_ring(frames, buf, extra):
    """The first frames whose BDs (of buf bytes, extra bytes more a frame: SHIFT16
    and FCS on RX) fit in 400 of a 512-BD ring: the model drops a frame that
    finds no empty BD, as a MAC would, and a busy host may not let the forwarder
    poll before the whole file is on the cable."""
    out, bds = [], 0
    for b in frames:
        bds += (len(b) + extra + buf - 1) // buf
        if bds > 400:
            break
        out.append(b)
    return out


def write_inputs(d, buf=None):
    wire, port = wire_frames(), port_frames()
    if buf is not None:
        wire, port = fit_ring(wire, buf, 6), fit_ring(port, buf, 0)
    paths = {n: os.path.join(d, n + ".pcap") for n in ("fec_in", "fec_out", "pcap_in", "pcap_out")}
    wrpcap(paths["fec_in"], [Ether(b) for b in wire])
    wrpcap(paths["pcap_in"], [Ether(b) for b in port])
    return paths, wire, port


def vdevs(paths):
    return ["--vdev", "net_fec0,backend=model,mode=thread,wire=pcap:[%s,%s]" %
            (paths["fec_in"], paths["fec_out"]),
            "--vdev", "net_pcap0,rx_pcap=%s,tx_pcap=%s" % (paths["pcap_in"], paths["pcap_out"])]


def check_files(paths, wire, port, who):
    fails = []
    got_port_out = [bytes(p) for p in rdpcap(paths["pcap_out"])]
    got_wire_out = [bytes(p) for p in rdpcap(paths["fec_out"])]
    want_wire_out = [b + bytes(max(0, 60 - len(b))) for b in port]
    if os.environ.get("E2E_DUMP"):
        print("pcap_out tags:", [b[b.find(b"W"):b.find(b"W") + 6] for b in got_port_out][:5],
              "...", len(got_port_out))
    if got_port_out != wire:
        same = sum(a == b for a, b in zip(got_port_out, wire))
        fails.append("%s: pcap_out has %d frames, %d equal to the %d on the FEC cable" %
                     (who, len(got_port_out), same, len(wire)))
    if got_wire_out != want_wire_out:
        same = sum(a == b for a, b in zip(got_wire_out, want_wire_out))
        fails.append("%s: fec_out has %d frames, %d equal to the %d sent" %
                     (who, len(got_wire_out), same, len(port)))
    return fails


# --mbuf-size of the scatter mode, and the lines the forwarder must print for it
SCATTER_MBUF = 640
SCATTER_LINES = ["port 0 (net_fec0): 1522-byte frames over 512-byte mbufs: as chains",
                 "port 1 (net_pcap0): 1518-byte frames over 512-byte mbufs: as chains"]


def run_forwarder(d, paths, app=(), want_lines=()):
    st = os.path.join(d, "st.json")
    cmd = [os.environ["DPDK_FORWARDER"], "-l", "0,1", "--no-huge", "-m", "256", "--no-pci",
           "--file-prefix", own_prefix("fec_wpcap")] + vdevs(paths) + \
          ["--", "--fwd", "io", "--duration", "2", "--stats-file", st] + list(app)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60,
                       check=False)
    out = r.stdout.decode(errors="replace")
    if r.returncode != 0:
        print(out)
        raise SystemExit("not ok 1 - forwarder exit %d" % r.returncode)
    for line in want_lines:
        if line not in out:
            print(out)
            raise SystemExit("not ok 1 - forwarder did not say: " + line)
    stats = json.load(open(st))
    ports = {p["name"]: p for p in stats["ports"]}
    fec, pc = ports["net_fec0"], ports["net_pcap0"]
    return {"fec_rx": fec["ipackets"], "fec_tx": fec["opackets"], "fec_ibytes": fec["ibytes"],
            "fec_obytes": fec["obytes"], "pcap_rx": pc["ipackets"], "pcap_tx": pc["opackets"],
            "errors": fec["imissed"] + fec["ierrors"] + fec["oerrors"],
            "leaked": stats["mbufs_leaked"]}


def parse_port_stats(text):
    """{port: [rx, missed, rx_bytes, rx_errors, tx, tx_errors, tx_bytes]} of the
    last "show port stats" block of each port in text."""
    per = {}
    for m in re.finditer(r"NIC statistics for port (\d+).*?RX-packets: +(\d+) +RX-missed: +(\d+)"
                         r" +RX-bytes: +(\d+).*?RX-errors: +(\d+).*?TX-packets: +(\d+) +"
                         r"TX-errors: +(\d+) +TX-bytes: +(\d+)", text, re.S):
        per[int(m.group(1))] = [int(x) for x in m.groups()[1:]]
    return per


def safe_dir(path):
    """EAL refuses a -d plugin in a directory any of whose ancestors is
    world-writable ("/tmp is world-writable and insecure"); CI may clone
    the project under /tmp."""
    path = os.path.abspath(path)
    while True:
        if os.stat(path).st_mode & stat.S_IWOTH:
            return False
        if path == "/":
            return True
        path = os.path.dirname(path)


def private_copy(so):
    """The plugin where EAL accepts it: its own folder if safe, else a copy in a
    fresh folder under the first safe candidate (removed at exit)."""
    if safe_dir(os.path.dirname(so)):
        return so
    for base in (os.path.expanduser("~"), "/run", "/var/lib"):
        if os.path.isdir(base) and os.access(base, os.W_OK) and safe_dir(base):
            d = tempfile.mkdtemp(prefix="fec-pmd-so-", dir=base)
            os.chmod(d, 0o755)
            atexit.register(shutil.rmtree, d, True)
            dst = os.path.join(d, os.path.basename(so))
            shutil.copy(so, dst)
            return dst
    raise SystemExit("not ok 1 - no directory EAL accepts for a -d plugin")


def run_testpmd(d, paths, want_fec_tx, want_pcap_tx):
    """Debian's testpmd with the PMD loaded as a plugin (-d), driven over stdin:
    start, poll the port counters until both directions are through (no fixed
    sleep: the machine may be busy), stop, read the counters, quit."""
    so = private_copy(os.environ["FEC_PMD_SO"])
    cmd = ["stdbuf", "-oL", "dpdk-testpmd", "-l", "0,1", "--no-huge", "-m", "512", "--no-pci",
           "-d", so, "--file-prefix", own_prefix("fec_tpmd")] + vdevs(paths) + \
          ["--", "-i", "--forward-mode=io", "--total-num-mbufs=16384", "--nb-cores=1",
           "--no-flush-rx"]
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT)
    chunks = []
    reader = threading.Thread(target=lambda: chunks.extend(iter(p.stdout.readline, b"")))
    reader.start()
    try:
        p.stdin.write(b"start\n")
        p.stdin.flush()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            time.sleep(0.3)
            p.stdin.write(b"show port stats all\n")
            p.stdin.flush()
            time.sleep(0.1)
            per = parse_port_stats(b"".join(chunks).decode(errors="replace"))
            if 0 in per and 1 in per and per[0][4] >= want_fec_tx and per[1][4] >= want_pcap_tx:
                break
        p.stdin.write(b"stop\nshow port stats all\nshow port info 0\nquit\n")
        p.stdin.flush()
        p.stdin.close()
        p.wait(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        reader.join()
    text = b"".join(chunks).decode(errors="replace")
    if os.environ.get("E2E_DUMP"):
        print(text)
    if p.returncode != 0 or "NIC statistics for port 1" not in text:
        print(text)
        raise SystemExit("not ok 1 - testpmd exit %s" % p.returncode)
    per = parse_port_stats(text)
    if "Driver name: net_fec" not in text or 0 not in per or 1 not in per:
        print(text)
        raise SystemExit("not ok 1 - testpmd output not understood")
    f, c = per[0], per[1]
    return {"fec_rx": f[0], "fec_tx": f[4], "fec_ibytes": f[2], "fec_obytes": f[6],
            "pcap_rx": c[0], "pcap_tx": c[4], "errors": f[1] + f[3] + f[5], "leaked": 0}


def expect(counts, wire, port, who):
    want = {"fec_rx": len(wire), "fec_tx": len(port), "pcap_rx": len(port),
            "pcap_tx": len(wire), "fec_ibytes": sum(map(len, wire)),
            "fec_obytes": sum(max(60, len(b)) for b in port), "errors": 0, "leaked": 0}
    return ["%s: %s %d, want %d" % (who, k, counts[k], v) for k, v in want.items()
            if counts[k] != v]


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "forwarder"
    print("1..1")
    with tempfile.TemporaryDirectory(prefix="fec_wpcap_") as d:
        room = SCATTER_MBUF - 128
        paths, wire, port = write_inputs(d, room if mode == "scatter" else None)
        if mode == "scatter":
            longer = (sum(len(b) > room for b in wire), sum(len(b) > room for b in port))
            if min(longer) < 100:
                raise SystemExit("not ok 1 - only %s frames longer than %d" % (longer, room))
            fwd = run_forwarder(d, paths, ["--mbuf-size", str(SCATTER_MBUF)], SCATTER_LINES)
        else:
            fwd = run_forwarder(d, paths)
        fails = check_files(paths, wire, port, "forwarder") + expect(fwd, wire, port, "forwarder")
        if mode == "testpmd" and not fails:
            for n in ("fec_out", "pcap_out"):
                os.unlink(paths[n])
            tp = run_testpmd(d, paths, len(port), len(wire))
            fails += check_files(paths, wire, port, "testpmd")
            fails += ["testpmd %s %d != forwarder %d" % (k, tp[k], fwd[k])
                      for k in fwd if tp[k] != fwd[k]]
        if fails:
            print("not ok 1 - " + "; ".join(fails))
            return 1
        print("ok 1 - %s: %d frames cable->pcap and %d pcap->cable, all intact, counters %s%s" %
              (mode, len(wire), len(port), fwd,
               " (testpmd's the same)" if mode == "testpmd" else ""))
        return 0


if __name__ == "__main__":
    sys.exit(main())
