#!/usr/bin/env python3
"""Ranks x threads layouts, measured and priced: for run CSVs that each ran
one layout P x T of the same job (P ranks of T BLAS threads, P x T the same
cores; `mpirun -n P --map-by slot:PE=T ... run --threads T`) beside the
DGEMM peer, the measured speed over the peer's (peer_ratio, same run)
against the refined model's: `mmbench predict` for a job of P x T ranks
with the profile, where a layout of P ranks x T threads is the hybrid
t = T (`--hybrid`, docs/cost-models.md), its ratio the peer's predicted
time over the layout's. Prints a Markdown table and both orders of the
layouts per algorithm.

    scripts/bench/hybrid_vs_measured.py PROFILE.json LAYOUT.csv... [--mm build/mmbench]

Reads files and predicts; times nothing. PDGEMM rows are matched by the
grid they ran on and their lb.
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
from mmbench_results import read_results  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def predicted(mm, profile, cores, n, algos, tmp):
    """The refined prediction of every candidate, by (algo, hybrid, grid, lb)."""
    out = os.path.join(tmp, "predict.csv")
    subprocess.run([mm, "predict", "--profile", profile, "--p", str(cores), "--n", str(n), "--algo", ",".join(algos),
                    "--lb", "default", "--local-strassen", "0", "--top", "0", "--csv", out], check=True,
                   stdout=subprocess.DEVNULL)
    prices = {}
    with open(out) as f:
        for r in csv.DictReader(f):
            label = r["label"]
            hybrid = int(label.split(" hybrid=")[1].split()[0]) if " hybrid=" in label else 1
            prices[(r["algo"], hybrid, r.get("grid") or "", r.get("lb") or "")] = float(r["pred_refined"])
    os.unlink(out)
    return prices


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("profile")
    ap.add_argument("layouts", nargs="+")
    ap.add_argument("--mm", default=os.path.join(ROOT, "build", "mmbench"))
    a = ap.parse_args()
    rows = []
    for path in a.layouts:
        for r in read_results(path).text_rows:
            if r.get("status", "").startswith("ok") and r["algo"] != "dgemm" and r.get("peer_ratio"):
                rows.append((path, r))
    cores = {int(r["p"]) * int(r["threads"]) for _, r in rows}
    sizes = {int(r["n"]) for _, r in rows}
    if len(cores) != 1 or len(sizes) != 1:
        sys.exit("hybrid_vs_measured: the layouts must share one core count and one n")
    cores, n = cores.pop(), sizes.pop()
    algos = sorted({r["algo"] for _, r in rows}) + ["dgemm"]
    with tempfile.TemporaryDirectory() as tmp:
        prices = predicted(a.mm, a.profile, cores, n, algos, tmp)
    peer = prices[("dgemm", 1, "", "")]
    print(f"Measured: {', '.join('`' + os.path.relpath(p, ROOT) + '`' for p in a.layouts)}; profile "
          f"`{os.path.relpath(a.profile, ROOT)}`; n = {n} on {cores} cores. Speed over the DGEMM peer's: measured "
          "(peer_ratio against its own run's peer, with the median's interval) and the refined model's "
          f"(`mmbench predict --p {cores}`, the layout as hybrid t = threads).\n")
    print("| algo | ranks x threads | grid | lb | measured vs peer | predicted vs peer | predicted / measured |")
    print("|---|---|---|---|---|---|---|")
    by_algo = {}
    for path, r in sorted(rows, key=lambda x: (x[1]["algo"], -int(x[1]["p"]))):
        algo, p, t = r["algo"], int(r["p"]), int(r["threads"])
        key = (algo, t, r.get("grid") or "", r.get("lb") or "")
        if p == 1 or key not in prices:
            why = "one rank: the peer's own layout, not ranked as a hybrid" if p == 1 else "not priced"
            print(f"| {algo} | {p} x {t} | {key[2]} | {key[3]} | {float(r['peer_ratio']):.3f} | ({why}) | |")
            continue
        pred = peer / prices[key]
        meas = float(r["peer_ratio"])
        by_algo.setdefault(algo, []).append((f"{p}x{t}", meas, pred))
        print(f"| {algo} | {p} x {t} | {key[2]} | {key[3]} | {meas:.3f} [{float(r['peer_ratio_lo']):.3f}, "
              f"{float(r['peer_ratio_hi']):.3f}] | {pred:.3f} | {pred / meas:.2f} |")
    print()
    for algo, v in by_algo.items():
        measured = " > ".join(x[0] for x in sorted(v, key=lambda x: -x[1]))
        model = " > ".join(x[0] for x in sorted(v, key=lambda x: -x[2]))
        print(f"- {algo}, fastest first: measured {measured}; predicted {model}")


if __name__ == "__main__":
    main()
