#!/usr/bin/env python3
"""Markdown tables of the two-level network against SIMULATED runs
(scripts/bench/simulate_two_level_network.sh and the reference runs of
scripts/bench/simulate_thesis_cluster.sh).

  python3 scripts/two_level_tables.py --stamp 20261126T1630Z [--host vm] [--mmbench build/mmbench]

For every simulated configuration (status ok) of the runs read, the refined
model's prediction with one level (the profile without its network_levels:
`predict --one-level-network`) and with two levels (the platform's profile),
each with its error against the simulated time (model / simulated - 1), per
point (p, n); `auto`'s pick under each model and its regret, t(pick) / t(best
simulated configuration at that point); the network probe against the
section's prices; the simulator's wall times. Writes the per-configuration
numbers to DIR/model-vs-simulation-HOST-STAMP.csv. Every time except the
wall times is SIMULATED time (SimGrid SMPI, charged computation, flat prices).
Predictions come from `mmbench predict` (the normal build), one call per
point and model.
"""
import argparse
import csv
import glob
import os
import re
import subprocess
import sys
import tempfile

from network_probe_prices import probe_price
from simulated_tables import part_w

# The readers of the files mmbench writes: python/mmbench_results.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from mmbench_results import read_profile, read_results  # noqa: E402

REFERENCE = "results/simulated-thesis-cluster"
# The reference runs whose configurations ran with the code of today (the
# thesis platform and its scaled copies; not the check platform, not the
# ring-chunks run of a fix since superseded).
REFERENCE_FILES = [
    "simulated-thesis-opteron-p56-vm-20261123T0738Z.csv",
    "simulated-thesis-opteron-p56-vm-20261123T1034Z.csv",
    "simulated-thesis-opteron-ring-tpmm-vm-20261123T0738Z.csv",
    "simulated-thesis-opteron-q7split-vm-20261123T0950Z.csv",
    "simulated-thesis-opteron-N48-q7split-vm-20261123T0950Z.csv",
    "simulated-thesis-opteron-N64-q7split-vm-20261123T0950Z.csv",
    "simulated-thesis-opteron-auto-vm-20261123T1200Z.csv",
    "simulated-thesis-opteron-N128-auto-vm-20261123T1250Z.csv",
    "simulated-thesis-opteron-N512-auto-vm-20261123T1545Z.csv",
    "simulated-thesis-opteron-wall-vm-20261123T0738Z.csv",
    "simulated-thesis-opteron-N128-wall-vm-20261123T0738Z.csv",
    "simulated-thesis-opteron-N512-wall-vm-20261123T0738Z.csv",
]


def rows_of(path):
    return [dict(r, _file=os.path.basename(path)) for r in read_results(path).text_rows]


def key_of_sim(r):
    split = ""
    if r["algo"].startswith("strassen-q7"):
        split = "model(" + r["q7_split"] + ")" if r.get("q7_split_rule") == "model" else "paper"
    rec = r["recursions"] if r["algo"].startswith("strassen") else ""
    c = r["replicas"] if r["algo"] == "2.5d" else ""
    return (r["algo"], rec, r.get("local_levels") or "0", c, split)


def key_of_pred(r):
    lab = r["label"]
    m = re.search(r" L=(\d+)", lab)
    local = m.group(1) if m else "0"
    m = re.search(r" c=(\d+)", lab)
    c = m.group(1) if (m and r["algo"] == "2.5d") else ""
    split = ""
    if r["algo"].startswith("strassen-q7"):
        m = re.search(r"split=model\(([^)]*)\)", lab)
        split = "model(" + m.group(1) + ")" if m else "paper"
    rec = r["recursions"] if r["algo"].startswith("strassen") else ""
    return (r["algo"], rec, local, c, split)


def label(key):
    algo, rec, local, c, split = key
    s = algo
    if rec:
        s += f" r={rec}"
    if split:
        s += f" split={split}"
    if local not in ("", "0"):
        s += f" L={local}"
    if c:
        s += f" c={c}"
    return s


# What runs under SMPI (ScaLAPACK does not): the candidates of a simulated `auto`.
SIMULABLE = "dgemm,ring,tpmm,strassen-q7+ring,strassen-q8+tpmm,strassen-q8+dgemm,2.5d"


