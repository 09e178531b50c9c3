#!/usr/bin/env python3
"""Plots of SIMULATED runs (scripts/bench/simulate_thesis_cluster.sh) next to the
paper and refined model predictions.

  python3 scripts/simulated_plots.py --kind mflops --out docs/figures --tag p56 results/simulated-thesis-cluster/simulated-*-p56-*.csv
  python3 scripts/simulated_plots.py --out docs/figures --tag auto results/simulated-thesis-cluster/simulated-*-auto-*.csv

--kind mflops (for one p, several n): MFLOPS per process against n, one
colour per configuration: simulated (solid, filled markers), refined model
(dashed), paper model (dotted), as in the thesis' Abb. 2.14.
--kind bars (default): one panel per (p, n), one group of bars per
configuration (simulated, refined model, paper model; log scale), the
configuration --algo auto picked marked with '*'.
Writes <out>/simulated-<tag>.png. Rows without a simulated time
(not-applicable, failed) are left out. Needs matplotlib (Debian
python3-matplotlib; /usr/bin/python3).
"""
import argparse
import os
import sys

# The readers of the files mmbench writes: python/mmbench_results.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from mmbench_results import read_results  # noqa: E402


def label(r):
    s = r["algo"]
    if r.get("recursions"):
        s += f" r={r['recursions']}"
    if r.get("q7_split_rule") and r["algo"].startswith("strassen-q7"):
        s += f" {r['q7_split_rule']}"
    if r.get("local_levels") not in (None, "", "0"):
        s += f" L={r['local_levels']}"
    if r["algo"] == "2.5d" and r.get("grid"):
        s += f" {r['grid']}"
    return s


def plot_mflops(plt, rows, a):
    """MFLOPS per process against n: simulated, refined and paper model."""
    ps = sorted({int(r["p"]) for r in rows})
    curves = {}
    for r in rows:
        curves.setdefault(label(r), {})[int(r["n"])] = r  # last row of a (label, n) wins
    fig, ax = plt.subplots(figsize=(7.5, 5.0))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, name in enumerate(sorted(curves)):
        pts = curves[name]
        ns = sorted(pts)
        c = colours[i % len(colours)]
        flops = {n: 2.0 * float(pts[n]["m"]) * float(pts[n]["n"]) * float(pts[n]["k"]) / int(pts[n]["p"]) for n in ns}
        ax.plot(ns, [float(pts[n]["mflops_per_proc"]) for n in ns], "-o", color=c, label=f"{name} SIMULATED")
        for col, style, what in (("pred_refined", "--", "refined"), ("pred_paper", ":", "paper")):
            xs = [n for n in ns if pts[n].get(col)]
            if xs:
                ax.plot(xs, [flops[n] / float(pts[n][col]) / 1e6 for n in xs], style, marker="x", color=c,
                        alpha=0.8, label=f"{name} {what} model")
    ax.set_xscale("log", base=2)
    ax.set_xticks(sorted({int(r["n"]) for r in rows}))
    from matplotlib.ticker import ScalarFormatter
    ax.get_xaxis().set_major_formatter(ScalarFormatter())
    ax.set_xlabel("n (m = n = k)")
    ax.set_ylabel("MFLOPS per process")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    plats = sorted({r.get("simulated", "") for r in rows})
    ax.set_title(f"SIMULATED (SimGrid SMPI, charged compute, {', '.join(plats)}), p = "
                 f"{', '.join(map(str, ps))}\nsolid: simulated, dashed: refined model, dotted: paper model", fontsize=9)
    fig.tight_layout()
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, f"simulated-{a.tag}.png")
    fig.savefig(path, dpi=110)
    print(path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--out", default="docs/figures")
    ap.add_argument("--tag", required=True)
    ap.add_argument("--kind", choices=("bars", "mflops"), default="bars")
    a = ap.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("simulated_plots.py: matplotlib missing (try /usr/bin/python3)")
    rows = []
    for f in a.csv:
        rows += [r for r in read_results(f).text_rows if r.get("status") == "ok" and r.get("t_median")]
    if not rows:
        sys.exit("simulated_plots.py: no simulated rows with a time")
    if a.kind == "mflops":
        return plot_mflops(plt, rows, a)
    panels = {}
    for r in rows:
        panels.setdefault((int(r["p"]), int(r["n"])), {})[label(r)] = r  # last row of a label wins
    keys = sorted(panels)
    fig, axes = plt.subplots(1, len(keys), figsize=(4.2 * len(keys), 4.2), squeeze=False)
    for ax, key in zip(axes[0], keys):
        cfg = panels[key]
        names = sorted(cfg, key=lambda s: float(cfg[s]["t_median"]))
        x = range(len(names))
        for off, col, name, colour in ((-0.27, "t_median", "simulated", "tab:blue"),
                                        (0.0, "pred_refined", "refined model", "tab:orange"),
                                        (0.27, "pred_paper", "paper model", "tab:gray")):
            ys = [float(cfg[s][col]) if cfg[s].get(col) else 0.0 for s in names]
            ax.bar([i + off for i in x], ys, width=0.27, label=name, color=colour)
        ticks = [("* " if cfg[s].get("selected_by", "").startswith("auto") else "") + s for s in names]
        ax.set_xticks(list(x))
        ax.set_xticklabels(ticks, rotation=60, ha="right", fontsize=7)
        ax.set_yscale("log")
        ax.set_title(f"p = {key[0]}, n = {key[1]} (SIMULATED)", fontsize=9)
        ax.set_ylabel("time [s]")
    axes[0][0].legend(fontsize=7)
    fig.suptitle("SIMULATED: SimGrid SMPI, charged compute, thesis Opteron platform: simulated vs models"
                 " (* = --algo auto's pick)", fontsize=9)
    fig.tight_layout()
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, f"simulated-{a.tag}.png")
    fig.savefig(path, dpi=110)
    print(path)


if __name__ == "__main__":
    main()
