#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""Set-up waits for another apt-get's lock instead of failing (issue 37.2:
vm-igb-smoke failed because another apt-get held the dpkg lock).

  test_apt_lock.py SRCDIR

1. Every apt-get the project's scripts run (scripts/, bench/, tests/) goes
   through scripts/apt-get-wait.sh; only read-only queries (--print-uris) and
   apt-gets on a private state with Debug::NoLocking are left bare.
2. scripts/apt-get-wait.sh, with a stub apt-get that fails on a held lock
   twice, waits and succeeds; a failure that is not a lock returns at once
   with apt-get's status; the dpkg lock timeout is passed to apt-get.
"""
import os
import re
import stat
import subprocess
import sys
import tempfile
import time

src = sys.argv[1]
results = []

# apt-get as a command (not in a comment, a message or a `for tool in` list)
CALL = re.compile(r'(^|[\s;(&|])apt-get\s+(-o\s+\S+\s+|-\S+\s+|"\$\{\w+\[@\]\}"\s+)*'
                  r'(update|install|download|source|upgrade|dist-upgrade|remove|purge)\b')


def check(name, ok, why=""):
    results.append((name, ok, why))


def scripts():
    for top in ("scripts", "bench", "tests"):
        for d, _, files in os.walk(os.path.join(src, top)):
            for f in files:
                if f.endswith((".sh", ".py")) or f in ("init",):
                    yield os.path.join(d, f)


def bare_calls():
    bad = []
    for path in scripts():
        rel = os.path.relpath(path, src)
        if rel in ("scripts/apt-get-wait.sh", "tests/lint/test_apt_lock.py"):
            continue
        with open(path, errors="replace") as f:
            text = f.read()
        nolock = "Debug::NoLocking=1" in text
        for n, line in enumerate(text.splitlines(), 1):
            code = line.split("#", 1)[0] if not line.lstrip().startswith("#!") else ""
            if not CALL.search(code) or re.search(r'\becho\b|\bprint\(|sys\.exit\(|usage', code):
                continue
            if "--print-uris" in code or (nolock and '"${APT[@]}"' in code):
                continue
            bad.append("%s:%d: %s" % (rel, n, line.strip()))
    return bad


bad = bare_calls()
check("every apt-get of the scripts waits for the lock (scripts/apt-get-wait.sh)", not bad,
      "bare apt-get:\n" + "\n".join(bad))

STUB = """#!/bin/sh
echo "$*" >>"%(d)s/args"
n=$(cat "%(d)s/n" 2>/dev/null || echo 0)
echo $((n + 1)) >"%(d)s/n"
case "$*" in *notalock*) echo "E: Unable to locate package notalock" >&2; exit 100 ;; esac
if [ "$n" -lt 2 ]; then
	echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 1 (apt-get)" >&2
	exit 100
fi
echo installed
"""

with tempfile.TemporaryDirectory(prefix="apt-lock-") as d:
    stub = os.path.join(d, "apt-get")
    with open(stub, "w") as f:
        f.write(STUB % {"d": d})
    os.chmod(stub, os.stat(stub).st_mode | stat.S_IXUSR)
    env = dict(os.environ, PATH=d + ":" + os.environ["PATH"], APT_LOCK_POLL="0.2",
               APT_LOCK_WAIT="60")
    wrap = os.path.join(src, "scripts", "apt-get-wait.sh")
    r = subprocess.run(["bash", wrap, "update", "-qq"], env=env, capture_output=True, text=True)
    with open(os.path.join(d, "args")) as f:
        args = f.read().splitlines()
    check("a held lock is waited for, then apt-get succeeds",
          r.returncode == 0 and "installed" in r.stdout and len(args) == 3,
          "status %d, %d calls, stderr %r" % (r.returncode, len(args), r.stderr))
    check("the wait is said once", r.stderr.count("waiting") == 1, repr(r.stderr))
    check("apt-get is given DPkg::Lock::Timeout",
          all("DPkg::Lock::Timeout=60" in a for a in args), repr(args))
    os.unlink(os.path.join(d, "n"))
    t0 = time.monotonic()
    r = subprocess.run(["bash", wrap, "install", "notalock"], env=env, capture_output=True,
                       text=True)
    check("another failure returns at once with apt-get's status and message",
          r.returncode == 100 and "Unable to locate" in r.stderr and time.monotonic() - t0 < 5,
          "status %d, stderr %r" % (r.returncode, r.stderr))
    os.unlink(os.path.join(d, "n"))
    r = subprocess.run(["bash", wrap, "update"], env=dict(env, APT_LOCK_WAIT="0"),
                       capture_output=True, text=True)
    check("a lock held past APT_LOCK_WAIT fails with apt-get's error",
          r.returncode == 100 and "Could not get lock" in r.stderr, repr(r.stderr))

print("1..%d" % len(results))
for i, (name, ok, why) in enumerate(results, 1):
    print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
    if not ok:
        for line in why.splitlines():
            print("# " + line)
sys.exit(0 if all(ok for _, ok, _ in results) else 1)