def predict(mm, profile, p, n, rows, one_level, top=0, algos=None):
    """{key: pred_refined} of `predict` for the configurations of rows, or
    [(key, pred)] of the top ones among `algos`."""
    args = [mm, "predict", "--profile", profile, "--p", str(p), "--n", str(n), "--top", str(top)]
    if one_level:
        args.append("--one-level-network")
    if algos is not None:
        args += ["--algo", algos]
    else:
        # predict ranks every depth, replication and split of these algorithms.
        algs = sorted({r["algo"] for r in rows})
        locs = sorted({r.get("local_levels") or "0" for r in rows})
        args += ["--algo", ",".join(algs), "--local-strassen", ",".join(locs)]
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "p.csv")
        res = subprocess.run(args + ["--csv", out], capture_output=True, text=True)
        if res.returncode != 0:
            sys.exit(f"two_level_tables.py: {' '.join(args)} failed: {res.stderr.strip() or res.stdout.strip()}")
        pred = rows_of(out)
    if top:
        return [(key_of_pred(r), float(r["pred_refined"])) for r in pred]
    return {key_of_pred(r): float(r["pred_refined"]) for r in pred}


def err(model, sim):
    return model / sim - 1.0


def pct(x):
    return "" if x is None else f"{100 * x:+.1f} %"


