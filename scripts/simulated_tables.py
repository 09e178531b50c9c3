#!/usr/bin/env python3
"""Markdown tables of the SIMULATED runs of scripts/bench/simulate_thesis_cluster.sh.

  python3 scripts/simulated_tables.py --stamp 20261123T0738Z [--host vm] [--parts a,d]

Reads DIR/simulated-*-{p56,ring-tpmm,q7split,auto,wall}-HOST-STAMP.csv
and DIR/simulated-walltimes-HOST-STAMP.txt (DIR: --results, default
results/simulated-thesis-cluster) and prints the tables of parts a, b, c, d
and w (results/simulated-thesis-cluster.md and docs/results.md quote them). Every
time in them is simulated time (SimGrid SMPI), except the wall/CPU times of
part w, which are the simulator's own cost on this machine. A cell is only
filled from a row of a run; rows that are not-applicable or failed say so.
"""
import argparse
import glob
import os
import re
import sys

# The readers of the files mmbench writes: python/mmbench_results.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from mmbench_results import read_results  # noqa: E402


def rows_of(pattern):
    out = []
    for f in sorted(glob.glob(pattern)):
        out += [dict(r, _file=f.rsplit("/", 1)[-1]) for r in read_results(f).text_rows]
    return out


def label(r):
    s = r["algo"]
    if r.get("recursions") and r["algo"].startswith("strassen"):
        s += f" r={r['recursions']}"
    if r["algo"].startswith("strassen-q7") and r.get("q7_split_rule"):
        s += f" split={r['q7_split_rule']}"
        if r.get("q7_split"):
            s += f"({r['q7_split']})"
    if r.get("local_levels") not in (None, "", "0"):
        s += f" L={r['local_levels']}"
    if r["algo"] == "2.5d" and r.get("grid"):
        s += f" grid={r['grid']}"
    return s


def fnum(x, fmt="{:.3f}"):
    return fmt.format(float(x)) if x not in (None, "") else ""


def mflops(r, t):
    if not t:
        return ""
    return "{:.0f}".format(2.0 * float(r["m"]) * float(r["n"]) * float(r["k"]) / int(r["p"]) / float(t) / 1e6)


def err(x):
    return "{:+.1f} %".format(100 * float(x)) if x not in (None, "") else ""


