#!/usr/bin/env python3
"""The sidecar and summary of scripts/bench/preload_lb.sh's CSV: writes
CSV.json with the machine (python/mmbench_results/bench_sidecar.py) and
prints each variant's median GFLOP/s over the rounds and their ratio.

usage: preload_lb_summary.py CSV STARTED COMMAND RANKS MMBENCH MPI SCALAPACK
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
from mmbench_results import read_plain  # noqa: E402
from mmbench_results.bench_sidecar import machine_run, write_bench_sidecar  # noqa: E402


def main(argv):
    if len(argv) != 8:
        sys.exit(__doc__.strip().splitlines()[-1])
    path, started, command, ranks, mmbench, mpi, scalapack = argv[1:]
    write_bench_sidecar(path, "mmbench-preload-lb/2",
                        machine_run(started, command, ranks, mmbench, mpi, scalapack,
                                    order="alternating per round: odd rounds without then with, even rounds with "
                                          "then without (CSV column position: 1 = the round's first run)"))
    rows = read_plain(path).text_rows
    med = {v: statistics.median(float(r["gflops"]) for r in rows if r["variant"] == v) for v in ("without", "with")}
    lb = {v: next(r["lb"] for r in rows if r["variant"] == v) for v in ("without", "with")}
    print(f"{path}: median over {len(rows) // 2} rounds: without (lb {lb['without']}) {med['without']:.2f} GFLOP/s, "
          f"with (lb {lb['with']}) {med['with']:.2f} GFLOP/s, ratio {med['with'] / med['without']:.2f}")


if __name__ == "__main__":
    main(sys.argv)