def abs_pct(x):
    """An |error|: no sign (a "+" would read as the model being slow)."""
    return "" if x is None else f"{100 * x:.1f} %"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stamp", required=True, help="the stamp(s) of simulate_two_level_network.sh runs, a,b")
    ap.add_argument("--host", default="vm")
    ap.add_argument("--results", default="results/simulated-two-level-network")
    ap.add_argument("--mmbench", default="build/mmbench")
    a = ap.parse_args()
    stamps = a.stamp.split(",")

    def profile_of(platform):
        stem = platform.replace(".xml", "")
        if stem == "thesis-opteron":
            return "configs/thesis-opteron.json"
        found = sorted(f for st in stamps for f in glob.glob(f"{a.results}/profile-{stem}-{a.host}-{st}.json"))
        if not found:
            sys.exit(f"two_level_tables.py: no two-level profile for {platform} in {a.results} (part profiles)")
        return found[-1]

    new = [r for st in stamps for f in sorted(glob.glob(f"{a.results}/simulated-*-{a.host}-{st}.csv"))
           if "-colls-" not in f and "-noise-" not in f for r in rows_of(f)]
    noisy = [r for st in stamps for f in sorted(glob.glob(f"{a.results}/simulated-*-noise-*-{a.host}-{st}.csv"))
             for r in rows_of(f) if r["status"] == "ok" and r.get("t_median")]
    colls = [r for st in stamps for f in sorted(glob.glob(f"{a.results}/simulated-*-colls-*-{a.host}-{st}.csv"))
             for r in rows_of(f)]
    ref = [r for f in REFERENCE_FILES for r in rows_of(os.path.join(REFERENCE, f))]
    rows = [r for r in ref + new if r["status"] == "ok" and r.get("t_median") and r["simulated"]]

    # One simulated time per (platform, p, n, configuration): the simulation is
    # deterministic; where a configuration ran twice, both times are kept to show it.
    points = {}
    for r in rows:
        pt = (r["simulated"], int(r["p"]), int(r["n"]))
        points.setdefault(pt, {}).setdefault(key_of_sim(r), []).append(r)

    out_rows = []
    summary = []
    for pt in sorted(points, key=lambda t: (t[1], t[2], t[0])):
        plat, p, n = pt
        prof = profile_of(plat)
        cfgs = points[pt]
        flat = [rs[0] for rs in cfgs.values()]
        one = predict(a.mmbench, prof, p, n, flat, True)
        two = predict(a.mmbench, prof, p, n, flat, False)
        # A model split that is the paper's split is the paper's candidate
        # (predict lists it once).
        paper_split = {(r["algo"], r["recursions"], r.get("local_levels") or "0"): r["q7_split"] for r in rows
                       if (r["simulated"], int(r["p"]), int(r["n"])) == pt and r.get("q7_split_rule") == "paper"}
        for k in list(cfgs):
            if k[4].startswith("model(") and paper_split.get((k[0], k[1], k[2])) == k[4][6:-1]:
                pk = (k[0], k[1], k[2], k[3], "paper")
                for table in (one, two):
                    if k not in table and pk in table:
                        table[k] = table[pk]
        # One level: the pick of today's code without the section. Two levels:
        # the pick the simulated `auto` ran with the two-level profile, where
        # there is one (else predict's).
        pick_one = predict(a.mmbench, prof, p, n, None, True, top=1, algos=SIMULABLE)[0][0]
        ran = [r for r in new if (r["simulated"], int(r["p"]), int(r["n"])) == pt and r["status"] == "ok"
               and r.get("selected_by", "").startswith("auto")]
        pick_two = key_of_sim(ran[0]) if ran else predict(a.mmbench, prof, p, n, None, False, top=1,
                                                             algos=SIMULABLE)[0][0]
        best_key = min(cfgs, key=lambda k: float(cfgs[k][0]["t_median"]))
        best = float(cfgs[best_key][0]["t_median"])
        print(f"\n#### p = {p}, n = {n} ({plat}; profile {prof})\n")
        print("| configuration | SIMULATED [s] | one level [s] | err | two levels [s] | err | picked by |")
        print("|---|---|---|---|---|---|---|")
        for k in sorted(cfgs, key=lambda k: float(cfgs[k][0]["t_median"])):
            ts = sorted({float(r["t_median"]) for r in cfgs[k]})
            t = ts[0]
            p1, p2 = one.get(k), two.get(k)
            e1 = err(p1, t) if p1 else None
            e2 = err(p2, t) if p2 else None
            picked = ", ".join(w for w, kk in (("one level", pick_one), ("two levels", pick_two)) if kk == k)
            tt = f"{t:.4g}" + ("" if len(ts) == 1 else " (runs: " + ", ".join(f"{x:.6g}" for x in ts) + ")")
            print(f"| {label(k)} | {tt} | {'' if p1 is None else f'{p1:.4g}'} | {pct(e1)} |"
                  f" {'' if p2 is None else f'{p2:.4g}'} | {pct(e2)} | {picked} |")
            out_rows.append({"platform": plat, "p": p, "n": n, "configuration": label(k), "simulated_s": t,
                             "refined_one_level_s": p1 or "", "err_one_level": e1 if e1 is not None else "",
                             "refined_two_level_s": p2 or "", "err_two_level": e2 if e2 is not None else "",
                             "files": " ".join(sorted({r["_file"] for r in cfgs[k]}))})
        line = {"p": p, "n": n}
        for name, kk in (("one", pick_one), ("two", pick_two)):
            if kk in cfgs:
                t = float(cfgs[kk][0]["t_median"])
                line[name] = (label(kk), t / best)
                print(f"\n{name} level{'s' if name == 'two' else ''}: `auto` picks {label(kk)}: regret "
                      f"{t:.4g} / {best:.4g} = **{t / best:.3f}** (best simulated: {label(best_key)}, "
                      f"{len(cfgs)} configurations)")
            else:
                line[name] = (label(kk), None)
                print(f"\n{name} level{'s' if name == 'two' else ''}: `auto` picks {label(kk)}: not simulated at this point")
        errs1 = [abs(x["err_one_level"]) for x in out_rows[-len(cfgs):] if x["err_one_level"] != ""]
        errs2 = [abs(x["err_two_level"]) for x in out_rows[-len(cfgs):] if x["err_two_level"] != ""]
        line["max1"] = max(errs1) if errs1 else None
        line["max2"] = max(errs2) if errs2 else None
        line["configs"] = len(cfgs)
        line["in1"] = (sum(e <= 0.15 for e in errs1), len(errs1))
        line["in2"] = (sum(e <= 0.15 for e in errs2), len(errs2))
        summary.append(line)

    print("\n#### Summary per point\n")
    print("| p | n | configurations | largest abs. error, one level | two levels | within 15 %, one level | two levels |"
          " one level: pick, regret | two levels: pick, regret |")
    print("|---|---|---|---|---|---|---|---|---|")
    for s in summary:
        def pr(x):
            lab, reg = x
            return f"{lab}, " + ("not simulated" if reg is None else f"**{reg:.3f}**")
        print(f"| {s['p']} | {s['n']} | {s['configs']} | {abs_pct(s['max1'])} | {abs_pct(s['max2'])} |"
              f" {s['in1'][0]} of {s['in1'][1]} | {s['in2'][0]} of {s['in2'][1]} | {pr(s['one'])} | {pr(s['two'])} |")
    tot = [sum(s[k][i] for s in summary) for k in ("in1", "in2") for i in (0, 1)]
    print(f"\nWithin 15 % of the simulation: one level {tot[0]} of {tot[1]} configurations, two levels "
          f"{tot[2]} of {tot[3]}.")
    if noisy:
        noise_table(noisy, {(s["p"], s["n"]): s for s in summary})

    out_csv = f"{a.results}/model-vs-simulation-{a.host}-{stamps[-1]}.csv"
    with open(out_csv, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(out_rows[0]))
        w.writeheader()
        w.writerows(out_rows)
    print(f"\n(per configuration: {out_csv})")

    if colls:
        print("\n#### 2.5D with SMPI's default collectives and with MPICH's (p = 64, n = 4096)\n")
        print("| c | SIMULATED, default (flat MPI_Reduce) [s] | SIMULATED, mpich [s] | two levels [s] | err default | err mpich |")
        print("|---|---|---|---|---|---|")
        two = predict(a.mmbench, "configs/thesis-opteron.json", 64, 4096, colls, False)
        by = {}
        for r in colls:
            by.setdefault(r["replicas"], {})["mpich" if "-colls-mpich-" in r["_file"] else "default"] = float(r["t_median"])
        for c in sorted(by, key=int):
            m = two.get(("2.5d", "", "0", c, ""))
            d, h = by[c].get("default"), by[c].get("mpich")
            print(f"| {c} | {d:.4g} | {h:.4g} | {m:.4g} | {pct(m / d - 1)} | {pct(m / h - 1)} |")

    probes = sorted(f for st in stamps for f in glob.glob(f"{a.results}/network-probe-{a.host}-{st}.txt"))
    if probes:
        probe_table(probes, read_profile("configs/thesis-opteron.json")["network_levels"])
    walls = sorted(f for st in stamps for f in glob.glob(f"{a.results}/simulated-walltimes-{a.host}-{st}.txt"))
    if walls:
        print("\n#### Wall time of the simulation (ring alone, n = 16384)\n")
        part_w(walls)


