#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""The long set-up steps say what they do and about how long it takes, and
do not flood a log.

  test_progress.py SRCDIR

scripts/build.sh runs in a copy of itself with stub ninja and meson (and a
stub of the SDK-header step), as from CI (stdout a pipe): it must announce the
step with its duration and pass --quiet, so ninja's line per file is not
printed. scripts/test.sh must announce each build and test run with an
"about" estimate before it starts.
"""
import os
import re
import stat
import subprocess
import sys
import tempfile

src = sys.argv[1]
results = []


def check(name, ok, why=""):
    results.append((name, ok, why))


def write_exe(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)


NINJA = """#!/bin/sh
# a build of 300 files: a line each unless --quiet
for a in "$@"; do [ "$a" = --quiet ] && exit 0; done
i=0; while [ $i -lt 300 ]; do i=$((i+1)); echo "[$i/300] Compiling C object f$i.o"; done
"""
MESON = """#!/bin/sh
[ "$1" = setup ] && mkdir -p "$2" && touch "$2/build.ninja"
exit 0
"""

with tempfile.TemporaryDirectory(prefix="fwd-progress-") as tmp:
    os.makedirs(os.path.join(tmp, "repo", "scripts"))
    os.makedirs(os.path.join(tmp, "bin"))
    with open(os.path.join(src, "scripts", "build.sh")) as f:
        write_exe(os.path.join(tmp, "repo", "scripts", "build.sh"), f.read())
    write_exe(os.path.join(tmp, "repo", "scripts", "dpdk-sdk-headers.sh"), "#!/bin/sh\n")
    write_exe(os.path.join(tmp, "bin", "ninja"), NINJA)
    write_exe(os.path.join(tmp, "bin", "meson"), MESON)
    env = dict(os.environ, PATH=os.path.join(tmp, "bin") + ":" + os.environ["PATH"])
    env.pop("FWD_BUILD_VERBOSE", None)
    for what, first in [("a new tree", True), ("an existing tree", False)]:
        r = subprocess.run(["bash", os.path.join(tmp, "repo", "scripts", "build.sh"), "bld"],
                           capture_output=True, text=True, env=env, cwd=tmp)
        out = r.stdout.splitlines()
        check("build.sh on %s succeeds" % what, r.returncode == 0, r.stderr)
        check("build.sh on %s says what it builds and about how long" % what,
              any(re.match(r"build: building bld .*\b(about|up to) \d+ min", l) for l in out),
              r.stdout)
        if first:
            check("build.sh says it configures", any(l.startswith("build: configuring bld")
                                                    for l in out), r.stdout)
        check("build.sh on %s says when it is done" % what,
              any(re.match(r"build: bld done in \d+ s", l) for l in out), r.stdout)
        check("build.sh on %s does not flood a log (%d lines)" % (what, len(out)),
              len(out) <= 5, r.stdout)

    # with FWD_BUILD_VERBOSE=1, ninja's lines are back
    env["FWD_BUILD_VERBOSE"] = "1"
    r = subprocess.run(["bash", os.path.join(tmp, "repo", "scripts", "build.sh"), "bld"],
                       capture_output=True, text=True, env=env, cwd=tmp)
    check("FWD_BUILD_VERBOSE=1 shows ninja's lines", "[300/300]" in r.stdout, r.stdout)

# scripts/test.sh: every long step is announced, with an estimate, before it runs
lines = open(os.path.join(src, "scripts", "test.sh")).read().splitlines()
steps = [i for i, l in enumerate(lines)
         if re.search(r"bash scripts/(setup|build)\.sh|^\s*run_suite |ASAN_OPTIONS=", l)
         and not lines[i - 1].endswith("\\")]  # a continued line is its first line's step
check("test.sh has its steps", len(steps) >= 5, steps)
for i in steps:
    before = lines[i - 1].strip()
    check("test.sh announces line %d (%s)" % (i + 1, lines[i].strip()[:40]),
          before.startswith("say ") and re.search(r"about|seconds|minutes", before), before)
for name in ["setup.sh"]:
    text = open(os.path.join(src, "scripts", name)).read()
    check("setup.sh announces apt-get with a duration",
          re.search(r'echo "setup: apt-get update \(about', text) is not None and
          re.search(r'echo "setup: installing .*\((about|a few)', text) is not None)

print("1..%d" % len(results))
for i, (name, ok, why) in enumerate(results, 1):
    print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
    if not ok and why:
        for line in str(why).splitlines()[:10]:
            print("#   " + line)
sys.exit(0 if all(ok for _, ok, _ in results) else 1)
