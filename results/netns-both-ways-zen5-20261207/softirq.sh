#!/usr/bin/env bash
# What moving packets costs the cores of the namespace cluster: bothways.c
# (MPI_Alltoall and MPI_Sendrecv of 4 MiB each way, each call alone; written
# apart from mmbench) for 40 rounds on a fresh 2 x 1 cluster at 500 Mbit/s
# (16 KB bucket), 3 jobs, and each core's time split (user, system, softirq,
# idle; /proc/stat) over each job. Run from the repository root as root.
set -eu
src=results/netns-validation-7rounds-zen5-20261207/bothways/bothways.c
mpicc -O2 -o /tmp/bothways "$src"
scripts/netns-cluster.sh down --prefix nr >/dev/null 2>&1 || true
scripts/netns-cluster.sh up 2 --prefix nr --rate 500mbit --burst 16kb >/dev/null
for i in 1 2 3; do
  a=$(grep -E '^cpu[01] ' /proc/stat)
  /tmp/nr-cluster/mpirun -n 2 /tmp/bothways 4194304 40 | sed 's/^/  /'
  b=$(grep -E '^cpu[01] ' /proc/stat)
  python3 - "$a" "$b" <<'PY'
import sys
a = {l.split()[0]: list(map(int, l.split()[1:9])) for l in sys.argv[1].splitlines()}
b = {l.split()[0]: list(map(int, l.split()[1:9])) for l in sys.argv[2].splitlines()}
for c in sorted(a):
    d = [y - x for x, y in zip(a[c], b[c])]
    t = sum(d)
    print(f"  {c}: user {100*d[0]/t:.0f} %, system {100*d[2]/t:.0f} %, softirq {100*d[6]/t:.0f} %, idle {100*d[3]/t:.0f} % of {t/100:.1f} s")
PY
done
scripts/netns-cluster.sh down --prefix nr >/dev/null