def part_a(rows):
    print("| n | configuration | SIMULATED [s] | SIMULATED MFLOPS/p | refined [s] | refined MFLOPS/p | err refined |"
          " paper [s] | paper MFLOPS/p | err paper | status |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in sorted(rows, key=lambda r: (int(r["n"]), r["algo"], r.get("recursions", ""))):
        if r["status"] != "ok":
            print(f"| {r['n']} | {label(r)} | | | | | | | | | {r['status']}: {r['reason']} |")
            continue
        print(f"| {r['n']} | {label(r)} | {fnum(r['t_median'])} | {fnum(r['mflops_per_proc'], '{:.0f}')} | "
              f"{fnum(r['pred_refined'])} | {mflops(r, r['pred_refined'])} | {err(r['err_refined'])} | "
              f"{fnum(r['pred_paper'])} | {mflops(r, r['pred_paper'])} | {err(r['err_paper'])} | ok |")


def part_b(rows):
    print("| p | algorithm | exchanges_total | exchanges_node_local | SIMULATED [s] | refined [s] | err refined |"
          " paper [s] | err paper | status |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in sorted(rows, key=lambda r: (int(r["p"]), r["algo"])):
        print(f"| {r['p']} | {label(r)} | {r['exchanges_total']} | {r['exchanges_node_local']} | {fnum(r['t_median'])} |"
              f" {fnum(r['pred_refined'])} | {err(r['err_refined'])} | {fnum(r['pred_paper'])} | {err(r['err_paper'])} |"
              f" {r['status']} {r['reason'] if r['status'] != 'ok' else ''} |")


def part_c(rows):
    print("| p | r | split rule | groups | SIMULATED [s] | refined [s] | err refined | paper [s] | err paper |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in sorted(rows, key=lambda r: (int(r["p"]), r.get("recursions", ""), r.get("q7_split_rule", ""))):
        if r["status"] != "ok":
            print(f"| {r['p']} | {r['recursions']} | {r['q7_split_rule']} | {r['q7_split']} | | | | | {r['status']}: {r['reason']} |")
            continue
        print(f"| {r['p']} | {r['recursions']} | {r['q7_split_rule']} | {r['q7_split']} | {fnum(r['t_median'])} |"
              f" {fnum(r['pred_refined'])} | {err(r['err_refined'])} | {fnum(r['pred_paper'])} | {err(r['err_paper'])} |")
    # model split vs paper split, simulated and refined
    by = {}
    for r in rows:
        if r["status"] == "ok":
            by[(int(r["p"]), r["recursions"], r["q7_split_rule"])] = r
    print()
    print("| p | r | SIMULATED t(paper)/t(model) | refined t(paper)/t(model) |")
    print("|---|---|---|---|")
    for (p, rec, rule) in sorted(by):
        if rule != "paper" or (p, rec, "model") not in by:
            continue
        a, b = by[(p, rec, "paper")], by[(p, rec, "model")]
        print(f"| {p} | {rec} | {float(a['t_median']) / float(b['t_median']):.3f} |"
              f" {float(a['pred_refined']) / float(b['pred_refined']):.3f} |")


def part_d(rows):
    ps = sorted({int(r["p"]) for r in rows})
    for p in ps:
        # A configuration simulated in several runs (stamps) is shown once:
        # the latest run's row (the simulation is deterministic; the files
        # are read in stamp order).
        latest = {}
        for r in rows:
            if int(r["p"]) == p:
                latest[(r["n"], label(r), r.get("selected_by", ""))] = r
        rs = list(latest.values())
        ok = [r for r in rs if r["status"] == "ok" and r.get("t_median")]
        print(f"\np = {p}, n = {rs[0]['n']} (platform {rs[0]['simulated']}):\n")
        print("| configuration | auto's pick | SIMULATED [s] | refined [s] | err refined | paper [s] | err paper | status |")
        print("|---|---|---|---|---|---|---|---|")
        for r in sorted(rs, key=lambda r: float(r["t_median"]) if r.get("t_median") else 1e30):
            pick = "**pick** (" + r["selected_by"] + ")" if r.get("selected_by", "").startswith("auto") else ""
            st = "ok" if r["status"] == "ok" else f"{r['status']}: {r['reason']}"
            print(f"| {label(r)} | {pick} | {fnum(r.get('t_median'))} | {fnum(r.get('pred_refined'))} |"
                  f" {err(r.get('err_refined'))} | {fnum(r.get('pred_paper'))} | {err(r.get('err_paper'))} | {st} |")
        picks = [r for r in ok if r.get("selected_by", "").startswith("auto")]
        if picks and ok:
            best = min(ok, key=lambda r: float(r["t_median"]))
            t_pick = float(picks[0]["t_median"])
            print(f"\nregret(p = {p}) = t(pick) / t(best simulated) = {t_pick:.3f} / {float(best['t_median']):.3f}"
                  f" = **{t_pick / float(best['t_median']):.3f}** (best: {label(best)}; {len(ok)} simulated configurations)")


def part_w(walls):
    lines = [line for f in walls for line in open(f) if line.startswith("wall p=")]
    if not lines:
        print("(no rows)")
        return
    print("| p | platform | nice | wall [s] | user [s] | sys [s] | load before (1/5/15 min) | load after | rc |")
    print("|---|---|---|---|---|---|---|---|---|")
    for line in lines:
        kv = dict(re.findall(r'(\w+)=("[^"]*"|\S+)', line))
        print(f"| {kv['p']} | {kv['platform']} | {kv.get('nice', '')} | {kv['wall_s']} | {kv['user_s']} | {kv['sys_s']} |"
              f" {kv['load_before'].strip(chr(34))} | {kv.get('load_after', '').strip(chr(34))} | {kv['rc']} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stamp", required=True, help="STAMP or STAMP1,STAMP2 (several runs of the script)")
    ap.add_argument("--host", default="vm")
    ap.add_argument("--results", default="results/simulated-thesis-cluster")
    ap.add_argument("--parts", default="a,b,c,d,w", help="which parts to print, e.g. a,d (default all)")
    ap.add_argument("--heading-level", type=int, default=3, help="Markdown level of the part headings")
    a = ap.parse_args()
    stamps = a.stamp.split(",")
    parts = a.parts.split(",")
    hashes = "#" * a.heading_level
    for part, what, fn in (("a", "p56", part_a), ("b", "ring-tpmm", part_b), ("c", "q7split", part_c),
                           ("d", "auto", part_d), ("w", "wall", None)):
        if part not in parts:
            continue
        print(f"\n{hashes} part {part}\n")
        if fn is None:
            part_w([f for st in stamps for f in glob.glob(f"{a.results}/simulated-walltimes-{a.host}-{st}.txt")])
            continue
        rows = [r for st in stamps for r in rows_of(f"{a.results}/simulated-*-{what}-{a.host}-{st}.csv")]
        if part == "a":
            # The thesis platform only (the flat check platform is part a'),
            # plus part w's ring at p = 56 (the same run at n = 16384).
            check = [r for r in rows if r["simulated"] != "thesis-opteron.xml"]
            rows = [r for r in rows if r["simulated"] == "thesis-opteron.xml"]
            have = {(r["n"], r["algo"]) for r in rows}
            rows += [r for st in stamps for r in rows_of(f"{a.results}/simulated-thesis-opteron-wall-{a.host}-{st}.csv")
                     if r["p"] == "56" and (r["n"], r["algo"]) not in have]
            if rows:
                fn(rows)
            for f in sorted({r["_file"] for r in check}):
                print(f"\n{hashes} part a' (check platform {check[0]['simulated']}: every flow at most 146 MB/s), {f}\n")
                fn([r for r in check if r["_file"] == f])
            continue
        if not rows:
            print("(no rows)")
            continue
        fn(rows)


if __name__ == "__main__":
    main()
