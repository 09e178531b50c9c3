#!/usr/bin/env python3
"""Markdown table of a scripts/bench/preload_lb.sh run (docs/results.md):
the example program without and with libmmbench-lb.so, the median GFLOP/s
of each, the speed-up per round (both runs of a round: median [min, max]),
the order the variants ran in, and the wrong entries the program found.

    python3 scripts/preload_summary.py results/.../preload-lb-<app>-<host>-<stamp>.csv
"""
import os
import statistics
import sys

# The readers of the files mmbench writes: python/mmbench_results.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from mmbench_results import read_plain  # noqa: E402


def main(path):
    table = read_plain(path)  # the bench script's own table
    rows = table.text_rows
    by = {}
    for r in rows:
        by.setdefault(int(r["round"]), {})[r["variant"]] = r
    ratios = [float(v["without"]["t_median_s"]) / float(v["with"]["t_median_s"]) for v in by.values() if len(v) == 2]
    w = [float(r["gflops"]) for r in rows if r["variant"] == "with"]
    wo = [float(r["gflops"]) for r in rows if r["variant"] == "without"]
    r0 = rows[0]
    lb_with = next(r["lb"] for r in rows if r["variant"] == "with")
    wrong = sum(int(r["wrong"]) for r in rows)
    # Files with a position column alternate the order per round; older ones
    # always ran "without" first.
    order = "alternated per round" if "position" in table.columns else "without, then with (every round)"
    print("| p | n | nb | without (lb 32), GFLOP/s | with (lb " + lb_with + "), GFLOP/s | speed-up per round: median "
          "[min, max] | rounds | order in a round | wrong entries |")
    print("|---|---|---|---|---|---|---|---|---|")
    print(f"| {r0['p']} | {r0['n']} | {r0['nb']} | {statistics.median(wo):.1f} | {statistics.median(w):.1f} | "
          f"{statistics.median(ratios):.3f} [{min(ratios):.3f}, {max(ratios):.3f}] | {len(ratios)} | {order} | {wrong} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    main(sys.argv[1])
