#!/usr/bin/env python3
"""The refined model against measured rows, with and without the profile's
busy-core ladder: for each measured configuration (algo, ranks, threads, n,
L = 0) of a run CSV, `mmbench predict` with the profile as it is and with a
copy whose cpu_peak has no busy-core ladder (the pricing before the models
knew how many cores a configuration keeps busy). Prints a Markdown table.

    scripts/bench/refined_vs_measured.py MEASURED.csv PROFILE.json [--mm build/mmbench]

Reads files and predicts; times nothing. Rows with local levels or a
status other than ok are left out.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
from mmbench_results import read_results  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def without_ladder(profile_path, out_path):
    with open(profile_path) as f:
        p = json.load(f)
    peak = p.get("cpu_peak")
    if peak:
        peak.pop("by_busy_cores", None)
        for isa in peak.get("isas", []):
            isa.pop("by_busy_cores", None)
    with open(out_path, "w") as f:
        json.dump(p, f)


def predict(mm, profile, algo, ranks, threads, n, csv_path):
    # dgemm's row says p = 1 with all cores as threads; predict takes the
    # job's ranks and gives dgemm p x threads threads.
    cmd = [mm, "predict", "--p", str(ranks), "--n", str(n), "--profile", profile, "--algo", algo,
           "--local-strassen", "0", "--lb", "default", "--top", "0", "--csv", csv_path]
    if algo != "dgemm":
        cmd += ["--threads", str(threads)]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(csv_path) as f:
        rows = [r for r in csv.DictReader(f) if r["algo"] == algo]
    os.unlink(csv_path)
    return float(rows[0]["pred_refined"]) if rows else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("measured")
    ap.add_argument("profile")
    ap.add_argument("--mm", default=os.path.join(ROOT, "build", "mmbench"))
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        flat = os.path.join(tmp, "no-ladder.json")
        without_ladder(a.profile, flat)
        out = os.path.join(tmp, "p.csv")
        print("| algo | ranks | threads | n | measured [s] | refined, no ladder | error | refined, busy cores | error |")
        print("|---|---|---|---|---|---|---|---|---|")
        errs = {"before": [], "after": []}
        for r in read_results(a.measured).text_rows:
            if r.get("status", "ok") != "ok" or str(r.get("local_levels", "0")) not in ("0", ""):
                continue
            algo, threads, n = r["algo"], int(r["threads"]), int(r["n"])
            ranks = threads if algo == "dgemm" else int(r["p"])  # dgemm: rank 0 for the job's ranks
            t = float(r["t_median"])
            before = predict(a.mm, flat, algo, ranks, 1 if algo == "dgemm" else threads, n, out)
            after = predict(a.mm, a.profile, algo, ranks, 1 if algo == "dgemm" else threads, n, out)
            if before is None or after is None:
                continue
            eb, ea = before / t - 1, after / t - 1
            errs["before"].append(abs(eb))
            errs["after"].append(abs(ea))
            print(f"| {algo} | {ranks} | {threads if algo != 'dgemm' else ranks} | {n} | {t:.4g} | {before:.4g} | "
                  f"{100 * eb:+.1f} % | {after:.4g} | {100 * ea:+.1f} % |")
        for k, v in errs.items():
            if v:
                print(f"\n- {'without the ladder' if k == 'before' else 'with the busy-core ladder'}: median |error| "
                      f"{100 * statistics.median(v):.1f} %, largest {100 * max(v):.1f} % over {len(v)} rows", end="")
        print()


if __name__ == "__main__":
    main()
