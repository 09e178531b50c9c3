#!/usr/bin/env python3
"""The refined model's PDGEMM (or 2.5D) against measured rows: for every row
of the given run CSVs where PDGEMM ran (status ok, one BLAS thread), the
prediction of `mmbench predict` for its p, n, grid and lb with the profile
the run was tuned with, and the error (predicted / measured - 1). With
--algo 2.5d the same for 2.5D's rows without local levels, keyed by their
replicas c instead of grid and lb.

    python3 scripts/pdgemm_model_check.py [--mmbench build/mmbench] [--one-level] [--algo 2.5d] \\
        RUN.csv:PROFILE.json [RUN.csv:PROFILE.json ...]

Prints one Markdown table per run (n, grid, lb, measured, predicted, error,
and the prediction the run recorded with the model of its day and that
error) and each run's median and largest |error|, now and as recorded. --one-level prices every message
with the profile's one latency and tau (predict --one-level-network).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

# The readers of the files mmbench writes: python/mmbench_results.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from mmbench_results import read_predict, read_results  # noqa: E402


def predicted(mm, profile, p, n, lbs, one_level, algo="pdgemm"):
    """(grid, lb) -> refined prediction [s] of pdgemm at p, n; for 2.5d
    ("", "c=<replicas>") without local levels."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "pred.csv")
        cmd = [mm, "predict", "--profile", profile, "--p", str(p), "--n", str(n), "--algo", algo,
               "--top", "0", "--csv", out]
        cmd += ["--lb", ",".join(sorted(lbs))] if algo == "pdgemm" else ["--local-strassen", "0"]
        if one_level:
            cmd.append("--one-level-network")
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        rows = [r for r in read_predict(out).text_rows if r.get("model", "refined") == "refined" and r.get("pred_refined")]
        if algo == "pdgemm":
            return {(r["grid"], r["lb"]): float(r["pred_refined"]) for r in rows}
        return {("", r["label"].split()[-1]): float(r["pred_refined"]) for r in rows if r["label"].startswith(algo + " c=")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+", help="RUN.csv:PROFILE.json")
    ap.add_argument("--mmbench", default="build/mmbench")
    ap.add_argument("--one-level", action="store_true")
    ap.add_argument("--algo", default="pdgemm", choices=["pdgemm", "2.5d"])
    a = ap.parse_args()
    every, every_recorded = [], []
    for pair in a.runs:
        run, profile = pair.rsplit(":", 1)
        rows = [r for r in read_results(run).text_rows if r.get("algo") == a.algo and r.get("status") == "ok"
                and r.get("threads", "1") == "1" and r.get("t_median")
                and r.get("local_levels_applied", "0") in ("", "0")]
        if a.algo == "2.5d":
            for r in rows:  # keyed like predicted()'s
                r["grid"], r["lb"] = "", "c=" + r["replicas"]
        if not rows:
            print(f"{run}: no {a.algo} rows", file=sys.stderr)
            continue
        cache, errs, recorded_errs = {}, [], []
        print(f"\n{run} (profile {profile})\n\n| p | n | grid | lb | measured [s] | refined [s] | error "
              "| recorded [s] | error |\n|---|---|---|---|---|---|---|---|---|")
        seen = set()
        for r in sorted(rows, key=lambda r: (int(r["p"]), int(r["n"]), r["grid"], r["lb"].rjust(8))):
            key = (int(r["p"]), int(r["n"]), r["grid"], r["lb"])
            if key in seen:
                continue
            seen.add(key)
            p, n = key[0], key[1]
            if (p, n) not in cache:
                lbs = {x["lb"] for x in rows if int(x["p"]) == p and int(x["n"]) == n}
                cache[(p, n)] = predicted(a.mmbench, profile, p, n, lbs, a.one_level, a.algo)
            pred = cache[(p, n)].get((r["grid"], r["lb"]))
            t = float(r["t_median"])
            if pred is None:
                print(f"| {p} | {n} | {r['grid']} | {r['lb']} | {t:.4g} | – | – |")
                continue
            err = pred / t - 1
            errs.append(abs(err))
            rec = float(r["pred_refined"]) if r.get("pred_refined") else None
            rec_cells = f"{rec:.4g} | {100 * (rec / t - 1):+.1f} %" if rec else "– | –"
            if rec:
                recorded_errs.append(abs(rec / t - 1))
            print(f"| {p} | {n} | {r['grid']} | {r['lb']} | {t:.4g} | {pred:.4g} | {100 * err:+.1f} % | {rec_cells} |")
        if errs:
            print(f"\nmedian |error| {100 * statistics.median(errs):.1f} %, largest {100 * max(errs):.1f} % "
                  f"over {len(errs)} points" + (f"; as recorded {100 * statistics.median(recorded_errs):.1f} %, "
                                               f"largest {100 * max(recorded_errs):.1f} %" if recorded_errs else ""))
            every += errs
            every_recorded += recorded_errs
    if every:
        print(f"\nall: median |error| {100 * statistics.median(every):.1f} %, largest {100 * max(every):.1f} % "
              f"over {len(every)} points" + (f"; as recorded {100 * statistics.median(every_recorded):.1f} %, "
                                             f"largest {100 * max(every_recorded):.1f} %" if every_recorded else ""))


if __name__ == "__main__":
    main()
