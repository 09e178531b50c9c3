#!/usr/bin/env python3
"""The arguments a recorded `mmbench run` was given (the first run of its
CSV's sidecar, python/mmbench_results read_sidecar), one per line, without
the executable and without what only a real run does: its --csv and
--profile (each with its value), --validate (a charged simulation verifies
nothing) and --quiet. scripts/bench/netns_simulate.sh replays a namespace
run under SMPI with them.

usage: rerun_arguments.py CSV
"""
import os
import shlex
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from mmbench_results import read_sidecar  # noqa: E402

WITH_VALUE = ("--csv", "--profile")
ALONE = ("--validate", "--quiet")


def rerun_arguments(command):
    """Example: "build/mmbench run --algo ring --n 1024 --csv x.csv --quiet"
    -> ["run", "--algo", "ring", "--n", "1024"]."""
    out, skip = [], 0
    for w in shlex.split(command)[1:]:  # without the executable
        if skip:
            skip -= 1
        elif w in WITH_VALUE:
            skip = 1
        elif w not in ALONE:
            out.append(w)
    return out


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    sidecar = read_sidecar(sys.argv[1])
    if sidecar is None or not sidecar["runs"]:
        sys.exit(f"{sys.argv[1]}: no sidecar with a run")
    print("\n".join(rerun_arguments(sidecar["runs"][0]["command"])))
