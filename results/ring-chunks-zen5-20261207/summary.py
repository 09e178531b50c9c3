#!/usr/bin/env python3
"""Medians [min, max] of the runs in this folder beside the refined model
(in netns-*.csv the first ring row of a size is --ring-chunks auto, the
second --ring-chunks 4).
  python3 results/ring-chunks-zen5-20261207/summary.py > results/ring-chunks-zen5-20261207/summary.md"""
import csv
import os
import statistics

here = os.path.dirname(os.path.abspath(__file__))
for name, title in (("ring-chunks-1node.csv", "one node, 2 ranks (shared memory), 7 rounds"),
                    ("netns-1gbit.csv", "two namespace nodes at 1 Gbit/s, 9 rounds"),
                    ("netns-500mbit.csv", "two namespace nodes at 500 Mbit/s, 9 rounds")):
    rows = list(csv.DictReader(open(os.path.join(here, name))))
    print(f"## {title} (`{name}`)\n")
    print("| n | configuration | chunks run | median s [min, max] | refined model s | error |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        t = [float(x) for x in r["t_rounds"].split(";")]
        lab = r["algo"] + (f" L={r['local_levels']}" if r["local_levels"] not in ("", "0") else "")
        print(f"| {r['n']} | {lab} | {r['ring_chunks']} | {statistics.median(t):.4f} "
              f"[{min(t):.4f}, {max(t):.4f}] | {float(r['pred_refined']):.4f} | {100 * float(r['err_refined']):+.1f} % |")
    print()
