#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""Packet counters of a running DPDK app, read from its EAL telemetry socket
(DPDK's own /ethdev/stats endpoint, which l3fwd and dpdk-forwarder both
have), so both apps are measured the same way.

    tstat.py PREFIX NPORTS [TIMEOUT]
        prints "<monotonic seconds> <sum of opackets> <sum of ipackets>";
        waits up to TIMEOUT seconds (default 0) for the socket to appear and
        for the ports to answer (DPDK 24.11's socket is up before its ports:
        /ethdev/stats of a port not yet probed answers null).
"""

import json
import os
import socket
import sys
import time


def main():
    prefix, nports = sys.argv[1], int(sys.argv[2])
    timeout = float(sys.argv[3]) if len(sys.argv) > 3 else 0
    base = "/var/run" if os.geteuid() == 0 else os.environ.get("XDG_RUNTIME_DIR", "/tmp")
    path = os.path.join(base, "dpdk", prefix, "dpdk_telemetry.v2")
    deadline = time.monotonic() + timeout
    while True:
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            s.connect(path)
            break
        except OSError:
            s.close()
            if time.monotonic() >= deadline:
                print("tstat: no telemetry socket %s" % path, file=sys.stderr)
                return 1
            time.sleep(0.1)
    json.loads(s.recv(4096))
    opk = ipk = 0
    t = None
    for p in range(nports):
        while True:
            s.send(("/ethdev/stats,%d" % p).encode())
            st = json.loads(s.recv(65536))["/ethdev/stats"]
            if st is not None:
                break
            if time.monotonic() >= deadline:
                print("tstat: port %d has no /ethdev/stats" % p, file=sys.stderr)
                return 1
            time.sleep(0.1)
        if t is None:
            t = time.monotonic()
        opk += st["opackets"]
        ipk += st["ipackets"]
    s.close()
    print("%.6f %d %d" % (t, opk, ipk))
    return 0


if __name__ == "__main__":
    sys.exit(main())
