#!/usr/bin/env python3
"""A Markdown table of scripts/bench/netns_burst.sh's runs: per
configuration and problem, the median over rounds of each run's median time
for every tbf burst size with the range of those run medians, and each
size's time over the smallest size's.

    python3 scripts/netns_burst_summary.py DIR
"""
import glob
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from mmbench_results import read_results  # noqa: E402


def size_bytes(word):
    m = re.fullmatch(r"(\d+)(kb|mb)", word)
    return int(m.group(1)) * (1024 if m.group(2) == "kb" else 1024 * 1024)


def main():
    folder = sys.argv[1]
    times = {}  # burst -> (config, n) -> [run medians]
    for path in glob.glob(os.path.join(folder, "burst-*.csv")):
        burst = os.path.basename(path)[len("burst-"):-len(".csv")]
        for r in read_results(path).text_rows:
            if r["status"] != "ok":
                continue
            config = r["algo"] + (f" {r['grid']} lb={r['lb']}" if r["algo"] == "pdgemm" else "")
            times.setdefault(burst, {}).setdefault((config, int(r["n"])), []).append(float(r["t_median"]))
    bursts = sorted(times, key=size_bytes)
    keys = sorted({k for b in bursts for k in times[b]}, key=lambda k: (k[1], k[0]))
    print("| configuration | n | " + " | ".join(f"burst {b} [s] [min, max] of runs" for b in bursts) + " | " +
          " | ".join(f"{b} / {bursts[0]}" for b in bursts[1:]) + " |")
    print("|---|---|" + "---|" * (2 * len(bursts) - 1))
    for k in keys:
        med = {b: statistics.median(times[b][k]) for b in bursts if k in times[b]}
        cells = [f"{med[b]:.4g} [{min(times[b][k]):.4g}, {max(times[b][k]):.4g}]" if b in med else "–"
                 for b in bursts]
        ratios = [f"{med[b] / med[bursts[0]]:.3f}" if b in med and bursts[0] in med else "–" for b in bursts[1:]]
        print(f"| {k[0]} | {k[1]} | " + " | ".join(cells) + " | " + " | ".join(ratios) + " |")


if __name__ == "__main__":
    main()
