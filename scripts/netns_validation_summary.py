#!/usr/bin/env python3
"""Markdown tables of scripts/bench/netns_validation.sh's runs: every
measured configuration beside the refined model's prediction from the
profile tuned on that cluster (two levels where it measured both), the
error, and the share of the prediction that is communication not hidden
behind computation (from `mmbench predict --csv` with the same profile);
auto's regret per problem; the tuned lb against the best lb of the ladder.

    python3 scripts/netns_validation_summary.py DIR [--simulated SIMDIR] [--mmbench build/mmbench]

A row counts toward the goals (the model within 15 %, the simulation
within 10 %) only where communication is at least 30 % of the predicted
time: the network is what these runs test. Where DIR/<tag>-simulated.csv
(or SIMDIR/<tag>-simulated.csv, --simulated SIMDIR) exists
(scripts/bench/netns_simulate.sh: the same run simulated, charged,
on a platform written from the cluster's profile), its time and error are
columns too.
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile

# The readers of the files mmbench writes: python/mmbench_results.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from mmbench_results import read_predict, read_profile, read_results, read_validate  # noqa: E402


def levels(r):
    """Local Strassen levels a row ran with (0 where none)."""
    v = r.get("local_levels_applied") or r.get("local_levels") or "0"
    return int(v) if v.isdigit() else 0


def key(r):
    """What identifies a configuration in the run CSV: algorithm, PDGEMM's
    grid and lb in force, 2.5D's replicas, local Strassen levels."""
    algo = r["algo"]
    return (algo, r.get("grid", "") if algo == "pdgemm" else "", r.get("lb", "") if algo == "pdgemm" else "",
            r.get("replicas", "") if algo == "2.5d" else "", levels(r))


def predict_key(r):
    """The same from a `predict --csv` row, whose label carries L= and c=."""
    algo, label = r["algo"], r.get("label", "")
    words = dict(w.split("=", 1) for w in label.split() if "=" in w)
    lv = int(words.get("L", "0"))
    c = words.get("c", "") if algo == "2.5d" else ""
    return (algo, r.get("grid", "") if algo == "pdgemm" else "", r.get("lb", "") if algo == "pdgemm" else "", c, lv)


def label_of(r):
    lab = r["algo"]
    if levels(r):
        lab += f" L={levels(r)}"
    if r["algo"] == "pdgemm":
        lab += f" {r.get('grid', '')} lb={r['lb']}" + (" (auto lb)" if r.get("lb_asked", "").startswith("auto") else "")
    if r["algo"] == "2.5d" and r.get("replicas"):
        lab += f" c={r['replicas']}"
    if r["algo"] == "dgemm":
        lab += f" (1 rank x {r['threads']} threads)"
    return lab


