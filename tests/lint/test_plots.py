#!/usr/bin/python3
"""The benchmark plots are current and shown: bench/plot.py redraws every PNG of docs/img/ from
docs/data/ byte for byte (its output carries no timestamp), and a docs page shows each one.

    test_plots.py SOURCE_ROOT
"""
import filecmp
import os
import re
import subprocess
import sys
import tempfile


# the matplotlib docs/img's PNGs were drawn with (Debian 12's python3-matplotlib)
DRAWN_WITH = "3.6.3"


def main():
    root = sys.argv[1]
    img = os.path.join(root, "docs", "img")
    fails = []
    with tempfile.TemporaryDirectory() as out:
        r = subprocess.run([sys.executable, os.path.join(root, "bench", "plot.py"), "--out", out],
                           capture_output=True, text=True)
        if r.returncode != 0:
            fails.append(f"bench/plot.py exited {r.returncode}: {r.stderr.strip()}")
        made = sorted(f for f in os.listdir(out) if f.endswith(".png"))
        have = sorted(f for f in os.listdir(img) if f.endswith(".png"))
        if made != have:
            fails.append(f"bench/plot.py makes {made}, docs/img holds {have}")
        # byte for byte only with the matplotlib that drew them (Debian 12's): another
        # (Debian 13's 3.10) draws the same data with other bytes; there only that it draws
        import matplotlib
        same_mpl = matplotlib.__version__ == DRAWN_WITH
        if not same_mpl:
            print(f"# matplotlib {matplotlib.__version__}, not {DRAWN_WITH}: PNG bytes not compared")
        for f in made:
            if same_mpl and f in have and not filecmp.cmp(os.path.join(out, f),
                                                          os.path.join(img, f), False):
                fails.append(f"docs/img/{f} is not what docs/data draws: run bench/plot.py")
    shown = set()
    for page in os.listdir(os.path.join(root, "docs")):
        if page.endswith(".md"):
            with open(os.path.join(root, "docs", page)) as f:
                shown |= set(re.findall(r"\]\(img/([\w.-]+\.png)\)", f.read()))
    for f in have:
        if f not in shown:
            fails.append(f"docs/img/{f} is shown by no page of docs/")
    for f in fails:
        print("FAIL:", f)
    print(f"{len(have)} plots checked, {len(fails)} problems")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
