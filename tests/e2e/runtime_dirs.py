#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""No test leaves EAL's runtime dir behind (issue 37.16: 363 dirs under
/var/run/dpdk after one test run).

    runtime_dirs.py BUILDDIR TEST[?]...   (TEST? is left out when the build has none)

Runs each named test of BUILDDIR (a slice of the suite's kinds of DPDK
process: the forwarder through tests/e2e/fwdtest.py's Case and on the
embedded default, a failed start-up, the C unit harness, the FEC PMD's C
cases and its Python e2e with testpmd, the shell, pktgen, fragpool, route)
by its command from `meson introspect --tests`, one after the other, and
checks that <runtime>/dpdk holds nothing when it is done. Each runs in a
mount namespace of its own with an empty tmpfs on /run/dpdk, so the
machine's other DPDK processes (other test runs, other users) neither show
up nor see a thing. Needs root (unshare, mount); skips (77) without. A test of
the slice that fails is reported as such: its leftovers would prove nothing.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile


RUN = "/run/dpdk"  # /var/run/dpdk: /var/run is /run

# in the test's own mount namespace: a private, empty RUN; the test; then what is left
WRAP = """set -e
mount -t tmpfs fwd-rundirs "$RUN"
set +e
"$@"
rc=$?
ls -A "$RUN" >"$LEFT"
exit $rc
"""


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    build, names = argv[1], argv[2:]
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        print("SKIP: needs root and unshare (a mount namespace per test)")
        return 77
    r = subprocess.run(["meson", "introspect", build, "--tests"], capture_output=True, text=True)
    if r.returncode != 0:
        print("FAIL: meson introspect: %s" % r.stderr)
        return 1
    tests = {t["name"]: t for t in json.loads(r.stdout)}
    # NAME? is a test some builds do not have (testpmd's: not with sanitizers)
    names = [n.rstrip("?") for n in names if not n.endswith("?") or n.rstrip("?") in tests]
    missing = [n for n in names if n not in tests]
    if missing:
        print("FAIL: no such test: %s" % ", ".join(missing))
        return 1
    os.makedirs(RUN, exist_ok=True)
    failed, left = [], {}
    with tempfile.TemporaryDirectory(prefix="fwd-rundirs-") as tmp:
        for n in names:
            t = tests[n]
            lf = os.path.join(tmp, n + ".left")
            env = dict(os.environ, **(t.get("env") or {}), RUN=RUN, LEFT=lf)
            cmd = ["unshare", "--mount", "--propagation", "private", "sh", "-c", WRAP,
                   "rundirs"] + t["cmd"]
            try:
                p = subprocess.run(cmd, env=env, cwd=t.get("workdir") or build,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                   errors="replace",
                                   timeout=max(t.get("timeout") or 60, 60) * 3)
                rc, out = p.returncode, p.stdout
            except subprocess.TimeoutExpired as e:
                rc, out = "timeout", str(e.output)
            new = open(lf).read().split() if os.path.exists(lf) else None
            print("%s: exit %s, %s" % (n, rc, "left " + (", ".join(new) or "nothing")
                                       if new is not None else "no listing"))
            if rc not in (0, 77) or new is None:
                failed.append(n)
                print(out[-2000:])
            elif new:
                left[n] = new
    if failed:
        print("FAIL: tests of the slice failed: %s" % ", ".join(failed))
        return 1
    if left:
        print("FAIL: runtime dirs left under %s: %r" % (RUN, left))
        return 1
    print("ok: %d tests, none left a runtime dir" % len(names))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
