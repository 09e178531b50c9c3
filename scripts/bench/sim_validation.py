#!/usr/bin/env python3
"""Simulation against measurement on this host: real sweeps and the same
sweeps simulated (SimGrid SMPI, charged computation) on a platform built
from this host's machine profile, and the error of every simulated point.

    scripts/bench/sim_validation.py [--n 2048,4096,8192] [--reps 3] [--profile configs/<host>.json]

A benchmark, not a test: the real sweeps time DGEMMs of up to n = 8192 on
every core. Run it on a quiet machine, alone. Steps:

 1. the profile: --profile (default configs/<host>.json; missing: tuned here
    with `mpirun -n <cores> mmbench tune <--tune-args>`), copied into the
    output folder; where the copy has no kernel model, `tune
    --kernel-model-only --n <--kernel-n>` adds one to the copy (the
    original is never written). A second copy without the kernel model
    gives the flat prices for comparison.
 2. the platform: scripts/platform_from_profile.py on the copy, one node of
    the profile's cores; it names the copy, so simulate.sh prices with its
    kernel model.
 3. real sweeps: `mpirun -n P mmbench run` for P = 1 and 2 (--ranks), every
    algorithm and option of the sweep in one run, so its rounds interleave
    them (mmbench's paired rounds, shuffled per round).
 4. the same sweeps simulated, charged: fitted+noise (--seed), fitted (noise
    off) and flat (the profile without its kernel model).
 5. the report: per point (algo, P, threads, n, L) the measured median and
    its interval, each variant's simulated median, its error
    (simulated / measured - 1) and whether it falls inside the measured
    interval; the same for the `vs peer` ratio. A CSV, a Markdown table
    (for docs/results.md) and a plot (matplotlib; skipped without it).

Measured elsewhere (a lent machine): put its run CSV in --out as
measured-<this host>.csv and run `--parts profile,sim,report --profile
ITS_PROFILE --ranks ... --algos ...` with the sweep it ran.

Everything goes to --out (default results/local/sim-validation-<host>-<stamp>/,
ignored by git). --parts picks steps (profile, real, sim, report; default
all): `--parts report --out DIR` redraws from a finished run. A smoke run at
tiny sizes (seconds; proves the pipeline, measures nothing):

    scripts/bench/sim_validation.py --n 256,512 --reps 3 \\
        --tune-args "--n 512 --no-lb-check --no-blas-probe --no-packed-tune --no-local --reps 1" \\
        --profile /nonexistent --kernel-n 512
"""
import argparse
import csv
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time

# The readers of the files mmbench writes: python/mmbench_results.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
from mmbench_results import read_plain, read_profile, read_results  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ALGOS = "ring,tpmm,dgemm,2.5d"
KEY = ("algo", "p", "threads", "n", "local_levels")


def say(msg):
    print(f"sim_validation: {msg}", flush=True)


