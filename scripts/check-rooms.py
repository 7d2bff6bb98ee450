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

No include circles either: a module (x.c with x.h, and x_priv.h, the
internals its files share) that uses a module using it back is one knot, not
two parts (issue 38). Any circle fails, naming a path round it: a module that
calls back into its user registers a hook instead of including it.

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


def module(rel):
    """x.c, x.h and x_priv.h are module x: the private header is its files' own."""
    name = os.path.basename(rel).rsplit(".", 1)[0]
    if rel.endswith("_priv.h"):
        name = name[:-len("_priv")]
    return name


def knots(graph):
    """The strongly connected parts of @graph with more than one module (Tarjan's,
    iterative: the graph is small but Python's stack is not deep)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                part = set()
                while True:
                    w = stack.pop()
                    on.discard(w)
                    part.add(w)
                    if w == v:
                        break
                if len(part) > 1:
                    out.append(part)
    return out


def path_round(graph, part):
    """A shortest circle through @part's first module, for the message."""
    start = min(part)
    prev, todo = {start: None}, [start]
    while todo:
        nxt = []
        for v in todo:
            for w in sorted(graph[v] & part):
                if w == start:
                    path = [v]
                    while prev[path[-1]] is not None:
                        path.append(prev[path[-1]])
                    return " -> ".join(list(reversed(path)) + [start])
                if w not in prev:
                    prev[w] = v
                    nxt.append(w)
        todo = nxt
    return start


def circles(src, files, where):
    """Include circles between modules."""
    graph = {}
    for rel in files:
        graph.setdefault(module(rel), set())
        with open(os.path.join(src, rel), errors="replace") as f:
            for line in f:
                m = INCLUDE.match(line)
                if m and os.path.basename(m.group(1)) in where:
                    t = module(m.group(1))
                    if t != module(rel):
                        graph[module(rel)].add(t)
    bad = []
    for part in knots(graph):
        bad.append("an include circle: %s (a module that includes a module that includes "
                   "it back; split what both need into a header of its own, or register "
                   "instead of calling by name)" % path_round(graph, part))
    return bad


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
    bad += circles(src, files, where)
    for b in bad:
        print("rooms: " + b)
    if not bad:
        print("rooms: %d files, every include goes the right way" % len(files))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
