#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""The rooms of app/ (docs/architecture.md) and the one direction between
them: control code may include datapath headers, never the reverse.

    common/    types both need       may include: common
    datapath/  per-packet code       may include: common, datapath
    control/   everything else       may include: common, datapath, control
    sync/      routing-suite sync    as control
    main.c     the process           anything

Headers are included by their bare name (each room's folder is on the include
path), so basenames must be unique across app/; a header that is not one of
app/'s (a library's, DPDK's) is not a room's. Exits 1 naming every include
that breaks the rule.

    check-rooms.py [SRCDIR]
"""

import os
import re
import sys

ALLOWED = {
    "common": {"common"},
    "datapath": {"common", "datapath"},
    "control": {"common", "datapath", "control"},
    "sync": {"common", "datapath", "control", "sync"},
    "main": {"common", "datapath", "control", "sync", "main"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def room_of(rel):
    parts = rel.split("/")
    for r in ("common", "datapath", "control", "sync"):
        if r in parts[:-1]:
            return r
    return "main"


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "."
    app = os.path.join(src, "app")
    files = {}
    where = {}
    bad = []
    for d, _, names in os.walk(app):
        for n in sorted(names):
            if not n.endswith((".c", ".h")):
                continue
            rel = os.path.relpath(os.path.join(d, n), src)
            files[rel] = room_of(rel)
            if n in where:
                bad.append("%s and %s: two files named %s (includes are by bare name)"
                           % (where[n], rel, n))
            where[n] = rel
    for rel, room in sorted(files.items()):
        with open(os.path.join(src, rel), errors="replace") as f:
            for lineno, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = where.get(os.path.basename(m.group(1)))
                if target is None:
                    continue  # a library's or DPDK's header
                troom = files[target]
                if troom not in ALLOWED[room]:
                    bad.append("%s:%d: a %s file includes %s, a %s header (%s may include "
                               "%s only; move what both need to a common/ header)"
                               % (rel, lineno, room, target, troom, room,
                                  ", ".join(sorted(ALLOWED[room]))))
    for b in bad:
        print("rooms: " + b)
    if not bad:
        print("rooms: %d files, every include goes the right way" % len(files))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