def run(cmd, log, env=None):
    """Runs cmd (a list), its output appended to log; stops on failure."""
    say(" ".join(cmd))
    with open(log, "a") as out:
        out.write("$ " + " ".join(cmd) + "\n")
        out.flush()
        rc = subprocess.call(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    if rc != 0:
        sys.exit(f"sim_validation: failed (exit {rc}): {' '.join(cmd)}; see {log}")


def mpi_env():
    env = dict(os.environ)
    if os.geteuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    env["OPENBLAS_NUM_THREADS"] = "1"
    return env


def sweep_args(a):
    return ["run", "--algo", a.algos, "--n", a.n, "--local-strassen", a.levels, "--reps", str(a.reps),
            "--warmup", str(a.warmup), "--order-seed", str(a.order_seed), "--quiet"]


def step_profile(a, paths, log):
    src = a.profile or os.path.join(ROOT, "configs", socket.gethostname() + ".json")
    if not os.path.exists(src):
        say(f"no profile {src}: tuning this host ({a.tune_args})")
        run(["mpirun", "-q", "-n", str(a.max_ranks), a.mm, "tune", *a.tune_args.split(), "--profile", paths["profile"],
             "--csv", os.path.join(a.out, "dgemm-profile.csv"), "--quiet"], log, mpi_env())
    else:
        shutil.copyfile(src, paths["profile"])
    prof = read_profile(paths["profile"])
    if "kernel_model" not in prof:
        say("the profile has no kernel model: measuring it into the copy")
        run(["mpirun", "-q", "-n", str(a.max_ranks), a.mm, "tune", "--kernel-model-only", "--n", str(a.kernel_n),
             "--profile", paths["profile"], "--csv", os.path.join(a.out, "dgemm-profile.csv"), "--quiet"], log,
            mpi_env())
        prof = read_profile(paths["profile"])
    flat = dict(prof)
    flat.pop("kernel_model", None)
    json.dump(flat, open(paths["flat_profile"], "w"), indent=2)
    cores = int(prof.get("cores") or a.max_ranks)
    run([sys.executable, os.path.join(ROOT, "scripts", "platform_from_profile.py"), paths["profile"], "--nodes", "1",
         "--cores-per-node", str(max(cores, a.max_ranks)), "-o", paths["platform"]], log)


def step_real(a, paths, log):
    for p in a.ranks:
        run(["mpirun", "-q", "-n", str(p), a.mm, *sweep_args(a), "--csv", paths["real"]], log, mpi_env())


VARIANTS = ("fitted+noise", "fitted", "flat")


def step_sim(a, paths, log):
    sim = os.path.join(ROOT, "scripts", "simulate.sh")
    for variant in VARIANTS:
        opts = {"fitted+noise": ["--noise", "on", "--seed", str(a.seed)],
                "fitted": ["--noise", "off"],
                "flat": ["--sim-profile", paths["flat_profile"]]}[variant]
        for p in a.ranks:
            run(["bash", sim, "--build", a.smpi_build, "--platform", paths["platform"], "--np", str(p),
                 "--compute", "charged", *opts, "--", *sweep_args(a), "--csv", paths["sim"][variant]], log,
                mpi_env())


def rows_of(path):
    if not os.path.exists(path):
        return {}
    out = {}
    for r in read_results(path).text_rows:
        if r.get("status") != "ok" or not r.get("t_median"):
            continue
        out[tuple(r.get(k) or "0" for k in KEY)] = r
    return out


def fnum(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def step_report(a, paths):
    real = rows_of(paths["real"])
    sims = {v: rows_of(paths["sim"][v]) for v in VARIANTS}
    if not real:
        sys.exit(f"sim_validation: no measured rows in {paths['real']}")
    cols = list(KEY) + ["t_measured", "t_lo", "t_hi", "ci_coverage", "peer_measured", "peer_lo", "peer_hi"]
    for v in VARIANTS:
        cols += [f"t_{v}", f"err_{v}", f"inside_{v}", f"peer_{v}", f"peer_err_{v}"]
    table = []
    for key in sorted(real, key=lambda k: (int(k[1]) * int(k[2]), k[0], int(k[3]), int(k[4]))):
        r = real[key]
        t, lo, hi = fnum(r["t_median"]), fnum(r["t_median_lo"]), fnum(r["t_median_hi"])
        row = dict(zip(KEY, key))
        row.update(t_measured=t, t_lo=lo, t_hi=hi, ci_coverage=r.get("ci_coverage"),
                   peer_measured=fnum(r.get("peer_ratio")), peer_lo=fnum(r.get("peer_ratio_lo")),
                   peer_hi=fnum(r.get("peer_ratio_hi")))
        for v in VARIANTS:
            s = sims[v].get(key)
            ts = fnum(s["t_median"]) if s else None
            row[f"t_{v}"] = ts
            row[f"err_{v}"] = ts / t - 1 if ts and t else None
            row[f"inside_{v}"] = (lo <= ts <= hi) if ts and lo is not None and hi is not None else None
            ps = fnum(s.get("peer_ratio")) if s else None
            row[f"peer_{v}"] = ps
            pm = row["peer_measured"]
            row[f"peer_err_{v}"] = ps / pm - 1 if ps and pm else None
        table.append(row)
    with open(paths["report_csv"], "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols)
        w.writeheader()
        for row in table:
            w.writerow({k: ("" if row.get(k) is None else row[k]) for k in cols})
    say(f"wrote {paths['report_csv']} ({len(table)} points)")

    def pct(x):
        return "" if x is None else f"{100 * x:+.1f} %"

    lines = ["| algo | cores | n | L | measured [s] (interval) | " + " | ".join(f"{v}" for v in VARIANTS) +
             " | vs peer measured | " + " | ".join(f"vs peer {v}" for v in VARIANTS) + " |",
             "|---|---|---|---|---|" + "---|" * len(VARIANTS) + "---|" + "---|" * len(VARIANTS)]
    for row in table:
        cores = int(row["p"]) * int(row["threads"])
        meas = f"{row['t_measured']:.4g} ({row['t_lo']:.4g}–{row['t_hi']:.4g})"
        sims_txt = [pct(row[f"err_{v}"]) + (" ✓" if row[f"inside_{v}"] else "") for v in VARIANTS]
        peer = "" if row["peer_measured"] is None else f"{row['peer_measured']:.3f}"
        peers = [pct(row[f"peer_err_{v}"]) for v in VARIANTS]
        lines.append(f"| {row['algo']} | {cores} | {row['n']} | {row['local_levels']} | {meas} | " +
                     " | ".join(sims_txt) + f" | {peer} | " + " | ".join(peers) + " |")
    summary = []
    for v in VARIANTS:
        errs = [abs(r[f"err_{v}"]) for r in table if r[f"err_{v}"] is not None]
        inside = [r[f"inside_{v}"] for r in table if r[f"inside_{v}"] is not None]
        if errs:
            summary.append(f"- {v}: median |error| {100 * statistics.median(errs):.1f} %, largest "
                           f"{100 * max(errs):.1f} %, inside the measured interval {sum(inside)} of {len(inside)}")
    with open(paths["report_md"], "w") as f:
        f.write("Simulated (charged) against measured time per point: error = simulated / measured − 1; "
                "✓ = inside the measured median's interval. `vs peer`: the same for the ratio to the dgemm peer.\n\n")
        f.write("\n".join(lines) + "\n\n" + "\n".join(summary) + "\n")
    say(f"wrote {paths['report_md']}")
    print("\n".join(summary))
    plot(paths["report_csv"], paths["report_png"])


SYSTEM_PYTHON = "/usr/bin/python3"


def plot(report_csv, png, again=True):
    """The report's errors per point, one panel per core count. Where this
    interpreter has no matplotlib (a pyenv or virtualenv python3 first on
    PATH), the system's python3 draws it, once."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        if again and os.access(SYSTEM_PYTHON, os.X_OK) and \
                os.path.realpath(sys.executable) != os.path.realpath(SYSTEM_PYTHON):
            subprocess.call([SYSTEM_PYTHON, os.path.abspath(__file__), "--plot", report_csv, png])
        else:
            say("matplotlib missing: no plot")
        return
    table = []
    for r in read_plain(report_csv).text_rows:  # its own report
        table.append({k: (v if k in KEY else fnum(v)) for k, v in r.items()})
    groups = sorted({int(r["p"]) * int(r["threads"]) for r in table})
    fig, axes = plt.subplots(1, len(groups), figsize=(6.5 * len(groups), 4.8), squeeze=False)
    marks = {"fitted+noise": "o", "fitted": "s", "flat": "x"}
    for ax, cores in zip(axes[0], groups):
        rows = [r for r in table if int(r["p"]) * int(r["threads"]) == cores]
        labels = [f"{r['algo']} n={r['n']} L={r['local_levels']}" + (" (peer)" if r["algo"] == "dgemm" and
                                                                      int(r["threads"]) > 1 else "") for r in rows]
        xs = list(range(len(rows)))
        # The measured interval around 1, per point.
        for x, r in zip(xs, rows):
            if r["t_lo"] and r["t_hi"] and r["t_measured"]:
                ax.plot([x, x], [r["t_lo"] / r["t_measured"], r["t_hi"] / r["t_measured"]],
                        color="0.75", linewidth=6, solid_capstyle="butt")
        for v in VARIANTS:
            pts = [(x, 1 + r[f"err_{v}"]) for x, r in zip(xs, rows) if r[f"err_{v}"] is not None]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marks[v], label=v, linestyle="none")
        ax.axhline(1, color="k", linewidth=0.8)
        ax.set_yscale("log")
        ax.set_xticks(xs)
        ax.set_xticklabels(labels, rotation=75, fontsize=7)
        ax.set_ylabel("simulated / measured median (log)")
        ax.set_title(f"{cores} core(s); grey: measured interval")
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    say(f"wrote {png}")


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--plot":  # plot() under the system's python3
        return plot(sys.argv[2], sys.argv[3], again=False)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", default="2048,4096,8192", help="sizes (run's --n syntax)")
    ap.add_argument("--algos", default=ALGOS, help=f"run's --algo list (default {ALGOS})")
    ap.add_argument("--levels", default="0,1,2", help="--local-strassen values")
    ap.add_argument("--reps", type=int, default=3, help="timed rounds of each run (real and simulated)")
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--ranks", default="1,2", help="MPI ranks of the sweeps")
    ap.add_argument("--order-seed", type=int, default=20261126, help="run's --order-seed (the same for every run)")
    ap.add_argument("--seed", type=int, default=1, help="the simulation's noise seed (fitted+noise)")
    ap.add_argument("--profile", default=None, help="machine profile (default configs/<host>.json)")
    ap.add_argument("--tune-args", default="--n 4096", help="tune's options where the profile is missing")
    ap.add_argument("--kernel-n", type=int, default=2048, help="tune --kernel-model-only --n, where the profile has no kernel model")
    ap.add_argument("--mm", default=os.path.join(ROOT, "build", "mmbench"))
    ap.add_argument("--smpi-build", default=os.path.join(ROOT, "build-smpi"))
    ap.add_argument("--out", default=None)
    ap.add_argument("--parts", default="profile,real,sim,report")
    a = ap.parse_args()
    host = socket.gethostname()
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    a.out = os.path.abspath(a.out or os.path.join(ROOT, "results", "local", f"sim-validation-{host}-{stamp}"))
    a.ranks = [int(x) for x in a.ranks.split(",")]
    a.max_ranks = max(a.ranks)
    parts = set(a.parts.split(","))
    bad = parts - {"profile", "real", "sim", "report"}
    if bad:
        sys.exit(f"sim_validation: --parts {','.join(sorted(bad))}: allowed profile, real, sim, report")
    if "real" in parts and not os.access(a.mm, os.X_OK):
        sys.exit(f"sim_validation: no mmbench at {a.mm} (make build)")
    if "sim" in parts and not os.access(os.path.join(a.smpi_build, "mmbench"), os.X_OK):
        sys.exit(f"sim_validation: no SMPI build at {a.smpi_build} (make smpi)")
    os.makedirs(a.out, exist_ok=True)
    paths = {
        "profile": os.path.join(a.out, f"profile-{host}.json"),
        "flat_profile": os.path.join(a.out, f"profile-{host}-flat.json"),
        "platform": os.path.join(a.out, f"platform-{host}.xml"),
        "real": os.path.join(a.out, f"measured-{host}.csv"),
        "sim": {v: os.path.join(a.out, f"simulated-{v.replace('+', '-')}-{host}.csv") for v in VARIANTS},
        "report_csv": os.path.join(a.out, f"sim-validation-{host}.csv"),
        "report_md": os.path.join(a.out, f"sim-validation-{host}.md"),
        "report_png": os.path.join(a.out, f"sim-validation-{host}.png"),
    }
    log = os.path.join(a.out, "commands.log")
    with open(os.path.join(a.out, "settings.json"), "w") as f:
        json.dump({"host": host, "started": stamp, "argv": sys.argv, "algos": a.algos, "n": a.n, "levels": a.levels,
                   "reps": a.reps, "warmup": a.warmup, "ranks": a.ranks, "order_seed": a.order_seed,
                   "noise_seed": a.seed, "load": open("/proc/loadavg").read().split()[:3]}, f, indent=2)
    if "profile" in parts:
        step_profile(a, paths, log)
    if "real" in parts:
        step_real(a, paths, log)
    if "sim" in parts:
        step_sim(a, paths, log)
    if "report" in parts:
        step_report(a, paths)
    say(f"done: {a.out}")


if __name__ == "__main__":
    main()
