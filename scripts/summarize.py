#!/usr/bin/env python3
"""Summarize an `mmbench run` CSV: per (p, n) the best algorithm measured,
its MFLOPS/proc, every configuration's ratio to the DGEMM peer of the
same run (the `dgemm` rows: one rank using all of the job's cores) and its
residual (so the accuracy cost of local Strassen levels shows per L).

Usage: python3 scripts/summarize.py results/x.csv [--markdown]

Ratios: where the CSV has the paired columns (peer_ratio, peer_ratio_lo,
peer_ratio_hi: median over interleaved rounds of t(peer) / t(row), with its
order-statistics interval), those are shown with the interval and the
coverage it really has at that row's rounds (ci_coverage, or derived from
reps in CSVs without it): 3 rounds give [min, max] with 75 %, 6 or more
at least 95 %. Older CSVs without them fall back to the ratio of median
total GFLOP/s (unpaired, no interval). A ratio of 1.00 means "as fast as
one BLAS call using the same cores". The DGEMM peer of a p-rank sweep is
the dgemm row with threads == p*threads. Rows flagged noisy (CSV column
noisy, or cv above 5 % in CSVs without it) show their cv in the noisy
column.
"""
import argparse
import math
import os
import statistics
import sys
from collections import defaultdict

# The readers of the files mmbench writes: python/mmbench_results.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from mmbench_results import read_plain  # noqa: E402

NOISY_CV = 0.05  # core/stats/paired_stats.hpp: kNoisyCoefficientOfVariation


def interval_coverage(n, level=0.95):
    """The coverage of the median's order-statistics interval at n samples
    (core/stats/paired_stats.cpp: interval_coverage)."""
    cdf = lambda k: sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    j = 1
    while j + 1 <= (n + 1) // 2 and 1 - 2 * cdf(j) >= level:
        j += 1
    return 1 - 2 * cdf(j - 1)


def coverage_label(c):
    """75 %, 96.8 %: rounded down, as mmbench prints it."""
    tenths = int(math.floor(c * 1000 + 1e-9))
    return f"{tenths // 10} %" if tenths % 10 == 0 else f"{tenths // 10}.{tenths % 10} %"


def row_coverage(r):
    """The exact coverage of the row's intervals: from its rounds (files
    before 2026-11-27 rounded ci_coverage to nearest, 0.96875 -> 0.969), else
    its ci_coverage."""
    if r.get("reps"):
        return interval_coverage(int(r["reps"]))
    if r.get("ci_coverage"):
        return float(r["ci_coverage"])
    return None


def row_cv_if_noisy(r):
    """The row's cv if it is flagged noisy, else None."""
    cv = float(r["cv"]) if r.get("cv") else None
    flagged = r["noisy"] == "yes" if r.get("noisy") in ("yes", "no") else (cv is not None and cv > NOISY_CV)
    return (cv if cv is not None else float("nan")) if flagged else None


def label(r):
    s = r["algo"]
    if r.get("lb"):
        s += f" lb={r['lb']}"
    if r.get("recursions") and r["recursions"] not in ("", "0"):
        s += f" r={r['recursions']}"
    if r.get("local_levels") and r["local_levels"] not in ("", "0"):
        s += f" L={r['local_levels']}"
        if r["local_levels"] == "auto" and r.get("local_levels_applied"):
            s += f"({r['local_levels_applied']})"
    if r.get("local_gemm") == "packed":
        s += " gemm=packed"
    if r.get("q7_split_rule") == "model":
        s += f" split={r['q7_split']}"
    if r.get("selected_by", "").startswith("auto"):
        s = "auto -> " + s
    return s


def fmt_ratio(ratio):
    if not ratio:
        return ""
    med, lo, hi, cov = ratio
    if lo is None:
        return f"{med:.2f}"
    return f"{med:.2f} [{lo:.2f}, {hi:.2f}]" + (f" ({coverage_label(cov)})" if cov is not None else "")


