#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""net_fec's split from its model holds (issue 38): the PMD's static library
and its plugin link neither the model nor libpcap, the model's plugin does,
and no file of the PMD or its model is over 1000 lines.

    check_layout.py SRCDIR PMD_LIB PMD_SO MODEL_SO
"""

import os
import subprocess
import sys

MAX_LINES = 1000


def undefined(lib):
    """The undefined symbols of LIB's objects (nm -u)."""
    out = subprocess.run(["nm", "-u", lib], capture_output=True, text=True, check=True).stdout
    return {l.split()[-1] for l in out.splitlines() if l.strip() and not l.endswith(":")}


def defined(lib):
    """The global symbols LIB's objects define."""
    out = subprocess.run(["nm", "-g", "--defined-only", lib], capture_output=True, text=True,
                         check=True).stdout
    return {l.split()[-1] for l in out.splitlines() if len(l.split()) == 3}


def needed(so):
    """The DT_NEEDED libraries of SO."""
    out = subprocess.run(["readelf", "-d", so], capture_output=True, text=True, check=True).stdout
    return [l.split("[")[1].rstrip("]") for l in out.splitlines() if "(NEEDED)" in l]


def main():
    src, pmd_lib, pmd_so, model_so = sys.argv[1:5]
    bad = []
    und, dfn = undefined(pmd_lib), defined(pmd_lib)
    for name in sorted(und | dfn):
        if name.startswith(("pcap_", "fec_model_")):
            bad.append("%s: %s %s" % (os.path.basename(pmd_lib),
                                      "needs" if name in und else "defines", name))
    if any("libpcap" in n for n in needed(pmd_so)):
        bad.append("%s links libpcap" % os.path.basename(pmd_so))
    if not any("libpcap" in n for n in needed(model_so)):
        bad.append("%s does not link libpcap (the check looks at the wrong file?)"
                   % os.path.basename(model_so))
    top = os.path.join(src, "drivers", "net", "fec_pmd")
    files = 0
    for d, _, names in os.walk(top):
        for n in names:
            if n.endswith((".c", ".h")):
                files += 1
                with open(os.path.join(d, n), encoding="utf-8") as f:
                    lines = sum(1 for _ in f)
                if lines > MAX_LINES:
                    bad.append("%s: %d lines (at most %d)" % (os.path.relpath(os.path.join(d, n), src),
                                                             lines, MAX_LINES))
    for b in bad:
        print("FAIL: " + b)
    print("%s: %d symbols, %d files looked at, %d problems" % (sys.argv[0], len(und | dfn), files,
                                                              len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
