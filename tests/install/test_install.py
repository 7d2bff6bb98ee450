#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""`meson install --destdir TMP` installs what the user guide says it does.

  test_install.py BUILDDIR SRCDIR

The binary (bin/), the configs (share/dpdk-forwarder/), the docs
(share/doc/dpdk-forwarder/) and the man page (share/man/man1/), which
`man -l` renders without a warning and which names every option --help does.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

build, src = sys.argv[1], sys.argv[2]
results = []


def check(name, ok, why=""):
    results.append((name, ok, why))


def find(root, tail):
    """The installed file whose path ends in TAIL, or None (the prefix varies)."""
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            if p.endswith(tail):
                return p
    return None


with tempfile.TemporaryDirectory(prefix="fwd-install-") as dest:
    r = subprocess.run(["meson", "install", "-C", build, "--no-rebuild", "--quiet",
                        "--destdir", dest], capture_output=True, text=True)
    check("meson install succeeds", r.returncode == 0, r.stdout + r.stderr)
    binary = find(dest, "/bin/dpdk-forwarder")
    check("bin/dpdk-forwarder", binary is not None and os.access(binary, os.X_OK))
    for f in ["example.ini", "router.ini"]:
        p = find(dest, "/share/dpdk-forwarder/" + f)
        same = p is not None and open(p).read() == open(os.path.join(src, "config", f)).read()
        check("share/dpdk-forwarder/" + f, same)
    for f in ["README.md", "user-guide.md", "shell.md", "pktgen.md", "architecture.md"]:
        check("share/doc/dpdk-forwarder/" + f, find(dest, "/share/doc/dpdk-forwarder/" + f))
    man = find(dest, "/share/man/man1/dpdk-forwarder.1")
    check("share/man/man1/dpdk-forwarder.1", man is not None)
    if man is not None and shutil.which("man"):
        env = dict(os.environ, MANWIDTH="80", MAN_KEEP_FORMATTING="0", LC_ALL="C.UTF-8")
        r = subprocess.run(["man", "--warnings", "-l", man], capture_output=True, text=True,
                           env=env)
        text = re.sub(r".\x08", "", r.stdout)
        check("man -l renders it", r.returncode == 0 and "NAME" in text and "OPTIONS" in text,
              r.stderr)
        check("man -l gives no warning", r.stderr.strip() == "", r.stderr)
        usage = subprocess.run([binary or os.path.join(build, "app", "dpdk-forwarder"), "--",
                                "--help"], capture_output=True, text=True).stdout
        usage = usage[usage.find("\nOptions"):usage.find("\nOther tools")]
        opts = sorted(set(re.findall(r"^  (?:-\w, )?(--[a-z-]+)", usage, re.M)))
        missing = [o for o in opts if o not in text]
        check("the man page names every option of --help (%d)" % len(opts),
              len(opts) > 20 and not missing, "missing: %s" % missing)
        check("the man page shows defaults", "(1-512; default 32)" in re.sub(r"\s+", " ", text))
    else:
        check("man is installed (scripts/setup.sh installs man-db)", False)

print("1..%d" % len(results))
for i, (name, ok, why) in enumerate(results, 1):
    print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
    if not ok and why:
        for line in str(why).splitlines()[:20]:
            print("#   " + line)
sys.exit(0 if all(ok for _, ok, _ in results) else 1)
