#!/usr/bin/env python3
"""Smoke run of bench/route/churn_bench.c, so that it cannot rot: a 100-route table made by
mkfulltable.py, 0.2 s a phase; it must exit 0 and print its three phases and its end checks.

churn_smoke.py CHURN_BENCH MKFULLTABLE_PY
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "e2e"))
import fwdtest  # noqa: E402  (own_prefix: its runtime dir goes at exit, issue 37.16)


def main():
    bench, mktable = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([sys.executable, mktable, d, "100", "16"], check=True)
        p = subprocess.run(
            [bench, "--no-huge", "-m", "256", "--no-pci", "-l", "0,1",
             "--file-prefix", fwdtest.own_prefix("churn_smoke"), "--log-level", "*:error",
             "--", "--seconds", "0.2", d + "/full.routes", d + "/full.neigh"],
            capture_output=True, text=True, timeout=25)
    out = p.stdout
    print(out, end="")
    print(p.stderr, end="", file=sys.stderr)
    ok = p.returncode == 0
    ok &= re.search(r"^# table: 1\d\d routes, 16 neighbours", out, re.M) is not None
    for name in (r"alone", r"churn 100000/s", r"churn max"):
        # updates/s adds dels replaces Mpps ratio cpu% Mpps/cpu ratio m-cpu% upd/cpu-s
        m = re.search(r"^%s +(\d+) +(\d+) +(\d+) +(\d+) +([\d.]+)( +[\d.]+){6}$" % name, out, re.M)
        if m is None:
            print("not ok: no line for phase %r" % name)
            ok = False
            continue
        upd, mpps = int(m.group(1)), float(m.group(5))
        if mpps <= 0 or (name == "alone") != (upd == 0):
            print("not ok: phase %r: %d updates/s, %.2f Mpps" % (name, upd, mpps))
            ok = False
    ok &= len(re.findall(r"^# end: .*: ok(; mbufs \d+ of \d+ back: ok)?$", out, re.M)) == 2
    print("ok" if ok else "not ok: exit status %d" % p.returncode)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
