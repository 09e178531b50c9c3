#!/usr/bin/env python3
"""Summarize an `mmbench run` CSV: per (p, n) the best algorithm measured,
its MFLOPS/proc, every configuration's ratio to the DGEMM peer of the
same run (the `dgemm` rows: one rank using all of the job's cores) and its
residual (so the accuracy cost of local Strassen levels shows per L).

Usage: python3 scripts/summarize.py results/x.csv [--markdown]

Ratios: where the CSV has the paired columns (peer_ratio, peer_ratio_lo,
peer_ratio_hi: median over interleaved rounds of t(peer) / t(row), with its
order-statistics interval), those are shown with the interval and the
interval's real coverage (column ci_coverage: 75 % with 3 rounds, 87.5 % with
4, 93.75 % with 5, >= 95 % from 6 rounds on). Rows whose times vary by more
than 5 % (column noisy) say so with their coefficient of variation. Older CSVs without them
fall back to the ratio of median total GFLOP/s (unpaired, no interval). A
ratio of 1.00 means "as fast as one BLAS call using the same cores". The
DGEMM peer of a p-rank sweep is the dgemm row with threads == p*threads.
"""
import argparse
import csv
import statistics
import sys
from collections import defaultdict


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
    med, lo, hi = ratio
    return f"{med:.2f}" if lo is None else f"{med:.2f} [{lo:.2f}, {hi:.2f}]"


def fmt_coverage(cov):
    return "" if cov is None else f"{100 * cov:.4g} %"


def fmt_noisy(cv):
    return "" if cv is None else f"noisy (cv {100 * cv:.0f} %)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = ap.parse_args()
    try:
        rows = list(csv.DictReader(open(args.csv, newline="")))
    except OSError as e:
        print(f"summarize: cannot read {args.csv}: {e}", file=sys.stderr)
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
        paired = defaultdict(list)  # label -> (median, lo, hi) of each row's paired peer ratio
        coverage = {}  # label -> the interval's coverage (ci_coverage of its row)
        noisy = {}  # label -> coefficient of variation of a row flagged noisy
        for r in rs:
            by_label[label(r)].append(float(r["gflops_total"]))
            if r.get("residual"):
                residuals[label(r)].append(float(r["residual"]))
            if r.get("peer_ratio"):
                paired[label(r)].append((float(r["peer_ratio"]), float(r["peer_ratio_lo"]), float(r["peer_ratio_hi"])))
            if r.get("ci_coverage"):
                coverage[label(r)] = float(r["ci_coverage"])
            if r.get("noisy") == "yes" and r.get("cv"):
                noisy[label(r)] = max(noisy.get(label(r), 0.0), float(r["cv"]))
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
                ratio = (med[lab] / peer, None, None) if peer else None
            out.append((job, n if m == n == k else f"{m}x{n}x{k}", lab, ranks, med[lab] * 1e3 / job,
                        ratio, lab == best, res, coverage.get(lab), noisy.get(lab)))
    if args.markdown:
        print("| cores | n | algorithm | ranks | MFLOPS/core | vs DGEMM peer [interval] | coverage | noisy | residual |")
        print("|---|---|---|---|---|---|---|---|---|")
        for job, n, lab, ranks, mf, ratio, best, res, cov, cv in out:
            b = "**" if best else ""
            rt = fmt_ratio(ratio)
            rs = f"{res:.2g}" if res is not None else ""
            print(f"| {job} | {n} | {b}{lab}{b} | {ranks} | {mf:.0f} | {rt} | {fmt_coverage(cov)} | {fmt_noisy(cv)} | {rs} |")
    else:
        print(f"{'cores':>5} {'n':>6}  {'algorithm':<34} {'ranks':>5} {'MFLOPS/core':>11} {'vs DGEMM [interval]':>20}"
              f" {'coverage':>8} {'noisy':>12} {'residual':>9}")
        for job, n, lab, ranks, mf, ratio, best, res, cov, cv in out:
            rt = fmt_ratio(ratio)
            rs = f"{res:.2g}" if res is not None else ""
            print(f"{job:>5} {n!s:>6}  {lab + (' *' if best else ''):<34} {ranks:>5} {mf:>11.0f} {rt:>20}"
                  f" {fmt_coverage(cov):>8} {fmt_noisy(cv):>12} {rs:>9}")
        print("(* = fastest measured for that size; ratios: t(DGEMM peer) / t(row), median over the interleaved")
        print(" rounds of the same run with its interval, which covers the true median with the probability in")
        print(" 'coverage' (75 % with 3 rounds; >= 95 % from 6); no interval = older CSV, ratio of medians;")
        print(" noisy = times varied by more than 5 % (cv); residual = the largest normwise residual of the label's rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
