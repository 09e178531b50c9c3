#!/usr/bin/env python3
"""Summarize an interleaved lb ladder (one `mmbench run --algo pdgemm --lb
32,64,...,auto` per run, scripts/bench/lb_ladder.sh): per n, every lb's median
time, and the tuned lb's time over the best lb's, per round (rounds
interleave, so round i of two rows ran in the same minute) with the median
and [min, max] of those ratios.

The tuned lb is the row whose `lb_asked` is `auto:<profile lb>`; its `lb` is
the lb in force at that n (the profile's, capped: docs/cost-models.md, "An lb
that fits every size"), shown as `auto=<lb>`. CSVs from before `lb_asked`
name the tuned lb on the command line instead (its rows are then the ones
with that lb).

usage: lb_ladder_summary.py LADDER.csv [TUNED_LB]
Exit status 1 when an n has no row of the tuned lb or a tuned row lacks its
lb in force.
"""
import os
import statistics
import sys
from collections import defaultdict

# The readers of the files mmbench writes: python/mmbench_results.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
from mmbench_results import read_results  # noqa: E402


def label(row, tuned):
    asked = row.get("lb_asked") or ""
    if asked.startswith("auto:"):
        return "auto"
    if not asked and tuned is not None and row["lb"] == tuned:
        return "auto"
    return row["lb"]


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip().splitlines()[-3], file=sys.stderr)
        return 2
    path = sys.argv[1]
    tuned = sys.argv[2] if len(sys.argv) == 3 else None
    rows = [r for r in read_results(path).text_rows if r["status"] == "ok" and r["algo"] == "pdgemm"]
    by_n = defaultdict(dict)
    in_force = {}
    profile_lb = set()
    bad = []
    for r in rows:
        n = int(r["n"])
        name = label(r, tuned)
        by_n[n][name] = [float(x) for x in r["t_rounds"].split(";") if x]
        if name == "auto":
            if not r["lb"]:
                bad.append(f"n = {n}: the tuned lb's row has no lb in force")
            in_force[n] = r["lb"]
            asked = r.get("lb_asked") or ""
            profile_lb.add(asked.split(":", 1)[1] if asked.startswith("auto:") else (tuned or "?"))
    tuned_name = "/".join(sorted(profile_lb)) or (tuned or "?")
    print(f"| n | lb: median time [s] | best lb | tuned lb (profile {tuned_name}) in force "
          f"| tuned / best, median [min, max] over rounds |")
    print("|---|---|---|---|---|")
    for n in sorted(by_n):
        lbs = by_n[n]
        med = {lb: statistics.median(t) for lb, t in lbs.items()}
        best = min(med, key=med.get)
        order = sorted((lb for lb in med if lb != "auto"), key=int) + (["auto"] if "auto" in med else [])
        cells = ", ".join((f"auto={in_force.get(n, '?')}" if lb == "auto" else lb) + f": {med[lb]:.4g}"
                          for lb in order)
        if "auto" in lbs:
            ratios = [a / b for a, b in zip(lbs["auto"], lbs[best])]
            rt = f"{statistics.median(ratios):.3f} [{min(ratios):.3f}, {max(ratios):.3f}]"
            best_name = f"auto={in_force.get(n, '?')}" if best == "auto" else best
        else:
            rt = "tuned lb not in the ladder"
            best_name = best
            bad.append(f"n = {n}: no row of the tuned lb")
        print(f"| {n} | {cells} | {best_name} | {in_force.get(n, '')} | {rt} |")
    for b in bad:
        print(f"lb_ladder_summary.py: {b}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
