#!/usr/bin/env python3
"""The sidecar and summary of scripts/bench/dispatch.sh's CSV: writes
CSV.json with the machine (python/mmbench_results/bench_sidecar.py), checks
that no run's C was wrong, and prints per n and calls per run each
variant's first-call median and its ratio to plain and to lb, per round
(rounds interleave), as median and range.

usage: dispatch_summary.py CSV STARTED COMMAND RANKS MMBENCH MPI SCALAPACK
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
from mmbench_results import read_plain  # noqa: E402
from mmbench_results.bench_sidecar import machine_run, write_bench_sidecar  # noqa: E402


def calls(r):
    """Every call's time in order (files before times_s: the median for each)."""
    text = r.get("times_s") or ""
    return [float(x) for x in text.split(";")] if text else [float(r["t_median_s"])] * int(r["reps"])


def ratio_line(label, by, ref, v, pick):
    """ref's time over v's per round (> 1: v faster), median and range."""
    rounds = [rd for rd in by[ref] if rd in by[v]]
    ratios = [pick(by[ref][rd]) / pick(by[v][rd]) for rd in rounds]
    return f"   {label} {v} / {ref}: {statistics.median(ratios):.3f} (rounds {min(ratios):.3f} to {max(ratios):.3f})"


def main(argv):
    if len(argv) != 8:
        sys.exit(__doc__.strip().splitlines()[-1])
    path, started, command, ranks, mmbench, mpi, scalapack = argv[1:]
    write_bench_sidecar(path, "mmbench-dispatch-bench/1",
                        machine_run(started, command, ranks, mmbench, mpi, scalapack,
                                    order="variants rotated by one per round (CSV column position: 1 = the round's "
                                          "first run)"))
    rows = read_plain(path).text_rows
    if any(r["wrong"] != "0" for r in rows):
        sys.exit(f"{path}: a run's check failed")
    for n in sorted({int(r["n"]) for r in rows}):
        for reps in sorted({int(r["reps"]) for r in rows if int(r["n"]) == n}):
            by = {}
            for r in rows:
                if int(r["n"]) == n and int(r["reps"]) == reps:
                    by.setdefault(r["variant"], {})[r["round"]] = calls(r)
            print(f"n={n}, {reps} call(s) a run:" + "".join(
                f"  {v} first {statistics.median(t[0] for t in ts.values()):.3f} s" for v, ts in by.items()))
            for ref in ("plain", "lb"):
                if ref not in by:
                    continue
                for v in by:
                    if v in (ref, "plain"):
                        continue
                    print(ratio_line("first call", by, ref, v, lambda t: t[0]))
                    if reps > 1:
                        print(ratio_line("later calls", by, ref, v, lambda t: statistics.median(t[1:])))
                        print(ratio_line("whole run", by, ref, v, sum))


if __name__ == "__main__":
    main(sys.argv)
