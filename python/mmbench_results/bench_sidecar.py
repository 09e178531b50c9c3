"""The sidecar of a benchmark script's own CSV (scripts/bench/dispatch.sh,
preload_lb.sh): the machine and software a run measured on, as mmbench's
results sidecar records them (docs/json-schema.md), for files that mmbench
itself does not write.

    run = machine_run(started, command, ranks, mmbench, mpi, scalapack, order="...")
    write_bench_sidecar("results/x.csv", "mmbench-preload-lb/2", run)
"""

import ctypes
import json
import os
import platform


def openblas_facts():
    """OpenBLAS's configuration and the core it runs ("" for each where the
    library or the call is missing)."""
    try:
        lib = ctypes.CDLL("libopenblas.so.0")
    except OSError:
        return "", ""
    facts = []
    for name in ("openblas_get_config", "openblas_get_corename"):
        fn = getattr(lib, name, None)
        if fn is None:
            facts.append("")
            continue
        fn.restype = ctypes.c_char_p
        facts.append(fn().decode())
    return facts[0], facts[1]


def machine_run(started, command, ranks, mmbench, mpi, scalapack, **extra):
    """One run's record: when and how it started, the host, its CPU and
    cores, the libraries, OPENBLAS_CORETYPE and OPENBLAS_NUM_THREADS as the
    environment set them, and the script's own keys (extra)."""
    blas, core = openblas_facts()
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "")
    run = {"started": started, "command": command, "mmbench": mmbench, "host": platform.node(), "cpu": cpu,
           "cores": os.cpu_count(), "ranks": int(ranks), "mpi": mpi, "blas": blas, "blas_core": core,
           "scalapack": scalapack, "openblas_coretype": os.environ.get("OPENBLAS_CORETYPE", ""),
           "omp_openblas_threads_env": os.environ.get("OPENBLAS_NUM_THREADS", "")}
    run.update(extra)
    return run


def write_bench_sidecar(csv_path, schema, run):
    """csv_path + ".json": {"csv", "schema", "runs": [run]}, keys sorted."""
    with open(csv_path + ".json", "w") as f:
        json.dump({"csv": csv_path, "schema": schema, "runs": [run]}, f, indent=2, sort_keys=True)
        f.write("\n")
