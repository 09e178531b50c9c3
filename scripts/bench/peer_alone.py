#!/usr/bin/env python3
"""The dgemm peer inside a 2-rank job vs the same DGEMM alone.

Usage: peer_alone.py IN_MPIRUN2.csv ALONE.csv

Both CSVs hold one row per (launch, n), written alternately (launch i of one,
then launch i of the other), so row i of each forms a pair measured in the
same minute. Per n: the median over pairs of t(alone) / t(in the 2-rank job)
with its order-statistics interval (the method of core/stats/paired_stats.hpp:
[x(j), x(n+1-j)], coverage 1 - 2 P(Binomial(n, 1/2) <= j - 1), at least 95 %
from 6 pairs; below, [min, max] with its lower coverage, e.g. 75 % at 3
pairs) and the coverage it has, printed. 1.00 = the idle rank costs nothing.
"""
import os
import statistics
import sys
from collections import defaultdict
from math import comb

# The readers of the files mmbench writes: python/mmbench_results.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "python"))
from mmbench_results import read_results  # noqa: E402


def interval(xs, level=0.95):
    xs = sorted(xs)
    n = len(xs)
    cdf = lambda k: sum(comb(n, i) for i in range(k + 1)) / 2 ** n
    j = 1
    while j + 1 <= (n + 1) // 2 and 1 - 2 * cdf(j) >= level:
        j += 1
    return statistics.median(xs), xs[j - 1], xs[n - j], 1 - 2 * cdf(j - 1)


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    runs = []
    for path in sys.argv[1:]:
        by_n = defaultdict(list)
        for r in read_results(path).text_rows:
            if r["status"] == "ok":
                by_n[int(r["n"])].append(float(r["t_median"]))
        runs.append(by_n)
    in2, alone = runs
    print("n      pairs  GFLOP/s in -n 2  GFLOP/s alone  alone/in-job ratio [interval] (coverage)")
    for n in sorted(in2):
        pairs = list(zip(in2[n], alone.get(n, [])))
        if not pairs:
            continue
        med, lo, hi, cov = interval([b / a for a, b in pairs])
        g = lambda t: 2 * n ** 3 / t / 1e9
        print(f"{n:<6} {len(pairs):>5}  {g(statistics.median(a for a, _ in pairs)):>15.1f}  "
              f"{g(statistics.median(b for _, b in pairs)):>13.1f}  {med:.3f} [{lo:.3f}, {hi:.3f}] ({cov:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