def predictions(mm, profile, p, n):
    """Communication shares from `mmbench predict` at the run's rank count
    (its dgemm row is the peer: one rank with p threads)."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "pred.csv")
        subprocess.run([mm, "predict", "--profile", profile, "--p", str(p), "--n", str(n), "--top", "0",
                        "--csv", out], check=True, stdout=subprocess.DEVNULL)
        return {predict_key(r): r for r in read_predict(out).text_rows if r.get("model", "refined") == "refined"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--mmbench", default="build/mmbench")
    ap.add_argument("--simulated", default=None, help="folder of the <tag>-simulated.csv files (default: DIR)")
    a = ap.parse_args()
    tags = sorted(os.path.basename(f)[:-4] for f in glob.glob(os.path.join(a.dir, "*.csv"))
                  if not f.endswith(("-validate.csv", "-dgemm-profile.csv", "-lb-check.csv", "-kernel-model.csv")))
    tags = [t for t in tags if not t.endswith("-simulated")]
    print("| cluster | n | configuration | measured [s] (interval) | refined model [s] | error | simulated [s] | error "
          "| communication share |")
    print("|---|---|---|---|---|---|---|---|---|")
    summary = []
    for tag in tags:
        profile = os.path.join(a.dir, tag + "-profile.json")
        rows = [r for r in read_results(os.path.join(a.dir, tag + ".csv")).text_rows if r["status"] == "ok"]
        sim_path = os.path.join(a.simulated or a.dir, tag + "-simulated.csv")
        simulated = {}
        if os.path.exists(sim_path):
            for r in read_results(sim_path).text_rows:
                if r["status"] == "ok":
                    simulated.setdefault((int(r["n"]), label_of(r)), float(r["t_median"]))
        nodes, rpn = (int(x) for x in tag.split("-")[0].split("x"))
        cache = {}
        within, counted, sim_within, sim_counted = 0, 0, 0, 0
        seen = set()
        for r in sorted(rows, key=lambda r: (int(r["n"]), label_of(r))):
            n = int(r["n"])
            if (n, label_of(r)) in seen:
                continue
            seen.add((n, label_of(r)))
            if n not in cache:
                cache[n] = predictions(a.mmbench, profile, nodes * rpn, n)
            pred = cache[n].get(key(r))
            t = float(r["t_median"])
            label = label_of(r)
            model = float(r["pred_refined"]) if r.get("pred_refined") else None
            sim = simulated.get((n, label))
            sim_text = f"{sim:.4g} | {100 * (sim / t - 1):+.1f} %" if sim is not None else "– | –"
            if model is None:
                print(f"| {tag} | {n} | {label} | {t:.4g} | – | – | {sim_text} | – |")
                continue
            comm = float(pred["comm_refined"]) if pred and pred.get("comm_refined") else None
            share = comm / float(pred["pred_refined"]) if comm is not None and float(pred["pred_refined"]) > 0 else None
            err = model / t - 1
            if share is not None and share >= 0.3:
                counted += 1
                within += abs(err) <= 0.15
                if sim is not None:
                    sim_counted += 1
                    sim_within += abs(sim / t - 1) <= 0.10
            interval = f" ({float(r['t_median_lo']):.4g}–{float(r['t_median_hi']):.4g})" if r.get("t_median_lo") else ""
            share_text = f"{100 * share:.0f} %" if share is not None else "–"
            print(f"| {tag} | {n} | {label} | {t:.4g}{interval} | {model:.4g} | {100 * err:+.1f} % | {sim_text} | "
                  f"{share_text} |")
        summary.append((tag, within, counted, sim_within, sim_counted if simulated else None))
    print()
    for tag, within, counted, sim_within, sim_counted in summary:
        line = (f"- {tag}: the model within 15 % at {within} of {counted} points where communication is at least "
                f"30 % of the prediction")
        if sim_counted is not None:
            line += f"; the simulation within 10 % at {sim_within} of {sim_counted}"
        print(line)
    # The runner-up's price over the pick's (files from before it: "–").
    print("\n| cluster | n | auto's pick | best | regret [interval] | runner-up's price / pick's |")
    print("|---|---|---|---|---|---|")
    for tag in tags:
        path = os.path.join(a.dir, tag + "-validate.csv")
        if not os.path.exists(path):
            continue
        for r in read_validate(path).text_rows:
            gap = f"{float(r['runner_up_ratio']):.3f}" if r.get("runner_up_ratio") else "–"
            print(f"| {tag} | {r['n']} | {r['pick']} | {r['best']} | {float(r['regret']):.3f} "
                  f"[{float(r['regret_ci_lo']):.3f}, {float(r['regret_ci_hi']):.3f}] | {gap} |")
    print("\n| cluster | n | tuned lb | its time / the best lb's | best lb |")
    print("|---|---|---|---|---|")
    for tag in tags:
        profile = read_profile(os.path.join(a.dir, tag + "-profile.json"))
        rows = [r for r in read_results(os.path.join(a.dir, tag + ".csv")).text_rows
                if r["status"] == "ok" and r["algo"] == "pdgemm"]
        for n in sorted({int(r["n"]) for r in rows}):
            # The ladder on the tuned row's own grid: lbs compare only there.
            for tuned in [r for r in rows if int(r["n"]) == n and r.get("lb_asked", "").startswith("auto")]:
                at = {r["lb"]: float(r["t_median"]) for r in rows
                      if int(r["n"]) == n and r["grid"] == tuned["grid"] and not r.get("lb_asked", "").startswith("auto")}
                if not at:
                    continue
                best = min(at, key=at.get)
                t_tuned = float(tuned["t_median"])
                print(f"| {tag} | {n} | {tuned['grid']}: {tuned['lb']} (profile {profile['lb']}) | "
                      f"{t_tuned / at[best]:.3f} | {best} |")


if __name__ == "__main__":
    main()
