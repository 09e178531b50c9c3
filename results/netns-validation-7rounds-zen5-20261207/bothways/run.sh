#!/usr/bin/env bash
# bothways.c (written apart from mmbench) in 8 jobs on one fresh 2 x 1
# namespace cluster at 500 Mbit/s (16 KB bucket): 10 rounds of MPI_Alltoall
# and MPI_Sendrecv of 4 MiB each way, each call alone; PINGPONG=5 first runs
# a ping-pong sweep 8 B .. 4 MiB, 5 times a size, as tune does before.
# Run from the repository root as root.
set -e
d=$(dirname "$0")
mpicc -O2 -o /tmp/bothways "$d/bothways.c"
scripts/netns-cluster.sh down --prefix nr >/dev/null 2>&1 || true
scripts/netns-cluster.sh up 2 --prefix nr --rate 500mbit --burst 16kb >/dev/null
for i in 1 2 3 4 5 6 7 8; do /tmp/nr-cluster/mpirun -n 2 /tmp/bothways 4194304 10 ${PINGPONG:-0}; done
scripts/netns-cluster.sh down --prefix nr >/dev/null
