#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""The net_fec test binaries' case tables against meson's registration, and
their refusal of a case they do not have (fec_run_cases(), fec_cases.h).

For each BINARY=CASE,CASE,... (the cases meson registers for it): run without
an argument and with an unknown case name, each must exit 2 before EAL starts
with a "Bail out!" line that lists the binary's cases, and that list must be
the registered one (a case in a table but not in meson.build never runs).

    check_cases.py BINARY=CASE,CASE,... ...
"""

import os
import subprocess
import sys

UNKNOWN = "no_such_case"


def run(binary, args):
    """The exit status and the "Bail out!" lines of BINARY ARGS."""
    p = subprocess.run([binary] + args, capture_output=True, text=True, timeout=30)
    return p.returncode, [l for l in p.stdout.splitlines() if l.startswith("Bail out!")]


def listed(line):
    """The case names after "the cases:" in a Bail out! line."""
    return line.split("the cases:", 1)[1].split() if "the cases:" in line else []


def check_binary(binary, registered):
    """Failures (strings) for one binary and the cases meson registers for it."""
    name = os.path.basename(binary)
    bad = []
    for args, want in (([], "usage: "), ([UNKNOWN], "unknown case " + UNKNOWN)):
        rc, bail = run(binary, args)
        what = "%s %s" % (name, " ".join(args) or "(no argument)")
        if rc != 2:
            bad.append("%s: exit %d, want 2" % (what, rc))
        if len(bail) != 1 or want not in bail[0]:
            bad.append("%s: want one Bail out! line saying '%s', got %r" % (what, want, bail))
            continue
        cases = listed(bail[0])
        dups = sorted({c for c in cases if cases.count(c) > 1})
        if dups:
            bad.append("%s: cases listed twice: %s" % (what, " ".join(dups)))
        only_table = sorted(set(cases) - set(registered))
        only_meson = sorted(set(registered) - set(cases))
        if only_table:
            bad.append("%s: in the table, not registered in meson.build: %s" %
                       (what, " ".join(only_table)))
        if only_meson:
            bad.append("%s: registered in meson.build, not in the table: %s" %
                       (what, " ".join(only_meson)))
    return bad


def main(argv):
    if not argv or any("=" not in a for a in argv):
        print("usage: check_cases.py BINARY=CASE,CASE,... ...", file=sys.stderr)
        return 2
    failed = 0
    print("1..%d" % len(argv))
    for i, arg in enumerate(argv, 1):
        binary, names = arg.split("=", 1)
        registered = [n for n in names.split(",") if n]
        bad = check_binary(binary, registered)
        for b in bad:
            print("# " + b)
        print("%s %d - %s: its table is the %d cases registered; no case or an unknown one refused" %
              ("not ok" if bad else "ok", i, os.path.basename(binary), len(registered)))
        failed += bool(bad)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
