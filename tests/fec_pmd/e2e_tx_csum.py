#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""TX checksum insertion end to end: Debian's dpdk-testpmd (net_fec loaded
with -d $FEC_PMD_SO) in its csum forwarding mode with `csum set ip|udp|tcp hw`
on net_fec0, fed by net_pcap0:

    pcap_in --> net_pcap0 RX --csum fwd--> tx_prepare, net_fec0 TX --cable--> fec_out

The input frames carry wrong (non-zero) IPv4 and TCP/UDP checksums; testpmd
asks the port to fill them (RTE_MBUF_F_TX_IP_CKSUM, _UDP_CKSUM, _TCP_CKSUM)
and calls rte_eth_tx_prepare, the model's MAC inserts them. Every frame on
the cable must equal the input with testpmd's MAC addresses and the
checksums scapy computes (so a UDP sum of 0 is 0xffff and a TCP one 0x0000),
padded to 60. dpdk-forwarder asks for no TX offload, hence testpmd.
"""
import os
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_wire_pcap import own_prefix, parse_port_stats, private_copy  # noqa: E402

from scapy.all import (ARP, IP, TCP, UDP, Dot1Q, Ether, ICMPv6EchoRequest,  # noqa: E402
                       IPv6, IPOption_NOP, Raw, rdpcap, wrpcap)

FEC_MAC = "02:00:00:fe:c0:00"
N = 240


def fold_to_zero(p, l4):
    """Make the L4 sum of p fold to 0 (checksum 0: UDP must then send 0xffff):
    the last payload word (at an even offset) takes scapy's checksum of the
    datagram with that word 0."""
    raw = bytes(p[Raw].load)[:-2]
    p[Raw].load = raw + b"\0\0"
    c = Ether(bytes(p))[l4].chksum
    p[Raw].load = raw + struct.pack("!H", c if c != 0xFFFF else 0)
    return p


def frames():
    out = []
    for i in range(N):
        pay = b"C%05d" % i + bytes([i % 251]) * (i * 11 % 1400)
        if len(pay) % 2:
            pay += b"x"
        eth = Ether(dst="02:33:44:55:66:77", src="02:00:00:00:00:01")
        if i % 8 == 3:
            eth = eth / Dot1Q(vlan=100 + i)
        k = i % 6
        ip = IP(src="10.3.0.1", dst="10.3.%d.2" % (i % 200), id=i, chksum=0x1234 + i)
        if k == 0:
            p = eth / ip / UDP(sport=i, dport=53, chksum=0xBEEF) / Raw(pay)
        elif k == 1:
            p = eth / ip / TCP(sport=i, dport=80, seq=i, chksum=0xBEEF) / Raw(pay)
        elif k == 2:  # IP options
            ip.options = [IPOption_NOP()] * 8
            p = eth / ip / TCP(sport=i, dport=443, chksum=0xBEEF) / Raw(pay[:200])
        elif k == 3:  # short: the MAC pads it to 60
            p = eth / ip / UDP(sport=i, dport=9, chksum=0xBEEF) / Raw(pay[:2])
        elif k == 4:  # sums folding to 0
            l4 = UDP if i % 12 == 4 else TCP
            p = fold_to_zero(eth / ip / l4(sport=i, dport=7) / Raw(pay[:64] or b"zz"), l4)
            p[l4].chksum = 0xBEEF
        elif i % 12 == 5:  # IPv6 without L4 checksum request (ICMPv6): as given
            p = eth / IPv6(src="2001:db8::1", dst="2001:db8::2") / ICMPv6EchoRequest(id=i)
        else:  # not IP: as given
            p = eth / ARP(psrc="10.3.0.1", pdst="10.3.0.%d" % (i % 250))
        out.append(bytes(p))
    return out


def expected(frame, dst, src):
    """What the cable must carry: testpmd's addresses, right checksums, 60 min."""
    p = Ether(frame)
    p.dst, p.src = dst, src
    if IP in p:
        del p[IP].chksum
        for l4 in (UDP, TCP):
            if l4 in p:
                del p[l4].chksum
    b = bytes(p)
    return b + bytes(max(0, 60 - len(b)))


