#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""The doc test catches what it is for: run test_docs.py on selftest.md, a
page of blocks each wrong in one way, and check that it fails on each of them
(and passes the right one). A doc test that passed everything would pass the
docs suite too; this one would not."""

import os
import subprocess
import sys

root, build = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))
p = subprocess.run([sys.executable, os.path.join(here, "test_docs.py"), root, build,
                    os.path.join(here, "selftest.md")],
                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
out = p.stdout
want = [  # (block's line in selftest.md, what the failure says)
    (5, "cannot run 'frobnicate --all'"),
    (12, "block differs from config/router.ini"),
    (19, "expected output line 'in0.pcap: 65 frames ...' not printed"),
    (26, "nowhere.pcap: not in the repository"),
    (32, "presents this block as `config/router.ini`"),
    (39, "(ini block): dpdk-forwarder -l 0,1"),
    (46, "a fence without a language holding commands"),
    (53, "needs a reason"),
]
if os.geteuid() == 0:  # root blocks run as root only (else they are skipped)
    want += [
        (72, "ip netns add selftest-ns (exit 1)"),
        (79, "expected output line 'two' not printed"),
        ("", "selftest.md: the page's root blocks leave behind (each section must clean up at its "
             "end): netns: selftest-ns"),
    ]
status = 0
if p.returncode != 1:
    print("not ok - test_docs.py exited %d on the fixture, want 1" % p.returncode)
    status = 1
for line, msg in want:
    at = ":%d" % line if line else ""
    hit = [l for l in out.split("\n") if l.startswith("not ok - ") and at in l and msg in l]
    print("%s - selftest.md:%s: %s" % ("ok" if hit else "not ok", line, msg))
    status |= 0 if hit else 1
good = [l for l in out.split("\n") if l.startswith("ok - ") and ":59:" in l and "--count" in l]
print("%s - selftest.md:59: the right block passes" % ("ok" if good else "not ok"))
status |= 0 if good else 1
if os.geteuid() == 0:
    good = [l for l in out.split("\n") if l.startswith("ok - ") and ":67:" in l and "ran as root" in l]
    print("%s - selftest.md:67: the first root block runs" % ("ok" if good else "not ok"))
    status |= 0 if good else 1
if status:
    print(out)
# a build without net_fec (Debian 13: no driver-SDK headers): a hardware block's
# forwarder, which runs on net_fec's model, is skipped, not run and failed
p = subprocess.run([sys.executable, os.path.join(here, "test_docs.py"), root, build,
                    os.path.join(here, "selftest-nofec.md")], env=dict(os.environ, FWD_FEC_PMD="0"),
                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
good = p.returncode == 0 and [l for l in p.stdout.split("\n") if l.startswith("ok - ") and
                              ":4:" in l and "SKIP net_fec is not built" in l]
print("%s - selftest-nofec.md:4: skipped where net_fec is not built" % ("ok" if good else "not ok"))
if not good:
    print(p.stdout)
    status = 1
sys.exit(status)
