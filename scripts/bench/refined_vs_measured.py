#!/usr/bin/env python3
"""The refined model against measured rows, with and without one part of the
profile: for each measured configuration (algo, ranks, threads, n, lb, local
levels) of a run CSV, `mmbench predict` with the profile as it is and with a
copy that lacks --without: `ladder` (cpu_peak's busy-core ladder: the
pricing before the models knew how many cores a configuration keeps busy)
or `kernel_model` (the DGEMM fit that carries a profile point's rate to
other shapes). Prints a Markdown table and the median and largest |error|.

    scripts/bench/refined_vs_measured.py MEASURED.csv PROFILE.json [--without ladder|kernel_model] [--mm build/mmbench]

Reads files and predicts; times nothing. Rows whose status is not ok are
left out, and so are rows predict prices otherwise than they ran (a local
cut-off other than the profile's, or 256 without one).
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


def without(profile_path, part, out_path):
    with open(profile_path) as f:
        p = json.load(f)
    if part == "ladder":
        peak = p.get("cpu_peak")
        if peak:
            peak.pop("by_busy_cores", None)
            for isa in peak.get("isas", []):
                isa.pop("by_busy_cores", None)
    else:
        p.pop("kernel_model", None)
    with open(out_path, "w") as f:
        json.dump(p, f)


def predict(mm, profile, row, ranks, csv_path):
    # dgemm's row says p = 1 with all cores as threads; predict takes the
    # job's ranks and gives dgemm p x threads threads.
    algo, levels = row["algo"], row.get("local_levels") or "0"
    cmd = [mm, "predict", "--p", str(ranks), "--n", row["n"], "--m", row["m"], "--k", row["k"], "--profile", profile,
           "--algo", algo, "--local-strassen", levels, "--top", "0", "--csv", csv_path]
    if row.get("local_gemm") and levels != "0":
        cmd += ["--local-gemm", row["local_gemm"]]
    if row.get("lb"):
        cmd += ["--lb", row["lb"]]
    if algo != "dgemm":
        cmd += ["--threads", row["threads"]]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(csv_path) as f:
        rows = [r for r in csv.DictReader(f) if r["algo"] == algo and (not row.get("lb") or r["lb"] == row["lb"])]
    os.unlink(csv_path)
    return float(rows[0]["pred_refined"]) if rows else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("measured")
    ap.add_argument("profile")
    ap.add_argument("--without", choices=["ladder", "kernel_model"], default="ladder")
    ap.add_argument("--mm", default=os.path.join(ROOT, "build", "mmbench"))
    a = ap.parse_args()
    with open(a.profile) as f:
        crossover = (json.load(f).get("strassen_crossover") or {}).get("local_l1_n") or 256
    with tempfile.TemporaryDirectory() as tmp:
        flat = os.path.join(tmp, "without.json")
        without(a.profile, a.without, flat)
        out = os.path.join(tmp, "p.csv")
        name = "ladder" if a.without == "ladder" else "kernel model"
        print(f"Measured `{os.path.relpath(a.measured, ROOT)}`, profile `{os.path.relpath(a.profile, ROOT)}`: the refined "
              f"model of `mmbench predict` with the profile and with a copy without its {name}; error = predicted / "
              "measured - 1.\n")
        print(f"| algo | ranks | threads | n | lb | L | measured [s] | refined, no {name} | error | refined | error |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        errs = {"before": [], "after": []}
        for r in read_results(a.measured).text_rows:
            if not r.get("status", "").startswith("ok") or not r.get("t_median"):
                continue
            if r.get("local_cutoff") and int(r["local_cutoff"]) != int(crossover):
                continue
            algo, threads, n = r["algo"], int(r["threads"]), int(r["n"])
            ranks = threads if algo == "dgemm" else int(r["p"])  # dgemm: rank 0 for the job's ranks
            t = float(r["t_median"])
            before = predict(a.mm, flat, r, ranks, out)
            after = predict(a.mm, a.profile, r, ranks, out)
            if before is None or after is None:
                continue
            eb, ea = before / t - 1, after / t - 1
            errs["before"].append(abs(eb))
            errs["after"].append(abs(ea))
            print(f"| {algo} | {ranks} | {threads if algo != 'dgemm' else ranks} | {n} | {r.get('lb') or ''} | "
                  f"{r.get('local_levels') or 0} | {t:.4g} | {before:.4g} | {100 * eb:+.1f} % | {after:.4g} | "
                  f"{100 * ea:+.1f} % |")
        for k, v in errs.items():
            if v:
                print(f"\n- {'without the ' + name if k == 'before' else 'with the profile as it is'}: median |error| "
                      f"{100 * statistics.median(v):.1f} %, largest {100 * max(v):.1f} % over {len(v)} rows", end="")
        print()


if __name__ == "__main__":
    main()
