#!/usr/bin/env python3
"""Compare the model's Q7 split with the paper's (eq. 2.18) in an
`mmbench predict` CSV: for every candidate labelled split=model(...), the
refined prediction of the same candidate with the paper's split and the
predicted gain.

Usage: python3 scripts/q7_split_compare.py results/q7-split-predict-*.csv [--markdown]
"""
import argparse
import os
import sys

# The readers of the files mmbench writes: python/mmbench_results.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from mmbench_results import read_predict  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    rows = read_predict(args.csv).text_rows
    out = []
    for r in rows:
        if "split=model" not in r["label"]:
            continue
        base = r["label"].split(" split=")[0]
        paper = [q for q in rows if q["label"] == base and q["p"] == r["p"] and q["n"] == r["n"]]
        if not paper:
            continue
        tp, tm = float(paper[0]["pred_refined"]), float(r["pred_refined"])
        out.append((int(r["p"]), r["n"], r["label"], tp, tm, 100 * (tp - tm) / tp))
    out.sort(key=lambda t: (t[0], t[2]))
    if args.markdown:
        print("| p | n | candidate (split = its first level) | paper split [s] | model split [s] | predicted gain |")
        print("|---|---|---|---|---|---|")
        for p, n, lab, tp, tm, g in out:
            print(f"| {p} | {n} | {lab} | {tp:.4g} | {tm:.4g} | {g:.1f}% |")
    else:
        print(f"{'p':>4} {'n':>6} {'candidate (split = its first level)':<58} {'paper s':>9} {'model s':>9} {'gain':>6}")
        for p, n, lab, tp, tm, g in out:
            print(f"{p:>4} {n:>6} {lab:<58} {tp:>9.4g} {tm:>9.4g} {g:>5.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
