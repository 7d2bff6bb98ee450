#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""Every file and function docs/architecture.md names exists: a path
(`app/x/y.c`, `lib/flowsort/`) in the tree, a bare file name (`rt_input.h`)
somewhere in it, and a function (`name()`) defined or declared in app/, lib/
or drivers/. A renamed or removed file or function fails this test until the
page follows. A block marked <!-- doctest: file PATH --> is PATH's copy (the
docs suite checks it against the file): what it names is that file's, so only
PATH itself is checked."""

import os
import re
import sys

root = sys.argv[1]
doc = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "docs", "architecture.md")
text = open(doc).read()
# a file's copy names what the file has: drop its body, keep the marker's PATH
text = re.sub(r"(<!-- doctest: file (\S+) -->\n```[^\n]*\n).*?\n```\n",
              lambda m: "`%s`\n" % m.group(2), text, flags=re.S)

names = set()
sources = []
for top in ("app", "lib", "drivers", "scripts", "bench", "tests"):
    for d, dirs, files in os.walk(os.path.join(root, top)):
        names.update(x + "/" for x in dirs)
        for f in files:
            names.add(f)
            if f.endswith((".c", ".h")) and top in ("app", "lib", "drivers"):
                sources.append(os.path.join(d, f))
code = "\n".join(open(p, errors="replace").read() for p in sources)

failures = []
checked = 0
# backticked words, file names anywhere, and name() in the code blocks' drawings
blocks, inside = [], False
for line in text.split("\n"):
    if line.startswith("```"):
        inside = not inside
    elif inside:
        blocks.append(line)
drawn = " ".join(re.findall(r"\b(?:__)?[a-z_][a-z0-9_]*\(\)", "\n".join(blocks)))
for tok in {drawn} | set(re.findall(r"`([^`\n]+)`", text)) | set(re.findall(r"\b([\w/.-]+\.[ch])\b", text)):
    for word in re.split(r"[ ,]+", tok):
        word = word.strip(",:;")
        if not word.endswith("()"):
            word = word.strip("()")
        elif word.startswith("("):
            word = word[1:]
        m = re.fullmatch(r"(__)?[a-z_][a-z0-9_]*\(\)", word)
        if m:
            fn = word[:-2]
            checked += 1
            if not re.search(r"\b%s\s*\(" % re.escape(fn), code):
                failures.append("function %s() is named but not in the code" % fn)
            continue
        if re.fullmatch(r"\w[\w.-]*(/[\w.-]+)*/?", word) and re.search(r"\.(c|h|py|sh|md|ini)$|/$", word):
            checked += 1
            if "/" in word.rstrip("/"):
                if not os.path.exists(os.path.join(root, word)):
                    failures.append("path %s is named but does not exist" % word)
            elif word not in names and not os.path.exists(os.path.join(root, word)):
                failures.append("file %s is named but is nowhere in the tree" % word)

for f in sorted(set(failures)):
    print("not ok - " + f)
print("ok - %d names checked in %s" % (checked, os.path.relpath(doc, root)) if not failures
      else "# %d of %d names missing" % (len(set(failures)), checked))
sys.exit(1 if failures else 0)
