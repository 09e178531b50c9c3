#!/usr/bin/env bash
# Issue 15's benchmark: the local Strassen–Winograd kernel against DGEMM,
# one rank, 1 and 2 threads, L = 0..4 interleaved in one run per (n,
# threads) (rounds in a shuffled order, ratio to the same round's DGEMM,
# median with its 95 % interval: the paired statistics of `run`), plus the
# kernel's account (local_add_share*, local_passes_by_level) in the CSV.
# Then a paired comparison of the two schedules (plain vs accumulate) at
# SCHED_N with SCHED_L levels (bench/fast_gemm_schedules.cpp).
#   N=4096,8192,12288 L=0,1,2,3,4 THREADS="1 2" REPS=3 WARMUP=1
#   SCHED_N=8192 SCHED_L=3 SCHED_ROUNDS=5 (SCHED_N= skips it)
# About 35 minutes on the 2-core VM (12288 on one core: ~70 s per DGEMM).
source "$(dirname "$0")/common.sh"
N=${N:-4096,8192,12288}
L=${L:-0,1,2,3,4}
csv=results/local-kernel-$host-$stamp.csv
for t in ${THREADS:-1 2}; do
  for n in ${N//,/ }; do
    # 12288 and above: no warm-up round (each costs a minute per level).
    w=${WARMUP:-1}; [ "$n" -ge 12288 ] && w=${WARMUP_LARGE:-0}
    mpirun -q -n 1 "$MM" run --algo dgemm --threads "$t" --n "$n" --local-strassen "$L" \
      --reps "${REPS:-3}" --warmup "$w" --csv "$csv" --quiet
  done
done
python3 scripts/local_kernel_summary.py "$csv" | tee "${csv%.csv}.md"
SCHED_N=${SCHED_N-8192}
if [ -n "$SCHED_N" ]; then
  cmake --build build --target fast_gemm_schedules > /dev/null
  out=results/local-kernel-schedules-$host-$stamp.txt
  for t in ${THREADS:-1 2}; do
    { echo "# $(date -u) $host, load $(cut -d' ' -f1-3 /proc/loadavg): build/bench/fast_gemm_schedules $SCHED_N ${SCHED_L:-3} ${SCHED_ROUNDS:-5} $t"
      build/bench/fast_gemm_schedules "$SCHED_N" "${SCHED_L:-3}" "${SCHED_ROUNDS:-5}" "$t"; } | tee -a "$out"
  done
fi
