#!/usr/bin/env python3
"""Summary of scripts/bench/tuner_lb.sh: is the tuned lb the one PDGEMM wants?

  tuner_lb_summary.py --sweep-lbs 32,48,64 PROFILE.json ...
      prints the sweep's lb list: the given values plus every profile's lb
      and rule_lb, sorted, without duplicates.
  tuner_lb_summary.py --sweep SWEEP.csv PROFILE.json ...
      the PDGEMM sweep (rows of `mmbench run --algo pdgemm`, one row per lb
      and round: the k-th row of an lb belongs to round k) against each
      profile's lb and rule_lb.

Per lb: the median over rounds of MFLOPS per core, and of the paired speed
ratios of a round (t(other) / t(lb) within the same round, so drift between
rounds cancels). "vs best" is the median over rounds of t(best) / t(lb),
where best is the lb with the highest median speed relative to lb = 32;
"vs 32" the median of t(32) / t(lb). Exit code 2 on unusable input.
"""
import argparse
import os
import statistics
import sys

# The readers of the files mmbench writes: python/mmbench_results.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from mmbench_results import read_profile, read_results  # noqa: E402


def fail(msg):
    print("tuner_lb_summary: " + msg, file=sys.stderr)
    sys.exit(2)


def load_profiles(paths):
    out = []
    for p in paths:
        try:
            d = read_profile(p)
        except ValueError as e:
            fail(str(e))
        if "lb" not in d or "tuning_problem" not in d:
            fail("%s: not an mmbench profile (no lb / tuning_problem)" % p)
        out.append({"path": p, "n": d["tuning_problem"]["n"], "lb": int(d["lb"]),
                    "rule_lb": int(d.get("rule_lb", d["lb"])),
                    "checked": "lb_check" in d})
    return out


def load_sweep(path):
    """{lb: [seconds of round 0, round 1, ...]} and {lb: [mflops per core, ...]}"""
    times, rates = {}, {}
    try:
        rows = read_results(path).text_rows
    except ValueError as e:
        fail(str(e))
    for r in rows:
        if r.get("algo") != "pdgemm" or r.get("status") != "ok":
            continue
        try:
            lb = int(r["lb"])
            t = float(r["t_median"])
            mf = float(r["mflops_per_proc"])
        except (KeyError, ValueError):
            fail("%s: a pdgemm row without lb, t_median or mflops_per_proc" % path)
        times.setdefault(lb, []).append(t)
        rates.setdefault(lb, []).append(mf)
    if not times:
        fail("%s: no ok pdgemm rows" % path)
    return times, rates


def paired_ratio(times, num, den):
    """median over the rounds both have of t(num) / t(den): > 1 = den faster."""
    k = min(len(times[num]), len(times[den]))
    return statistics.median(times[num][i] / times[den][i] for i in range(k))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sweep-lbs", help="comma-separated lb values of the sweep")
    ap.add_argument("--sweep", help="the sweep's results CSV")
    ap.add_argument("profiles", nargs="*")
    a = ap.parse_args()
    profiles = load_profiles(a.profiles)
    if a.sweep_lbs is not None:
        try:
            lbs = {int(v) for v in a.sweep_lbs.split(",") if v.strip()}
        except ValueError:
            fail("--sweep-lbs: not a list of integers: %s" % a.sweep_lbs)
        for p in profiles:
            lbs.update((p["lb"], p["rule_lb"]))
        print(",".join(str(v) for v in sorted(lbs)))
        return
    if a.sweep is None:
        fail("give --sweep CSV or --sweep-lbs LIST")
    times, rates = load_sweep(a.sweep)
    if 32 not in times:
        fail("%s: the sweep has no lb = 32 (the reference)" % a.sweep)
    rounds = min(len(v) for v in times.values())
    speed32 = {lb: paired_ratio(times, 32, lb) for lb in times}
    best = max(sorted(times), key=lambda lb: speed32[lb])
    print("PDGEMM sweep %s: %d lb values, %d rounds (pairs formed within a round)" % (a.sweep, len(times), rounds))
    print()
    print("| lb | MFLOPS/core (median) | vs lb = 32 | vs best (lb = %d) |" % best)
    print("|---|---|---|---|")
    for lb in sorted(times):
        print("| %d%s | %.0f | %.3f | %.3f |" % (lb, " (best)" if lb == best else "", statistics.median(rates[lb]),
                                              speed32[lb], paired_ratio(times, best, lb)))
    if not profiles:
        return
    print()
    print("| profile | tuned at n | lb | lb vs best | lb vs 32 | rule_lb | rule_lb vs best | rule_lb vs 32 |")
    print("|---|---|---|---|---|---|---|---|")
    missing = False

    def cell(lb):
        nonlocal missing
        if lb not in times:
            missing = True
            return "not swept", "-"
        return "%.3f" % paired_ratio(times, best, lb), "%.3f" % speed32[lb]

    for p in profiles:
        lb_best, lb_32 = cell(p["lb"])
        r_best, r_32 = cell(p["rule_lb"])
        print("| %s | %d | %d%s | %s | %s | %d | %s | %s |" % (
            p["path"], p["n"], p["lb"], "" if p["checked"] else " (unchecked)", lb_best, lb_32,
            p["rule_lb"], r_best, r_32))
    if missing:
        print("\n(a profile's lb was not in the sweep: run the sweep with --sweep-lbs to include it)")


if __name__ == "__main__":
    main()