def fmt_noisy(cv):
    if cv is None:
        return ""
    return "noisy" if math.isnan(cv) else f"noisy, cv {100 * cv:.0f} %"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = ap.parse_args()
    try:
        # Not read_results: any table with the columns used here will do
        # (tests/plots/test_row_flags.py feeds it only those).
        rows = read_plain(args.csv).text_rows
    except ValueError as e:
        print(f"summarize: {e}", file=sys.stderr)
        return 2
    ok = [r for r in rows if r.get("status") == "ok"]
    if not ok:
        print("summarize: no ok rows in", args.csv, file=sys.stderr)
        return 0
    # The job's cores: ranks x BLAS threads (the dgemm peer runs 1 rank
    # with all of them as threads, so it groups with its p-rank sweep).
    groups = defaultdict(list)  # (job ranks, m, n, k) -> rows
    for r in ok:
        job = int(r["p"]) * int(r["threads"])  # dgemm rows: p = 1, threads = the job's cores
        groups[(job, r["m"], r["n"], r["k"])].append(r)
    out = []
    for (job, m, n, k), rs in sorted(groups.items(), key=lambda kv: (kv[0][0], int(kv[0][2]))):
        by_label = defaultdict(list)
        residuals = defaultdict(list)
        paired = defaultdict(list)  # label -> (median, lo, hi, coverage) of each row's paired peer ratio
        noisy = defaultdict(list)  # label -> cv of each row flagged noisy
        peaks = defaultdict(list)  # label -> peak_fraction of each row that has one (a profile's peak)
        for r in rs:
            if r.get("peak_fraction"):
                peaks[label(r)].append(float(r["peak_fraction"]))
            if (cv := row_cv_if_noisy(r)) is not None:
                noisy[label(r)].append(cv)
            by_label[label(r)].append(float(r["gflops_total"]))
            if r.get("residual"):
                residuals[label(r)].append(float(r["residual"]))
            if r.get("peer_ratio"):
                paired[label(r)].append((float(r["peer_ratio"]), float(r["peer_ratio_lo"]), float(r["peer_ratio_hi"]),
                                         row_coverage(r)))
        med = {lab: statistics.median(v) for lab, v in by_label.items()}
        peer = med.get("dgemm")
        best = max(med, key=med.get)
        for lab in sorted(med, key=med.get, reverse=True):
            ranks = int(next(r["p"] for r in rs if label(r) == lab))
            res = max(residuals[lab]) if residuals[lab] else None
            if paired[lab]:
                # one row per label and size in a sweep; several runs: the median row
                ratio = sorted(paired[lab])[len(paired[lab]) // 2]
            else:
                ratio = (med[lab] / peer, None, None, None) if peer else None
            # Several runs of a label: noisy if any was, with the largest cv.
            cvs = noisy[lab]
            nz = None if not cvs else (max(cvs) if not all(math.isnan(c) for c in cvs) else float("nan"))
            pk = statistics.median(peaks[lab]) if peaks[lab] else None
            out.append((job, n if m == n == k else f"{m}x{n}x{k}", lab, ranks, med[lab] * 1e3 / job,
                        ratio, lab == best, res, nz, pk))
    if args.markdown:
        print("| cores | n | algorithm | ranks | MFLOPS/core | of peak | vs DGEMM peer [interval] (coverage) | noisy "
              "| residual |")
        print("|---|---|---|---|---|---|---|---|---|")
        for job, n, lab, ranks, mf, ratio, best, res, nz, pk in out:
            b = "**" if best else ""
            rt = fmt_ratio(ratio)
            rs = f"{res:.2g}" if res is not None else ""
            pf = f"{pk:.2f}" if pk is not None else ""
            print(f"| {job} | {n} | {b}{lab}{b} | {ranks} | {mf:.0f} | {pf} | {rt} | {fmt_noisy(nz)} | {rs} |")
    else:
        print(f"{'cores':>5} {'n':>6}  {'algorithm':<34} {'ranks':>5} {'MFLOPS/core':>11} {'peak':>5} "
              f"{'vs DGEMM [int.] (coverage)':>29} {'residual':>9}  noisy")
        for job, n, lab, ranks, mf, ratio, best, res, nz, pk in out:
            rt = fmt_ratio(ratio)
            rs = f"{res:.2g}" if res is not None else ""
            pf = f"{pk:.2f}" if pk is not None else ""
            print(f"{job:>5} {n!s:>6}  {lab + (' *' if best else ''):<34} {ranks:>5} {mf:>11.0f} {pf:>5} {rt:>29} "
                  f"{rs:>9}  {fmt_noisy(nz)}".rstrip())
        print("(* = fastest measured for that size; ratios: t(DGEMM peer) / t(row), median over the interleaved")
        print(" rounds of the same run with its order-statistics interval and the coverage it has at that row's")
        print(" rounds (3: [min, max], 75 %); no interval = older CSV, ratio of medians; noisy = cv above 5 %,")
        print(" read its figures with care; residual = the largest normwise residual of the label's rows;")
        print(" peak = the rate over the measured peak of the cores used, from the profile; Strassen may exceed 1)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
