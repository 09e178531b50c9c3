#!/usr/bin/env python3
"""Summarize scripts/bench/local_kernel.sh's CSV: per threads and
n, every L with its effective GFLOP/s (2n^3 / time), the ratio to the same
rounds' DGEMM (median [interval] from the CSV's paired columns, with the
coverage the interval has at the row's rounds: 75 % at 3, >= 95 % from 6), the
ideal (8/7)^L of the levels actually done, the ratio as a share of it (the
goal: >= 90 %), the residual, and the additions' share of the kernel's time
per level (top level first). With --local-gemm blas,packed the rows of
both GEMMs appear, and each row also gets the ratio to its own GEMM's L = 0
row (ratio of the two medians, not paired): for packed rows that is the
gain of the levels alone, the ratio to DGEMM also holds the packed GEMM's
own speed against OpenBLAS's. A row flagged noisy (CSV column noisy: cv
above 5 %) is marked "~" before its ratio.

Usage: python3 scripts/local_kernel_summary.py results/local-strassen-vs-dgemm-*.csv
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarize import coverage_label, row_coverage, row_cv_if_noisy  # noqa: E402

# The readers of the files mmbench writes: python/mmbench_results.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from mmbench_results import read_results  # noqa: E402


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    rows = [r for r in read_results(sys.argv[1]).text_rows if r["status"] == "ok"]
    def gemm(r):
        return r.get("local_gemm") or "blas"

    base = {(r["threads"], r["n"], gemm(r)): float(r["t_median"]) for r in rows if int(r["local_levels"] or 0) == 0}
    print("| threads | n | gemm | L (done) | GFLOP/s eff. | vs DGEMM [interval] (coverage) | ideal (8/7)^L | of ideal "
          "| vs own L=0 (medians) | of ideal | rounds | residual | additions' share by level |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in sorted(rows, key=lambda r: (int(r["threads"]), int(r["n"]), int(r["local_levels"] or 0), gemm(r))):
        n = int(r["n"])
        done = int(r["local_levels_applied"] or 0)
        ideal = (8 / 7) ** done
        ratio = float(r["peer_ratio"]) if r["peer_ratio"] else float("nan")
        lo, hi = r.get("peer_ratio_lo", ""), r.get("peer_ratio_hi", "")
        cov = row_coverage(r)
        interval = f" [{float(lo):.3f}, {float(hi):.3f}]" if lo and hi else ""
        if interval and cov is not None:
            interval += f" ({coverage_label(cov)})"
        noisy = "~" if row_cv_if_noisy(r) is not None else ""
        gflops = 2.0 * n ** 3 / float(r["t_median"]) / 1e9
        own = base.get((r["threads"], r["n"], gemm(r)))
        own_ratio = own / float(r["t_median"]) if own else float("nan")
        print(f"| {r['threads']} | {n} | {gemm(r)} | {r['local_levels']} ({done}) | {gflops:.1f} | {noisy}{ratio:.3f}{interval} | "
              f"{ideal:.3f} | {ratio / ideal * 100:.0f} % | {own_ratio:.3f} | {own_ratio / ideal * 100:.0f} % | "
              f"{r['reps']} | {r['residual']} | "
              f"{r.get('local_add_share_by_level', '')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
