#!/usr/bin/env bash
# Does Open MPI's TCP progress thread (--mca btl_tcp_progress_thread 1) let a
# large transfer move while the ranks compute? Two namespace nodes, one rank
# each, 16 KB bucket, at each RATE:
#  1. overlap.c (written apart from mmbench: an exchange of S bytes each way
#     beside CHUNKS DGEMM chunks with MPI_Testall between them; the fraction
#     of the shorter part hidden), without and with the thread;
#  2. mmbench ring at n = N (one 8 N^2 / 2-byte shift a step) in 4 chunks,
#     PAIRS pairs of jobs alternating without / with the thread, each job
#     1 warm-up and 2 timed repetitions; the per-pair ratio with / without.
# Run from the repository root as root:
#   RATES="500mbit 1gbit" N=4096 PAIRS=4 results/netns-tcp-progress-thread-zen5-20261207/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
here=results/netns-tcp-progress-thread-zen5-20261207
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
trap 'scripts/netns-cluster.sh down --prefix mmt >/dev/null 2>&1 || true' EXIT
pin=(); [ -z "${OPENBLAS_CORETYPE:-}" ] || pin=(-x OPENBLAS_CORETYPE)
n=${N:-4096}
mpicc -O2 results/ring-overlap-large-zen5-20261207/overlap.c -o /tmp/mmt-overlap -lopenblas
for rate in ${RATES:-500mbit 1gbit}; do
  scripts/netns-cluster.sh down --prefix mmt >/dev/null 2>&1 || true
  scripts/netns-cluster.sh up 2 --ranks-per-node 1 --prefix mmt --rate "$rate" --burst 16kb >/dev/null
  args=$(cat /tmp/mmt-cluster/mpirun.args)
  # The binary must be where every node sees it: /tmp is shared by the namespaces.
  for thread in 0 1; do
    echo "== $rate, btl_tcp_progress_thread $thread: overlap.c ${ROUNDS:-5} rounds, 4 chunks"
    # shellcheck disable=SC2086
    mpirun $args -n 2 --mca btl_tcp_progress_thread $thread -x OPENBLAS_NUM_THREADS=1 "${pin[@]}" \
      /tmp/mmt-overlap "${ROUNDS:-5}" 4
  done > "$here/overlap-$rate.txt"
  rm -f "$here"/ring-"$rate"-thread*.csv*
  for i in $(seq "${PAIRS:-4}"); do
    for thread in 0 1; do
      # shellcheck disable=SC2086
      mpirun $args -n 2 --mca btl_tcp_progress_thread $thread -x OPENBLAS_NUM_THREADS=1 "${pin[@]}" \
        build/mmbench run --algo ring --ring-chunks 4 --n "$n" --reps 2 --warmup 1 --quiet \
        --csv "$here/ring-$rate-thread$thread.csv"
    done
  done
done
python3 - "$here" <<'PY'
import csv, glob, statistics, sys
here = sys.argv[1]
print("| link | ring job medians without the thread [s] | with [s] | with / without, per pair (median [min, max]) |")
print("|---|---|---|---|")
for rate in ("500mbit", "1gbit"):
    t = {}
    for th in ("0", "1"):
        try:
            rows = [r for r in csv.DictReader(open(f"{here}/ring-{rate}-thread{th}.csv")) if r["status"].startswith("ok")]
        except FileNotFoundError:
            rows = []
        t[th] = [float(r["t_median"]) for r in rows]
    if not t["0"] or len(t["0"]) != len(t["1"]):
        continue
    ratios = sorted(b / a for a, b in zip(t["0"], t["1"]))
    print(f"| {rate} | {', '.join(f'{x:.3f}' for x in t['0'])} | {', '.join(f'{x:.3f}' for x in t['1'])} | "
          f"{statistics.median(ratios):.3f} [{ratios[0]:.3f}, {ratios[-1]:.3f}] |")
PY