def run_testpmd(d, pcap_in, fec_out, n):
    so = private_copy(os.environ["FEC_PMD_SO"])
    cmd = ["stdbuf", "-oL", "dpdk-testpmd", "-l", "0,1", "--no-huge", "-m", "512", "--no-pci",
           "-d", so, "--file-prefix", own_prefix("fec_txcsum"),
           "--vdev", "net_fec0,backend=model,mode=thread,wire=pcap:[,%s]" % fec_out,
           "--vdev", "net_pcap0,rx_pcap=%s,tx_pcap=%s" % (pcap_in, os.path.join(d, "o.pcap")),
           "--", "-i", "--forward-mode=csum", "--total-num-mbufs=16384", "--nb-cores=1",
           "--no-flush-rx"]
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT)
    chunks = []
    reader = threading.Thread(target=lambda: chunks.extend(iter(p.stdout.readline, b"")))
    reader.start()
    try:
        p.stdin.write(b"port stop 0\ncsum set ip hw 0\ncsum set udp hw 0\ncsum set tcp hw 0\n"
                      b"port start 0\nstart\n")
        p.stdin.flush()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            time.sleep(0.3)
            p.stdin.write(b"show port stats 0\n")
            p.stdin.flush()
            time.sleep(0.1)
            per = parse_port_stats(b"".join(chunks).decode(errors="replace"))
            if 0 in per and per[0][4] >= n:
                break
        time.sleep(0.3)  # the model's thread writes the last frames to the file
        p.stdin.write(b"stop\nshow port stats all\nquit\n")
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
    if p.returncode != 0 or "NIC statistics for port 0" not in text:
        print(text)
        raise SystemExit("not ok 1 - testpmd exit %s" % p.returncode)
    return text


def main():
    print("1..1")
    with tempfile.TemporaryDirectory(prefix="fec_txcsum_") as d:
        pcap_in, fec_out = os.path.join(d, "in.pcap"), os.path.join(d, "fec_out.pcap")
        ins = frames()
        wrpcap(pcap_in, [Ether(b) for b in ins])
        text = run_testpmd(d, pcap_in, fec_out, len(ins))
        fails = []
        if "TCP checksum offload is hw" not in text or "not supported by port" in text:
            fails.append("csum set ... hw refused by testpmd")
        if "Preparing packet burst to transmit failed" in text:
            fails.append("tx_prepare refused frames")
        got = [bytes(p) for p in rdpcap(fec_out)]
        if len(got) != len(ins):
            fails.append("%d frames on the cable, want %d" % (len(got), len(ins)))
        bad = []
        ip_ok = l4_ok = 0
        for i, (a, b) in enumerate(zip(ins, got)):
            e = expected(a, Ether(b).dst, Ether(b).src)
            if e != b:
                bad.append(i)
                continue
            q = Ether(b)
            ip_ok += IP in q
            l4_ok += UDP in q or TCP in q
        if bad:
            fails.append("%d frames wrong, first #%d: got %s want %s" % (
                len(bad), bad[0], got[bad[0]].hex(),
                expected(ins[bad[0]], Ether(got[bad[0]]).dst, Ether(got[bad[0]]).src).hex()))
        zero_udp = sum(1 for b in got if UDP in Ether(b) and Ether(b)[UDP].chksum == 0xFFFF)
        if zero_udp == 0:
            fails.append("no UDP datagram with the 0 -> 0xffff checksum on the cable")
        if fails:
            print("not ok 1 - " + "; ".join(fails))
            return 1
        print("ok 1 - %d frames through testpmd csum hw and net_fec: %d IPv4 header and "
              "%d TCP/UDP checksums inserted right (%d UDP sums of 0 as 0xffff), the rest "
              "as given" % (len(got), ip_ok, l4_ok, zero_udp))
        return 0


if __name__ == "__main__":
    sys.exit(main())
