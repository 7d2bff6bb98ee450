#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""scripts/check-rooms.py passes on the tree, and fails on a tree where a
datapath file includes a control header, a common header includes a datapath
one, two files share a basename, or modules include each other round a circle
(issue 38: any circle, a module's private header counted as the module)."""

import os
import shutil
import subprocess
import sys
import tempfile

root = sys.argv[1]
check = os.path.join(root, "scripts", "check-rooms.py")


def run(src):
    p = subprocess.run([sys.executable, check, src], capture_output=True, text=True)
    return p.returncode, p.stdout


def tree(files):
    d = tempfile.mkdtemp(prefix="rooms-")
    for rel, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
        with open(os.path.join(d, rel), "w") as f:
            f.write(text)
    return d


failures = 0


def expect(what, cond, out):
    global failures
    print(("ok - " if cond else "not ok - ") + what)
    if not cond:
        failures += 1
        print("# " + out.replace("\n", "\n# "))


rc, out = run(root)
expect("the tree keeps the rule", rc == 0, out)

base = {
    "app/common/t_types.h": "#include <stdint.h>\n",
    "app/control/t_cfg.h": '#include "t_types.h"\n#include "t_loop.h"\n',
    "app/datapath/t_loop.h": '#include "t_types.h"\n#include "flowsort.h"\n',
    "app/main.c": '#include "t_cfg.h"\n',
}
d = tree(base)
rc, out = run(d)
expect("a clean tree passes (control includes datapath, a library header is no room's)",
       rc == 0, out)
shutil.rmtree(d)

d = tree(dict(base, **{"app/datapath/t_loop.c": '#include "t_loop.h"\n#include "t_cfg.h"\n'}))
rc, out = run(d)
expect("a datapath file including a control header fails, naming file and line",
       rc == 1 and "app/datapath/t_loop.c:2" in out and "app/control/t_cfg.h" in out, out)
shutil.rmtree(d)

d = tree(dict(base, **{"app/common/t_more.h": '#include "t_loop.h"\n'}))
rc, out = run(d)
expect("a common header including a datapath header fails", rc == 1 and "t_more.h:1" in out, out)
shutil.rmtree(d)

d = tree(dict(base, **{"app/route/datapath/t_cfg.h": "\n"}))
rc, out = run(d)
expect("two files with one basename fail", rc == 1 and "two files named t_cfg.h" in out, out)
shutil.rmtree(d)

d = tree(dict(base, **{"app/control/t_a.h": "\n", "app/control/t_a.c": '#include "t_b.h"\n',
                       "app/control/t_b.h": "\n", "app/control/t_b.c": '#include "t_c.h"\n',
                       "app/control/t_c.h": "\n", "app/control/t_c.c": '#include "t_a.h"\n'}))
rc, out = run(d)
expect("an include circle of three modules fails, naming the path round it",
       rc == 1 and "an include circle: t_a -> t_b -> t_c -> t_a" in out, out)
shutil.rmtree(d)

d = tree(dict(base, **{"app/control/t_x.h": "\n", "app/control/t_x_priv.h": '#include "t_x.h"\n',
                       "app/control/t_x.c": '#include "t_x_priv.h"\n',
                       "app/control/t_y.c": '#include "t_x_priv.h"\n'}))
rc, out = run(d)
expect("a module's private header is the module's: x.c -> x_priv.h -> x.h is no circle",
       rc == 0, out)
shutil.rmtree(d)

d = tree(dict(base, **{"app/control/t_x.h": "\n", "app/control/t_x_priv.h": '#include "t_y.h"\n',
                       "app/control/t_x.c": '#include "t_x_priv.h"\n',
                       "app/control/t_y.h": "\n", "app/control/t_y.c": '#include "t_x_priv.h"\n'}))
rc, out = run(d)
expect("a module calling back through another's private header is a circle",
       rc == 1 and "an include circle: t_x -> t_y -> t_x" in out, out)
shutil.rmtree(d)

print("1..8")
sys.exit(1 if failures else 0)
