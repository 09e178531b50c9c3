#!/usr/bin/env python3
"""Per-round ratios of the runs of run.sh (same folder): ring (up to 4
chunks a step), ring in one chunk, and tpmm with an unused level (the
control) over plain tpmm, each round's times divided, median and the
order-statistics interval of 15 rounds ([4th, 12th] of the sorted ratios,
about 96 % coverage); and every row's median beside the refined model.
  python3 results/ring-vs-tpmm-p2-zen5-20261207/summary.py > results/ring-vs-tpmm-p2-zen5-20261207/summary.md"""
import csv
import os
import statistics

here = os.path.dirname(os.path.abspath(__file__))
print("| link | n | shift MiB | ring (4 chunks) / tpmm | ring (1 chunk) / tpmm | tpmm (unused level) / tpmm |")
print("|---|---|---|---|---|---|")
rows_out = []
for rate in ("1gbit", "500mbit"):
    by = {}
    for r in csv.DictReader(open(os.path.join(here, f"ring-tpmm-{rate}.csv"))):
        by[(int(r["n"]), r["algo"], r["local_levels"])] = r
        rows_out.append((rate, r))
    for n in sorted({k[0] for k in by}):
        t = {key: [float(x) for x in by[(n, *key)]["t_rounds"].split(";")] for key in
             (("ring", "0"), ("ring", "1"), ("tpmm", "0"), ("tpmm", "1"))}
        cells = []
        for key in (("ring", "0"), ("ring", "1"), ("tpmm", "1")):
            rat = sorted(a / b for a, b in zip(t[key], t[("tpmm", "0")]))
            lo, hi = (rat[3], rat[-4]) if len(rat) >= 8 else (rat[0], rat[-1])
            cells.append(f"{statistics.median(rat):.3f} [{lo:.3f}, {hi:.3f}]")
        print(f"| {rate} | {n} | {8 * n * (n // 2) / 2**20:g} | " + " | ".join(cells) + " |")
print()
print("| link | n | configuration | median s [min, max] | refined model s | error |")
print("|---|---|---|---|---|---|")
for rate, r in rows_out:
    t = [float(x) for x in r["t_rounds"].split(";")]
    lab = r["algo"] + (" (1 chunk: L=1, cut-off 2048, not applied)" if r["algo"] == "ring" and r["local_levels"] == "1"
                       else " (L=1, cut-off 2048, not applied)" if r["local_levels"] == "1" else "")
    print(f"| {rate} | {r['n']} | {lab} | {statistics.median(t):.4f} [{min(t):.4f}, {max(t):.4f}] | "
          f"{float(r['pred_refined']):.4f} | {100 * float(r['err_refined']):+.1f} % |")
