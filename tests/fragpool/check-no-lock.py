#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""Fail if fragpool's owner path contains an atomic instruction.

Disassembles the given objects/archives with `objdump -d --no-show-raw-insn`
and looks, in every function named with --owner (and its .cold/.part/.isra
pieces), for a LOCK-prefixed instruction or an xchg with a memory operand
(xchg with memory is locked implicitly). Every named function must be found.
Functions named with --atomic must contain such an instruction: the positive
control that shows the parser would catch one.

    check-no-lock.py OBJDUMP --owner f1,f2 --atomic g1 FILE...
Prints TAP.
"""
import argparse
import re
import subprocess
import sys

HEADER = re.compile(r'^[0-9a-f]+ <([^>]+)>:$')
INSN = re.compile(r'^\s*[0-9a-f]+:\s+(.*)$')


def functions(objdump, files):
    """Map function name -> list of instruction strings."""
    out = subprocess.run([objdump, '-d', '--no-show-raw-insn', *files], check=True,
                         capture_output=True, text=True).stdout
    funcs, cur = {}, None
    for line in out.splitlines():
        m = HEADER.match(line)
        if m:
            # fragpool_alloc_slow.cold, .part.0, .isra.0, .constprop.0 belong to their function
            cur = m.group(1).split('.')[0]
            funcs.setdefault(cur, [])
            continue
        m = INSN.match(line)
        if m and cur is not None:
            funcs[cur].append(m.group(1).split('#')[0].strip())
    return funcs


def atomic(insn):
    words = insn.split()
    if not words:
        return False
    if 'lock' in words[:2]:
        return True
    return words[0].startswith('xchg') and '(' in insn


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('objdump')
    ap.add_argument('--owner', required=True)
    ap.add_argument('--atomic', required=True)
    ap.add_argument('files', nargs='+')
    a = ap.parse_args()
    funcs = functions(a.objdump, a.files)
    owner = a.owner.split(',')
    known = a.atomic.split(',')
    print(f'1..{len(owner) + len(known)}')
    n, bad = 0, 0
    for f in owner:
        n += 1
        if f not in funcs or not funcs[f]:
            print(f'not ok {n} - {f}: not found in the disassembly')
            bad += 1
            continue
        hits = [i for i in funcs[f] if atomic(i)]
        if hits:
            print(f'not ok {n} - {f}: atomic instruction on the owner path')
            for h in hits:
                print(f'#   {h}')
            bad += 1
        else:
            print(f'ok {n} - {f}: {len(funcs[f])} instructions, no lock, no xchg with memory')
    for f in known:
        n += 1
        hits = [i for i in funcs.get(f, []) if atomic(i)]
        if hits:
            print(f'ok {n} - {f}: positive control, found "{hits[0]}"')
        else:
            print(f'not ok {n} - {f}: positive control has no atomic (checker broken?)')
            bad += 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
