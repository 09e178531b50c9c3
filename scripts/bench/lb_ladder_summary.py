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

Another profile's tuned lbs can be read from the explicit rows of the same
ladder: NAME=N:LB,N:LB,... (the lb that profile's curve gives at each n, as
`tune` prints it) adds a table of those rows' times over the best's.

usage: lb_ladder_summary.py LADDER.csv [TUNED_LB] [NAME=N:LB,...]...
Exit status 1 when an n has no row of the tuned lb or a tuned row lacks its
lb in force, or a NAME's lb has no row at its n.
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
    args = sys.argv[1:]
    others = [a for a in args[1:] if "=" in a]
    plain = [args[0]] + [a for a in args[1:] if "=" not in a] if args else []
    if len(plain) not in (1, 2):
        print(__doc__.strip().splitlines()[-3], file=sys.stderr)
        return 2
    path = plain[0]
    tuned = plain[1] if len(plain) == 2 else None
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
    for other in others:
        name, spec = other.split("=", 1)
        print()
        print(f"| n | {name}: lb in force | its median time [s] | best lb | {name} / best, median [min, max] over rounds |")
        print("|---|---|---|---|---|")
        for item in spec.split(","):
            n_text, lb = item.split(":")
            n = int(n_text)
            lbs = by_n.get(n, {})
            if lb not in lbs:
                bad.append(f"n = {n}: no row of lb {lb} ({name})")
                continue
            med = {k: statistics.median(t) for k, t in lbs.items()}
            best = min(med, key=med.get)
            ratios = [a / b for a, b in zip(lbs[lb], lbs[best])]
            best_name = f"auto={in_force.get(n, '?')}" if best == "auto" else best
            print(f"| {n} | {lb} | {med[lb]:.4g} | {best_name} | "
                  f"{statistics.median(ratios):.3f} [{min(ratios):.3f}, {max(ratios):.3f}] |")
    for b in bad:
        print(f"lb_ladder_summary.py: {b}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
