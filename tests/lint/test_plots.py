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
        for f in made:
            if f in have and not filecmp.cmp(os.path.join(out, f), os.path.join(img, f), False):
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