def noise_table(rows, noise_off):
    """`auto`'s regret where every configuration's time is drawn with noise."""
    print("\n#### `auto` (two levels) with noise on: every time SIMULATED with seeded noise\n")
    print("| p | n | configurations | best simulated | `auto` picks | regret, noise on | regret, noise off (above) |")
    print("|---|---|---|---|---|---|---|")
    points = {}
    for r in rows:
        points.setdefault((int(r["p"]), int(r["n"])), []).append(r)
    for (p, n) in sorted(points):
        rs = points[(p, n)]
        times = {}
        for r in rs:
            times.setdefault(key_of_sim(r), float(r["t_median"]))
        pick = [r for r in rs if r.get("selected_by", "").startswith("auto")]
        best_key = min(times, key=times.get)
        off = noise_off.get((p, n), {}).get("two", (None, None))[1]
        if not pick:
            continue
        k = key_of_sim(pick[0])
        print(f"| {p} | {n} | {len(times)} | {label(best_key)} ({times[best_key]:.4g} s) | {label(k)} "
              f"({times[k]:.4g} s) | **{times[k] / times[best_key]:.3f}** | {'' if off is None else f'{off:.3f}'} |")


def probe_table(files, lv):
    """The probe's simulated times against the section's prices (scripts/network_probe_prices.py)."""
    print("\n#### The network probe (tests/smpi/network_probe.c) on thesis-opteron.xml\n")
    print("Model: the section's price of one step in lockstep, as `smpi.network_levels` checks it "
          "(latency + size / the smallest of the flow's rate, its node link's share and its backbone share).\n")
    print("| p | pattern | bytes | SIMULATED [s] | model [s] | err |")
    print("|---|---|---|---|---|---|")
    for f in files:
        for line in open(f):
            m = re.match(r"p=(\d+) (\S+) (\d+) (\S+)", line)
            if not m:
                continue
            p, pat, b, t = int(m.group(1)), m.group(2), int(m.group(3)), float(m.group(4))
            model = probe_price(lv, p, pat, b)
            if model is not None:
                print(f"| {p} | {pat} | {b} | {t:.4g} | {model:.4g} | {pct(model / t - 1)} |")


if __name__ == "__main__":
    main()
