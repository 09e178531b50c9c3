#!/usr/bin/env python3
"""The sizes of make run's default sweep that fit in the time left
(scripts/default-benchmark.sh): from the machine profile's one-core DGEMM
rate, each size's share of the sweep (about 5 configurations on one core
and 6 on P, reps + 1 runs each, 25 % margin) is estimated in order, and a
size that would not fit in what is left is dropped (the first is always
kept). Prints the kept sizes comma-separated; a line on stderr names the
dropped ones. Example: peak_dgemm_mflops 18000, reps 3, P = 2: n = 4096
takes about 2 4096^3 / 18e9 x 4 x (5 + 6 / 2) x 1.25 = 305 s.

usage: sweep_sizes.py PROFILE SIZES REPS P SECONDS_LEFT
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from mmbench_results import read_profile  # noqa: E402


def main(argv):
    if len(argv) != 6:
        sys.exit(__doc__.strip().splitlines()[-1])
    profile, sizes, reps, p, left = argv[1], argv[2].split(","), int(argv[3]), int(argv[4]), float(argv[5])
    rate = read_profile(profile).get("peak_dgemm_mflops", 0) * 1e6
    kept, spent, dropped = [], 0.0, []
    for n in sizes:
        t = 2 * int(n) ** 3 / rate * (reps + 1) * (5 + 6 / p) * 1.25 if rate > 0 else 0.0
        if kept and spent + t > left:
            dropped.append(f"{n} (about {t:.0f} s)")
            continue
        kept.append(n)
        spent += t
    print(",".join(kept))
    if dropped:
        print(f"== n = {', '.join(dropped)} left out: make run keeps to 10 minutes on this machine "
              f"({left:.0f} s left for the sweep); MODE=--full runs every size", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv)
