#!/usr/bin/env python3
"""The pieces of docs/results.md that scripts/update-results-page.sh writes
itself (the other blocks come from the summary scripts it calls):

    results_page.py recorded CSV          what CSV's sidecar recorded: host, CPU, cores,
                                          when, the builds, MPI, BLAS, ScaLAPACK, commands
    results_page.py dgemm-cores CSV       DGEMM launches under alternated OpenBLAS cores
                                          (the sidecar's runs name each launch's core)
    results_page.py isoefficiency CSV...  per p, the member reaching E at the smallest n
    results_page.py splice PAGE OUT       PAGE with every generated block refilled
                                          (update-results-page.sh --block NAME), into OUT

Every file is read through python/mmbench_results.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))
sys.path.insert(0, HERE)
from mmbench_results import read_isoefficiency, read_plain, read_sidecar  # noqa: E402
from summarize import coverage_label  # noqa: E402


def sidecar_runs(path):
    sidecar = read_sidecar(path)
    if sidecar is None:
        sys.exit(f"{path}: no sidecar {path}.json")
    return sidecar["runs"]


def recorded(path):
    runs = sidecar_runs(path)
    d = runs[0]
    started = sorted(r["started"] for r in runs if r.get("started"))
    when = started[0] if len(started) < 2 or started[0] == started[-1] else f"{started[0]} .. {started[-1]}"
    builds = ", ".join(dict.fromkeys(r["mmbench"] for r in runs))  # every build that wrote rows, in order
    blas = ", ".join(dict.fromkeys(r["blas"] for r in runs))
    print(f"Recorded (`{path}.json`): {d['host']} ({d['cpu']}, {d['cores']} cores), {when}; "
          f"mmbench {builds}; {d['mpi']}; {blas}; ScaLAPACK {d.get('scalapack') or 'not recorded'}.  ")
    print("Commands: " + "; ".join(f"`{c}`" for c in dict.fromkeys(r["command"] for r in runs)))


def dgemm_cores(path):
    core = {}
    for r in sidecar_runs(path):
        m = re.search(r"(\w+) MAX_THREADS", r["blas"])
        pinned = " (pinned)" if "OPENBLAS_CORETYPE=" in r["blas"] else " (detected)"
        core[r["started"]] = (m.group(1) if m else r["blas"]) + pinned
    print("| launch | OpenBLAS core | threads | n | DGEMM GFLOP/s | L = 3 vs DGEMM [interval] | rounds (coverage) |")
    print("|---|---|---|---|---|---|---|")
    launch, dgemm = {}, {}  # launch number and L = 0 row of each launch (by its start time)
    for r in read_plain(path).text_rows:
        if r["status"] != "ok":
            continue
        i = launch.setdefault(r["timestamp"], len(launch) + 1)
        if r["local_levels"] == "0":
            dgemm[i] = [str(i), core.get(r["timestamp"], "not recorded"), r["threads"], r["n"],
                        f"{float(r['gflops_total']):.1f}"]
        else:
            cov = f" ({coverage_label(float(r['ci_coverage']))})" if r.get("ci_coverage") else ""
            print("| " + " | ".join(dgemm[i] + [f"{float(r['peer_ratio']):.3f} [{float(r['peer_ratio_lo']):.3f}, "
                                                f"{float(r['peer_ratio_hi']):.3f}]", r["reps"] + cov]) + " |")


def isoefficiency(paths):
    for f in paths:
        rows = [r for r in read_isoefficiency(f).text_rows if r["reached"] == "yes"]
        e = rows[0]["isoefficiency"]
        print(f"\nE = {e} (`{f}`): per p, the member that reaches E at the smallest n, and the runner-up\n")
        print("| p | best: algorithm (member) | n_E | t_pred [s] | mem/rank [MiB] | runner-up | n_E |")
        print("|---|---|---|---|---|---|---|")
        for p in sorted({int(r["p"]) for r in rows}):
            at = sorted((r for r in rows if int(r["p"]) == p), key=lambda r: int(r["n_iso"]))
            b = at[0]
            ru = at[1] if len(at) > 1 else None
            mem = float(b["mem_pred_mb"]) if b["mem_pred_mb"] else float("nan")
            print(f"| {p} | {b['algo']} ({b['best_member']}) | {b['n_iso']} | {float(b['t_pred']):.4g} | {mem:.4g} |"
                  f" {ru['algo'] if ru else ''} | {ru['n_iso'] if ru else ''} |")


def splice(page, out):
    """A block whose generator is unknown fails the whole page (a typo in
    the page would otherwise leave stale numbers)."""
    text = open(page).read()

    def fill(m):
        name = m.group(1)
        body = subprocess.run(["bash", "scripts/update-results-page.sh", "--block", name],
                              check=True, stdout=subprocess.PIPE, text=True).stdout
        return f"<!-- generated:{name} -->\n{body.rstrip()}\n<!-- /generated:{name} -->"

    new, n = re.subn(r"<!-- generated:([a-z0-9-]+) -->.*?<!-- /generated:\1 -->", fill, text, flags=re.S)
    if n == 0:
        sys.exit(f"{page}: no generated blocks")
    open(out, "w").write(new)


def main(argv):
    usage = "usage: results_page.py recorded CSV | dgemm-cores CSV | isoefficiency CSV... | splice PAGE OUT"
    if len(argv) < 3:
        sys.exit(usage)
    what, args = argv[1], argv[2:]
    if what == "recorded" and len(args) == 1:
        recorded(args[0])
    elif what == "dgemm-cores" and len(args) == 1:
        dgemm_cores(args[0])
    elif what == "isoefficiency":
        isoefficiency(args)
    elif what == "splice" and len(args) == 2:
        splice(*args)
    else:
        sys.exit(usage)


if __name__ == "__main__":
    main(sys.argv)
