#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""From a callgrind output file: the instructions (Ir) collected, and how many
times FUNC was called while collecting.

scripts/bench-route.sh counts packets with it: net_pcap without a tx_pcap
frees every transmitted mbuf with one call of rte_pktmbuf_free (an
out-of-line function in the static build), so its call count is the number
of packets both apps forwarded, exactly, whichever way an app stops.

    cgcount.py CALLGRIND_OUT FUNC     prints "<Ir> <calls>"
"""

import re
import sys


def main():
    path, func = sys.argv[1], sys.argv[2]
    names = {}
    total = None
    calls = 0
    target = None
    name_re = re.compile(r"^c?fn=\((\d+)\)(?: (.*))?$")
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith(("fn=", "cfn=")):
                m = name_re.match(line.rstrip("\n"))
                if m:
                    if m.group(2) is not None:
                        names[m.group(1)] = m.group(2)
                    if line.startswith("cfn="):
                        target = names.get(m.group(1))
                continue
            if line.startswith("calls="):
                if target == func:
                    calls += int(line[6:].split()[0])
                continue
            if line.startswith(("summary:", "totals:")):
                total = int(line.split()[1])
    if total is None:
        print("cgcount: no totals in %s" % path, file=sys.stderr)
        return 1
    print("%d %d" % (total, calls))
    return 0


if __name__ == "__main__":
    sys.exit(main())
