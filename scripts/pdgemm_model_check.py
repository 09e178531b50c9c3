#!/usr/bin/env python3
"""The refined model's PDGEMM against measured PDGEMM rows: for every row of
the given run CSVs where PDGEMM ran (status ok, one BLAS thread), the
prediction of `mmbench predict` for its p, n, grid and lb with the profile
the run was tuned with, and the error (predicted / measured - 1).

    python3 scripts/pdgemm_model_check.py [--mmbench build/mmbench] [--one-level] \\
        RUN.csv:PROFILE.json [RUN.csv:PROFILE.json ...]

Prints one Markdown table per run (n, grid, lb, measured, predicted, error)
and each run's median and largest |error|. --one-level prices every message
with the profile's one latency and tau (predict --one-level-network).
"""
import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile


def predicted(mm, profile, p, n, lbs, one_level):
    """(grid, lb) -> refined prediction [s] of pdgemm at p, n."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "pred.csv")
        cmd = [mm, "predict", "--profile", profile, "--p", str(p), "--n", str(n), "--algo", "pdgemm",
               "--lb", ",".join(sorted(lbs)), "--top", "0", "--csv", out]
        if one_level:
            cmd.append("--one-level-network")
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        return {(r["grid"], r["lb"]): float(r["pred_refined"]) for r in csv.DictReader(open(out))
                if r.get("model", "refined") == "refined" and r.get("pred_refined")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+", help="RUN.csv:PROFILE.json")
    ap.add_argument("--mmbench", default="build/mmbench")
    ap.add_argument("--one-level", action="store_true")
    a = ap.parse_args()
    every = []
    for pair in a.runs:
        run, profile = pair.rsplit(":", 1)
        rows = [r for r in csv.DictReader(open(run)) if r.get("algo") == "pdgemm" and r.get("status") == "ok"
                and r.get("threads", "1") == "1" and r.get("t_median")]
        if not rows:
            print(f"{run}: no PDGEMM rows", file=sys.stderr)
            continue
        cache, errs = {}, []
        print(f"\n{run} (profile {profile})\n\n| p | n | grid | lb | measured [s] | refined [s] | error |\n"
              "|---|---|---|---|---|---|---|")
        seen = set()
        for r in sorted(rows, key=lambda r: (int(r["p"]), int(r["n"]), r["grid"], int(r["lb"]))):
            key = (int(r["p"]), int(r["n"]), r["grid"], r["lb"])
            if key in seen:
                continue
            seen.add(key)
            p, n = key[0], key[1]
            if (p, n) not in cache:
                lbs = {x["lb"] for x in rows if int(x["p"]) == p and int(x["n"]) == n}
                cache[(p, n)] = predicted(a.mmbench, profile, p, n, lbs, a.one_level)
            pred = cache[(p, n)].get((r["grid"], r["lb"]))
            t = float(r["t_median"])
            if pred is None:
                print(f"| {p} | {n} | {r['grid']} | {r['lb']} | {t:.4g} | – | – |")
                continue
            err = pred / t - 1
            errs.append(abs(err))
            print(f"| {p} | {n} | {r['grid']} | {r['lb']} | {t:.4g} | {pred:.4g} | {100 * err:+.1f} % |")
        if errs:
            print(f"\nmedian |error| {100 * statistics.median(errs):.1f} %, largest {100 * max(errs):.1f} % "
                  f"over {len(errs)} points")
            every += errs
    if every:
        print(f"\nall: median |error| {100 * statistics.median(every):.1f} %, largest {100 * max(every):.1f} % "
              f"over {len(every)} points")


if __name__ == "__main__":
    main()
