#!/usr/bin/env python3
"""Markdown table of a scripts/bench/dispatch.sh run (docs/results.md).

    python3 scripts/dispatch_summary.py results/.../dispatch-<host>-<stamp>.csv

One row per (n, variant): the median over rounds of each run's median call
time, GFLOP/s, the speed-up over plain ScaLAPACK and over the lb library
(per round, both from the same round: median [min, max]), and for the
dispatch variants what the census says ran the calls, with the model's
prediction beside the measured time of the calls after the first (the
first also builds the member's plan and buffers: its time is shown apart).
"""
import os
import statistics
import sys

# The readers of the files mmbench writes: python/mmbench_results.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from mmbench_results import read_census, read_plain  # noqa: E402


def census_of(run_csv, name):
    path = os.path.join(os.path.dirname(run_csv), name)
    return read_census(path).text_rows if name and os.path.exists(path) else []


def main():
    path = sys.argv[1]
    rows = read_plain(path).text_rows  # the bench script's own table (scripts/bench/dispatch.sh)
    if any(r["wrong"] != "0" for r in rows):
        sys.exit(f"{path}: a run's check failed")
    lu = rows[0]["mode"] == "lu"
    print("| n | variant | time [s] | GFLOP/s | vs plain [min, max] | vs lb [min, max] | rounds | what ran the calls "
          "(census) | predicted / measured per call [s] | first call [s] |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for n in sorted({int(r["n"]) for r in rows}):
        at = [r for r in rows if int(r["n"]) == n]
        t = {}
        for r in at:
            t.setdefault(r["variant"], {})[r["round"]] = float(r["t_median_s"])
        known = [v for v in ("plain", "lb", "classical", "strassen", "hybrid") if v in t]
        for v in known + sorted(v for v in t if v not in known):  # then force:MEMBER, ...
            mine = [r for r in at if r["variant"] == v]

            def vs(ref):
                if ref not in t or v == ref:
                    return "–"
                q = [t[ref][k] / t[v][k] for k in t[v] if k in t[ref]]
                return f"{statistics.median(q):.3f} [{min(q):.3f}, {max(q):.3f}]"
            choice, pred, first = "", "", ""
            census = [c for r in mine for c in census_of(path, r["census"])]
            if census:
                counts = {}
                for c in census:
                    counts[c["choice"]] = counts.get(c["choice"], 0) + 1
                choice = "; ".join(f"{c} ×{k}" for c, k in sorted(counts.items(), key=lambda x: -x[1]))
                if lu:
                    reasons = {c["reason"] for c in census}
                    choice += " (" + "; ".join(sorted(reasons))[:90] + ")"
                else:
                    later = [c for c in census if c["cached"] == "yes"]
                    firsts = [float(c["t_measured"]) for c in census if c["cached"] == "no"]
                    if later and later[0]["t_pred"]:
                        pred = (f"{float(later[0]['t_pred']):.3g} / "
                                f"{statistics.median(float(c['t_measured']) for c in later):.3g}")
                    if firsts:
                        first = f"{statistics.median(firsts):.3g}"
            print(f"| {n} | {v} | {statistics.median(t[v].values()):.3f} | "
                  f"{statistics.median(float(r['gflops']) for r in mine):.1f} | {vs('plain')} | {vs('lb')} | "
                  f"{len(t[v])} | {choice or '–'} | {pred or '–'} | {first or '–'} |")


if __name__ == "__main__":
    main()
