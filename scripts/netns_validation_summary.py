#!/usr/bin/env python3
"""Markdown tables of scripts/bench/netns_validation.sh's runs: every
measured configuration beside the refined model's prediction from the
profile tuned on that cluster (two levels where it measured both), the
error, and the share of the prediction that is communication not hidden
behind computation (from `mmbench predict --csv` with the same profile);
auto's regret per problem; the tuned lb against the best lb of the ladder.

    python3 scripts/netns_validation_summary.py DIR [--mmbench build/mmbench]

A row counts toward the goal (the model within 15 %) only where
communication is at least 30 % of the predicted time: the network is what
these runs test.
"""
import argparse
import csv
import glob
import json
import os
import subprocess
import tempfile


def key(r):
    """What identifies a candidate in both the run and the predict CSV."""
    algo = r["algo"]
    lb = r.get("lb", "") if algo == "pdgemm" else ""
    c = r.get("replicas", "") if algo == "2.5d" else ""
    return (algo, lb, c)


def predictions(mm, profile, p, n):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "pred.csv")
        subprocess.run([mm, "predict", "--profile", profile, "--p", str(p), "--n", str(n), "--top", "0",
                        "--csv", out], check=True, stdout=subprocess.DEVNULL)
        return {key(r): r for r in csv.DictReader(open(out)) if r.get("model", "refined") == "refined"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--mmbench", default="build/mmbench")
    a = ap.parse_args()
    tags = sorted(os.path.basename(f)[:-4] for f in glob.glob(os.path.join(a.dir, "*.csv"))
                  if not f.endswith(("-validate.csv", "-dgemm-profile.csv", "-lb-check.csv", "-kernel-model.csv")))
    print("| cluster | n | configuration | measured [s] (interval) | refined model [s] | error | communication share |")
    print("|---|---|---|---|---|---|---|")
    summary = []
    for tag in tags:
        profile = os.path.join(a.dir, tag + "-profile.json")
        rows = [r for r in csv.DictReader(open(os.path.join(a.dir, tag + ".csv"))) if r["status"] == "ok"]
        cache = {}
        within, counted = 0, 0
        for r in rows:
            p, n = int(r["p"]), int(r["n"])
            if (p, n) not in cache:
                cache[(p, n)] = predictions(a.mmbench, profile, p, n)
            pred = cache[(p, n)].get(key(r))
            t = float(r["t_median"])
            label = r["algo"] + (f" lb={r['lb']}" if r["algo"] == "pdgemm" else "") + \
                (" (auto)" if r.get("selected_by", "user").startswith("auto") else "")
            if pred is None or not pred.get("pred_refined"):
                print(f"| {tag} | {n} | {label} | {t:.4g} | – | – | – |")
                continue
            model = float(pred["pred_refined"])
            share = float(pred["comm_refined"]) / model if model > 0 else 0.0
            err = model / t - 1
            if share >= 0.3:
                counted += 1
                within += abs(err) <= 0.15
            interval = f" ({float(r['t_median_lo']):.4g}–{float(r['t_median_hi']):.4g})" if r.get("t_median_lo") else ""
            print(f"| {tag} | {n} | {label} | {t:.4g}{interval} | {model:.4g} | {100 * err:+.1f} % | {100 * share:.0f} % |")
        summary.append((tag, within, counted))
    print()
    for tag, within, counted in summary:
        print(f"- {tag}: the model within 15 % at {within} of {counted} points where communication is at least 30 % "
              f"of the prediction")
    print("\n| cluster | n | auto's pick | best | regret [interval] |")
    print("|---|---|---|---|---|")
    for tag in tags:
        path = os.path.join(a.dir, tag + "-validate.csv")
        if not os.path.exists(path):
            continue
        for r in csv.DictReader(open(path)):
            print(f"| {tag} | {r['n']} | {r['pick']} | {r['best']} | {float(r['regret']):.3f} "
                  f"[{float(r['regret_ci_lo']):.3f}, {float(r['regret_ci_hi']):.3f}] |")
    print("\n| cluster | n | tuned lb | its time / the best lb's | best lb |")
    print("|---|---|---|---|---|")
    for tag in tags:
        profile = json.load(open(os.path.join(a.dir, tag + "-profile.json")))
        rows = [r for r in csv.DictReader(open(os.path.join(a.dir, tag + ".csv")))
                if r["status"] == "ok" and r["algo"] == "pdgemm"]
        for n in sorted({int(r["n"]) for r in rows}):
            at = {r["lb"]: float(r["t_median"]) for r in rows if int(r["n"]) == n}
            tuned = [r for r in rows if int(r["n"]) == n and r.get("lb_asked") == "auto"]
            if not at or not tuned:
                continue
            best = min(at, key=at.get)
            t_tuned = float(tuned[0]["t_median"])
            print(f"| {tag} | {n} | {tuned[0]['lb']} (profile {profile['lb']}) | {t_tuned / at[best]:.3f} | {best} |")


if __name__ == "__main__":
    main()
