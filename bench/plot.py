#!/usr/bin/python3
"""Draw the benchmark results in docs/data/ as the PNGs in docs/img/ that the benchmark pages show.

    /usr/bin/python3 bench/plot.py [--data DIR] [--out DIR]

Each figure reads one result file (CSV, '#' lines are comments):
  modes.csv            each forwarding mode against its anchor (testpmd, l3fwd): Ir/pkt and speed
  flowsort-groups.csv  flowsort's gain over per-packet work against flows per burst
  fragpool-ratios.csv  lib/fragpool against the best of DPDK's allocators, per workload
  pktgen-pacing.csv    the generator's pacing error over time   (bench/plot-data.sh makes it)
  pktgen-latency.csv   the generator's latency histogram         (bench/plot-data.sh makes it)
  route-full-table.csv the router on a full table (bench/route/full-table.sh), with modes.csv's
                       small-table route rows: Ir/pkt and speed against the table's size
A figure whose file is missing is skipped with a message, and the exit status is 1.
"""
import argparse
import csv
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

# No timestamp or version in the PNGs: the same data gives the same file.
SAVE = {"dpi": 110, "metadata": {"Software": None}}


def rows(data, name):
    with open(os.path.join(data, name), newline="") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def modes(data, ax_pair):
    r = rows(data, "modes.csv")
    ir, ratio = ax_pair
    names = [x["mode"] for x in r]
    ys = range(len(r))
    ours = [float(x["ours_ir_pkt"] or 0) for x in r]
    anchor = [float(x["anchor_ir_pkt"] or 0) for x in r]
    ir.barh([y + 0.2 for y in ys], ours, height=0.4, label="dpdk-forwarder")
    ir.barh([y - 0.2 for y in ys], anchor, height=0.4, label="anchor")
    ir.set_yticks(list(ys), [f"{x['mode']}\nvs {x['anchor']}" for x in r], fontsize=8)
    ir.set_xlabel("Ir/pkt, callgrind (lower: better; none: not measured)")
    ir.legend(fontsize=8)
    lo = [float(x["ratio_low"]) for x in r]
    hi = [float(x["ratio_high"]) for x in r]
    ratio.barh(list(ys), [h - low for h, low in zip(hi, lo)], left=lo, height=0.5, color="tab:green")
    for y, low, h in zip(ys, lo, hi):
        ratio.text(h + 0.02, y, f"{low:.2f}-{h:.2f}x", va="center", fontsize=8)
    ratio.axvline(1.0, color="black", lw=0.8)
    ratio.set_yticks(list(ys), names, fontsize=8)
    ratio.set_xlim(0.5, 2.2)
    ratio.set_xlabel("speed, ours / anchor in one run (range; > 1: faster)")


