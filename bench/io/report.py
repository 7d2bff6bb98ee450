#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 dpdk-forwarder authors
"""Turn the raw logs of scripts/bench-io.sh into a Markdown report and results.json.

    report.py OUTDIR MODE...

Throughput samples are the sum of the per-port TX rates printed once a second
by each app (packets forwarded); the first non-zero sample of a run is warm-up
and dropped. Ir/pkt is the callgrind cost of the forwarding loop divided by the
packets both ports transmitted in that run.
"""

import glob
import json
import os
import re
import statistics
import subprocess
import sys

NAMES = {"ours": "dpdk-forwarder", "ours-static": "dpdk-forwarder (static DPDK)",
         "testpmd": "dpdk-testpmd"}


def ours_samples(log):
    """Mpps samples of one dpdk-forwarder run (periodic stats only)."""
    samples, cur = [], None
    for line in open(log, errors="replace"):
        if line.startswith("=== stats:"):
            cur = []
            samples.append(cur)
        elif line.startswith("=== final stats"):
            cur = None
        elif cur is not None:
            m = re.match(r"port \d+ .*\| tx \d+ pkts \d+ bytes \(([\d.]+) Mpps\)", line)
            if m:
                cur.append(float(m.group(1)))
    return [sum(s) for s in samples if s]


def testpmd_samples(log, nports=2):
    """Mpps samples of one testpmd --stats-period 1 run."""
    tx = [int(x) for x in re.findall(r"Tx-pps:\s+(\d+)", open(log, errors="replace").read())]
    out = []
    for i in range(0, len(tx) - nports + 1, nports):
        out.append(sum(tx[i:i + nports]) / 1e6)
    return out


def steady(samples):
    """Drop the all-zero first print (testpmd) and the first real sample."""
    s = list(samples)
    while s and s[0] == 0:
        s.pop(0)
    return s[1:]


def ours_totals(jsonfile):
    d = json.load(open(jsonfile))
    tx = sum(p["opackets"] for p in d["ports"])
    drops = sum(d["drops"].values())
    return tx, drops, d


def testpmd_totals(log):
    text = open(log, errors="replace").read()
    m = re.search(r"Accumulated forward statistics.*?\n\s*RX-packets:\s*(\d+)\s+RX-dropped:\s*(\d+)"
                  r".*?\n\s*TX-packets:\s*(\d+)\s+TX-dropped:\s*(\d+)", text, re.S)
    if not m:
        return None, None
    return int(m.group(3)), int(m.group(2)) + int(m.group(4))


LINE = re.compile(r"^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*?)\s+\[(.*)\]\s*$")


