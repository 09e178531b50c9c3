#!/usr/bin/env python3
"""Summarize an interleaved lb ladder (one `mmbench run --algo pdgemm --lb
32,64,...,auto` per run): per n, every lb's median time, and the tuned lb's
time over the best lb's, per round (rounds interleave, so round i of two rows
ran in the same minute) with the median and [min, max] of those ratios.

usage: lb_ladder_summary.py LADDER.csv TUNED_LB
"""
import csv
import statistics
import sys
from collections import defaultdict


def main():
    path, tuned = sys.argv[1], sys.argv[2]
    rows = [r for r in csv.DictReader(open(path)) if r["status"] == "ok" and r["algo"] == "pdgemm"]
    by_n = defaultdict(dict)
    for r in rows:
        by_n[int(r["n"])][r["lb"]] = [float(x) for x in r["t_rounds"].split(";") if x]
    print(f"| n | lb: median time [s] | best lb | tuned lb {tuned} / best, median [min, max] over rounds |")
    print("|---|---|---|---|")
    for n in sorted(by_n):
        lbs = by_n[n]
        med = {lb: statistics.median(t) for lb, t in lbs.items()}
        best = min(med, key=med.get)
        cells = ", ".join(f"{lb}: {med[lb]:.4g}" for lb in sorted(med, key=int))
        if tuned in lbs:
            ratios = [a / b for a, b in zip(lbs[tuned], lbs[best])]
            rt = f"{statistics.median(ratios):.3f} [{min(ratios):.3f}, {max(ratios):.3f}]"
        else:
            rt = "tuned lb not in the ladder"
        print(f"| {n} | {cells} | {best} | {rt} |")


if __name__ == "__main__":
    sys.exit(main())
