#!/usr/bin/env python3
"""Writes CSV.json, the machine sidecar of a benchmark script's own CSV
(python/mmbench_results/bench_sidecar.py): the run's start, command and
ranks, the host, CPU, cores, libraries, BLAS core and OPENBLAS_CORETYPE,
and how the script ordered its variants.

usage: bench_sidecar.py CSV SCHEMA ORDER STARTED COMMAND RANKS MMBENCH MPI SCALAPACK
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
from mmbench_results.bench_sidecar import machine_run, write_bench_sidecar  # noqa: E402

if len(sys.argv) != 10:
    sys.exit(__doc__.strip().splitlines()[-1])
path, schema, order, started, command, ranks, mmbench, mpi, scalapack = sys.argv[1:]
write_bench_sidecar(path, schema, machine_run(started, command, ranks, mmbench, mpi, scalapack, order=order))