def annotate(cgfile, inclusive):
    """(Ir, function, object) rows of callgrind_annotate, every function."""
    out = subprocess.run(["callgrind_annotate", "--threshold=100",
                          "--inclusive=" + ("yes" if inclusive else "no"), cgfile],
                         capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        m = LINE.match(line)
        if m:
            rows.append((int(m.group(1).replace(",", "")), m.group(2), m.group(3)))
    return rows


def totals(cgfile):
    for line in open(cgfile, errors="replace"):
        if line.startswith("totals:") or line.startswith("summary:"):
            return int(line.split()[1])
    return 0


def obj_name(path):
    base = os.path.basename(path)
    return re.sub(r"\.so(\.[\d.]+)?$", "", base)


def split_by_object(rows, pkts):
    by = {}
    for ir, _fn, ob in rows:
        by[obj_name(ob)] = by.get(obj_name(ob), 0) + ir
    return {k: v / pkts for k, v in sorted(by.items(), key=lambda kv: -kv[1])}


def top_functions(rows, pkts, n=8):
    rows = sorted(rows, reverse=True)
    return [(f"{fn.split(':', 1)[-1]} ({obj_name(ob)})", ir / pkts) for ir, fn, ob in rows[:n]]


def cg_ours(outdir, app, mode):
    f = os.path.join(outdir, f"cg-{app}-{mode}.out")
    j = os.path.join(outdir, f"cg-{app}-{mode}.json")
    if not (os.path.exists(f) and os.path.exists(j)):
        return None
    pkts, drops, _ = ours_totals(j)
    ir = totals(f)
    rows = annotate(f, inclusive=False)
    return {"ir": ir, "pkts": pkts, "drops": drops, "ir_per_pkt": ir / pkts,
            "how": "--toggle-collect=fwd_lcore_main",
            "split": split_by_object(rows, pkts),
            "top": top_functions(rows, pkts)}


def cg_testpmd(outdir, mode):
    files = sorted(glob.glob(os.path.join(outdir, f"cg-testpmd-{mode}.out.*-*")))
    log = os.path.join(outdir, f"cg-testpmd-{mode}.log")
    if not files or not os.path.exists(log):
        return None
    # Thread 1 is main(); the forwarding lcore is the busiest other thread.
    workers = [f for f in files if not f.endswith("-01")]
    if not workers:
        return None
    f = max(workers, key=totals)
    thread_total = totals(f)
    incl = annotate(f, inclusive=True)
    launched = next((r for r in incl if obj_name(r[2]) == "dpdk-testpmd"), None)
    if launched is None:
        return None
    pkts, drops = testpmd_totals(log)
    if not pkts:
        return None
    rows = annotate(f, inclusive=False)
    return {"ir": launched[0], "pkts": pkts, "drops": drops, "ir_per_pkt": launched[0] / pkts,
            "thread_ir_per_pkt": thread_total / pkts,
            "how": f"inclusive Ir of {launched[1].split(':', 1)[-1]} (the function EAL "
                   f"launches on the forwarding lcore) in {os.path.basename(f)}",
            "split": split_by_object(rows, pkts),
            "top": top_functions(rows, pkts)}


def perf_ir(outdir, app, mode, rnd, pkts):
    f = os.path.join(outdir, f"{app}-{mode}-{rnd}.perf")
    if not os.path.exists(f) or not pkts:
        return None
    for line in open(f):
        fields = line.strip().split(",")
        if len(fields) > 2 and fields[2].startswith("instructions") and fields[0].isdigit():
            return int(fields[0]) / pkts
    return None


def fmt(x, nd=2):
    return "–" if x is None else f"{x:.{nd}f}"


def main():
    outdir, ours_apps, modes = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
    apps = ours_apps + ["testpmd"]
    perf_ok = open(os.path.join(outdir, "perf_supported")).read().strip() == "1"
    results = {"modes": {}}
    md = []
    md.append(open(os.path.join(outdir, "machine.txt")).read().rstrip("\n").replace("\n", "  \n"))
    md.append("")
    md.append("| mode | app | Mpps median of rounds | rounds min–max | ratio of medians "
              "| median of per-round ratios | Ir/pkt (callgrind) | instructions/pkt (perf) |")
    md.append("|---|---|---|---|---|---|---|---|")
    for mode in modes:
        res = {}
        for app in apps:
            rounds, perf = [], []
            rnd = 1
            while True:
                log = os.path.join(outdir, f"{app}-{mode}-{rnd}.log")
                if not os.path.exists(log):
                    break
                if app != "testpmd":
                    s = steady(ours_samples(log))
                    tx, drops, _ = ours_totals(os.path.join(outdir, f"{app}-{mode}-{rnd}.json"))
                else:
                    s = steady(testpmd_samples(log))
                    tx, drops = testpmd_totals(log)
                rounds.append({"samples": s, "median": statistics.median(s) if s else None,
                               "tx_pkts": tx, "drops": drops})
                perf.append(perf_ir(outdir, app, mode, rnd, tx))
                rnd += 1
            meds = [r["median"] for r in rounds if r["median"] is not None]
            res[app] = {"rounds": rounds,
                        "median_mpps": statistics.median(meds) if meds else None,
                        "min_mpps": min(meds) if meds else None,
                        "max_mpps": max(meds) if meds else None,
                        "perf_instr_per_pkt": statistics.median([p for p in perf if p])
                        if any(perf) else None}
        res["testpmd"]["callgrind"] = cg_testpmd(outdir, mode)
        b = res["testpmd"]["median_mpps"]
        for app in ours_apps:
            r = res[app]
            r["callgrind"] = cg_ours(outdir, app, mode)
            r["ratio"] = r["median_mpps"] / b if r["median_mpps"] and b else None
            # The same ratio per round (the apps ran back to back).
            r["round_ratios"] = [x["median"] / y["median"] for x, y in
                                 zip(r["rounds"], res["testpmd"]["rounds"])
                                 if x["median"] and y["median"]]
            r["median_round_ratio"] = (statistics.median(r["round_ratios"])
                                       if r["round_ratios"] else None)
        results["modes"][mode] = res
        for app in apps:
            r = res[app]
            cg = r["callgrind"]
            perf_col = fmt(r["perf_instr_per_pkt"], 1) if perf_ok else "not supported here"
            md.append(f"| {mode} | {NAMES[app]} "
                      f"| {fmt(r['median_mpps'])} | {fmt(r['min_mpps'])}–{fmt(r['max_mpps'])} "
                      f"| {fmt(r.get('ratio'), 3) if app != 'testpmd' else ''} "
                      f"| {fmt(r.get('median_round_ratio'), 3) if app != 'testpmd' else ''} "
                      f"| {fmt(cg['ir_per_pkt'] if cg else None)} | {perf_col} |")
    md.append("")
    for mode in modes:
        for app in ours_apps:
            r = results["modes"][mode][app]
            md.append(f"- per-round ratios, {mode}, {NAMES[app]} / testpmd: " +
                      ", ".join(f"{x:.3f}" for x in r["round_ratios"]))
    for mode in modes:
        for app in apps:
            r = results["modes"][mode][app]
            dropped = sum(x["drops"] or 0 for x in r["rounds"])
            md.append(f"- {mode}, {NAMES[app]}: {sum(x['tx_pkts'] or 0 for x in r['rounds'])} "
                      f"packets forwarded in all rounds, {dropped} dropped")
    md.append("")
    md.append("Ir/pkt by ELF object (self cost in the forwarding loop):")
    md.append("")
    for mode in modes:
        for app in apps:
            cg = results["modes"][mode][app]["callgrind"]
            if not cg:
                continue
            parts = ", ".join(f"{k} {v:.2f}" for k, v in cg["split"].items() if v >= 0.005)
            md.append(f"- {mode}, {app}: {cg['ir_per_pkt']:.2f} Ir/pkt over {cg['pkts']} packets "
                      f"({cg['how']}) = {parts}")
            md.append("  - top functions: " +
                      ", ".join(f"{fn} {v:.2f}" for fn, v in cg["top"]))
    json.dump(results, open(os.path.join(outdir, "results.json"), "w"), indent=1)
    print("\n".join(md))


if __name__ == "__main__":
    main()