def flowsort(data, ax):
    r = rows(data, "flowsort-groups.csv")
    for cons in ("lpm", "hash"):
        for order, style in (("trains", "-o"), ("rr", "--s")):
            pts = [(int(x["flows"]), float(x["x_auto"])) for x in r
                   if x["consumer"] == cons and x["order"] == order]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style,
                        label=f"{cons} table, {'trains' if order == 'trains' else 'round-robin'}")
    ax.axhline(1.0, color="black", lw=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("flows per 64-packet burst")
    ax.set_ylabel("flowsort auto: per-packet cycles / grouped cycles")
    ax.set_title("flowsort gain against flows per burst (> 1 = faster)", fontsize=10)
    ax.legend(fontsize=8)


def fragpool(data, ax):
    r = rows(data, "fragpool-ratios.csv")
    ys = range(len(r))
    ax.barh([y + 0.2 for y in ys], [float(x["raw_vs_best_after"]) for x in r], height=0.4,
            label="raw fragments vs the best DPDK allocator")
    ax.barh([y - 0.2 for y in ys], [float(x["mbuf_vs_bulk_after"]) for x in r], height=0.4,
            label="mbuf flavour vs rte_pktmbuf_alloc/free_bulk")
    ax.axvline(1.5, color="tab:blue", lw=0.8, ls="--")
    ax.axvline(1.0, color="tab:orange", lw=0.8, ls="--")
    ax.set_yticks(list(ys), [x["scenario"] for x in r], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("speed ratio, median of ten runs (goals: 1.5x raw, 1.0x mbuf)")
    ax.legend(fontsize=7, loc="lower right")


def pacing(data, ax):
    r = rows(data, "pktgen-pacing.csv")
    ax.plot([float(x["t_s"]) for x in r], [float(x["error_pct"]) for x in r], "-", lw=1)
    ax.axhline(0.0, color="black", lw=0.8)
    ax.set_xlabel("time since the first packet (s)")
    ax.set_ylabel("rate error per interval (%)")
    with open(os.path.join(data, "pktgen-pacing.csv")) as f:
        ax.set_title(f.readline().lstrip("# ").strip(), fontsize=8)


def latency(data, ax):
    r = [x for x in rows(data, "pktgen-latency.csv")]
    n = [int(x["packets"]) for x in r]
    used = [i for i, v in enumerate(n) if v]
    lo, hi = (min(used), max(used)) if used else (0, len(n) - 1)
    labels = ["0" if x["high_ns"] == "0" else f"<{x['high_ns']}" for x in r][lo:hi + 1]
    ax.bar(range(hi - lo + 1), n[lo:hi + 1])
    ax.set_yscale("log")
    ax.set_xticks(range(hi - lo + 1), labels, rotation=60, fontsize=7)
    ax.set_xlabel("latency bucket (ns, powers of two)")
    ax.set_ylabel("packets")
    with open(os.path.join(data, "pktgen-latency.csv")) as f:
        ax.set_title("generator latency, " + f.readline().lstrip("# ").split(";")[0], fontsize=9)


# scripts/bench-route.sh's table (bench/route/route.ini, l3fwd's default LPM): the two /24s that
# modes.csv's "route" rows were measured on.
SMALL_TABLE_ROUTES = 2


def route_table_size(data, ax_pair):
    full = rows(data, "route-full-table.csv")
    small = [x for x in rows(data, "modes.csv") if x["mode"].startswith("route")]
    ir, speed = ax_pair
    # Ir/pkt against the routes: one line per app, the small table's point first.
    apps = {"l3fwd-lpm": "l3fwd LPM", "l3fwd-fib": "l3fwd FIB", "ours-off": "ours, flowsort off",
            "ours-on": "ours, flowsort on"}
    first = {"l3fwd-lpm": float(small[0]["anchor_ir_pkt"]),
             "ours-off": float(small[0]["ours_ir_pkt"])} if small else {}
    for app, label in apps.items():
        pts = {}
        if app in first:
            pts[SMALL_TABLE_ROUTES] = first[app]
        for x in full:
            if x["app"] == app and x["ir_pkt"]:
                pts.setdefault(int(x["routes"]), float(x["ir_pkt"]))
        if pts:
            xs = sorted(pts)
            ir.plot(xs, [pts[k] for k in xs], "-o", label=label)
    ir.set_xscale("log")
    ir.set_ylim(0, None)
    ir.set_xlabel("routes in the table")
    ir.set_ylabel("Ir/pkt, callgrind (lower: better)")
    ir.set_title("instructions per packet (same net_pcap PMD: 191.2)", fontsize=9)
    ir.legend(fontsize=8)
    # Speed, ours / l3fwd in the same run: the small table's range against l3fwd LPM, the full
    # table's medians against l3fwd FIB (its LPM did not load in time for the Mpps rounds).
    for i, x in enumerate(small):
        flows = re.search(r"(\d+) flow", x["mode"]).group(1)
        lo, hi = float(x["ratio_low"]), float(x["ratio_high"])
        speed.plot([SMALL_TABLE_ROUTES] * 2, [lo, hi], "-", lw=4, color="tab:gray")
        speed.text(SMALL_TABLE_ROUTES * 2.5, lo - 0.06 - 0.07 * i,
                   f"{flows} flow{'s' if flows != '1' else ''} vs LPM: {lo:.2f}-{hi:.2f}x",
                   va="center", fontsize=7)
    anchor = {(x["routes"], x["flows"], x["train"], x["pages"]): float(x["mpps"]) for x in full
              if x["app"] == "l3fwd-fib" and x["mpps"]}
    series = {}
    for x in full:
        key = (x["routes"], x["flows"], x["train"], x["pages"])
        if x["app"].startswith("ours") and x["mpps"] and key in anchor:
            name = f"{x['app']}, {int(x['flows']):,} flows, {x['pages']} pages vs FIB"
            series.setdefault(name, []).append((int(x["routes"]), float(x["mpps"]) / anchor[key]))
    for name, pts in sorted(series.items()):
        pts.sort()
        speed.plot([p[0] for p in pts], [p[1] for p in pts], "o", label=name)
        for p in pts:  # flowsort on above its point, off below: close values stay legible
            speed.annotate(f"{p[1]:.2f}x", p, textcoords="offset points", fontsize=7,
                           xytext=(6, 2 if "ours-on" in name else -8))
    speed.axhline(1.1, color="tab:red", lw=0.8, ls="--", label="goal: 1.1x")
    speed.axhline(1.0, color="black", lw=0.8)
    speed.set_xscale("log")
    speed.set_xlim(1, 1e7)
    speed.set_ylim(0, 1.3)
    speed.set_xlabel("routes in the table")
    speed.set_ylabel("Mpps, ours / l3fwd in one run (> 1: faster)")
    speed.set_title("router speed against table size (4 KiB pages)", fontsize=9)
    speed.legend(fontsize=6, loc="lower left")


FIGURES = [  # (png, size, subplot layout, drawing function)
    ("modes-vs-anchor.png", (10, 3.6), (1, 2), modes),
    ("flowsort-gain.png", (6.5, 4), (1, 1), flowsort),
    ("fragpool-ratios.png", (8, 5), (1, 1), fragpool),
    ("pktgen-pacing.png", (7, 3.2), (1, 1), pacing),
    ("pktgen-latency.png", (7, 3.6), (1, 1), latency),
    ("route-table-size.png", (10, 3.8), (1, 2), route_table_size),
]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=os.path.join(here, "..", "docs", "data"))
    ap.add_argument("--out", default=os.path.join(here, "..", "docs", "img"))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    status = 0
    for png, size, (nr, nc), draw in FIGURES:
        fig, axes = plt.subplots(nr, nc, figsize=size)
        try:
            draw(a.data, axes)
        except (OSError, KeyError, ValueError) as e:
            print(f"plot: {png}: skipped: {e}", file=sys.stderr)
            status = 1
            plt.close(fig)
            continue
        fig.tight_layout()
        fig.savefig(os.path.join(a.out, png), **SAVE)
        plt.close(fig)
        print(f"plot: {os.path.join(a.out, png)}")
    return status


if __name__ == "__main__":
    sys.exit(main())
