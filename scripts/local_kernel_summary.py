#!/usr/bin/env python3
"""Summarize scripts/bench/local_kernel.sh's CSV (issue 15): per threads and
n, every L with its effective GFLOP/s (2n^3 / time), the ratio to the same
rounds' DGEMM (median [95 % interval] from the CSV's paired columns), the
ideal (8/7)^L of the levels actually done, the ratio as a share of it (the
goal: >= 90 %), the residual, and the additions' share of the kernel's time
per level (top level first).

Usage: python3 scripts/local_kernel_summary.py results/local-kernel-*.csv
"""
import csv
import sys


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    rows = [r for r in csv.DictReader(open(sys.argv[1], newline="")) if r["status"] == "ok"]
    print("| threads | n | L (done) | GFLOP/s eff. | vs DGEMM [95 % interval] | ideal (8/7)^L | of ideal | rounds | residual | additions' share by level |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in sorted(rows, key=lambda r: (int(r["threads"]), int(r["n"]), int(r["local_levels"] or 0))):
        n = int(r["n"])
        done = int(r["local_levels_applied"] or 0)
        ideal = (8 / 7) ** done
        ratio = float(r["peer_ratio"]) if r["peer_ratio"] else float("nan")
        lo, hi = r.get("peer_ratio_lo", ""), r.get("peer_ratio_hi", "")
        interval = f" [{float(lo):.3f}, {float(hi):.3f}]" if lo and hi else ""
        gflops = 2.0 * n ** 3 / float(r["t_median"]) / 1e9
        print(f"| {r['threads']} | {n} | {r['local_levels']} ({done}) | {gflops:.1f} | {ratio:.3f}{interval} | "
              f"{ideal:.3f} | {ratio / ideal * 100:.0f} % | {r['reps']} | {r['residual']} | "
              f"{r.get('local_add_share_by_level', '')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
