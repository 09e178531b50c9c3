#!/usr/bin/env bash
# The local Strassen–Winograd kernel against DGEMM,
# one rank, 1 and 2 threads, L = 0..4 interleaved in one run per (n,
# threads) (rounds in a shuffled order, ratio to the same round's DGEMM,
# median with its interval, 75 % coverage at REPS=3: the paired statistics of `run`), plus the
# kernel's account (local_add_share*, local_passes_by_level) in the CSV.
# Then a paired comparison of the kernel's schedules (plain, accumulate,
# fused-deepest, fused-all = the default) at SCHED_N with SCHED_L levels
# (bench/fast_gemm_schedules.cpp).
#   N=4096,8192,12288 L=0,1,2,3,4 THREADS="1 2" REPS=3 WARMUP=1
#   L_LARGE=0,2,3,4: the levels at n >= 12288 (a DGEMM there takes ~70 s on
#   one core; L_LARGE=0,1,2,3,4 for all five)
#   SCHED_N=8192 SCHED_L=3 SCHED_ROUNDS=5 (SCHED_N= skips it)
#   GEMM=blas,packed: the GEMM under the levels (--local-gemm), both paired
#   in the same rounds by default
# About 30 minutes on the 2-core VM, which must be otherwise idle: a
# neighbour process slows the big DGEMM more than the kernel's small ones
# (seen: DGEMM 4096 at 43 instead of 52 GFLOP/s next to a simulation).
source "$(dirname "$0")/common.sh"
N=${N:-4096,8192,12288}
L=${L:-0,1,2,3,4}
csv=results/local-strassen-vs-dgemm-$host-$stamp.csv
for t in ${THREADS:-1 2}; do
  for n in ${N//,/ }; do
    # 12288 and above: no warm-up round (each costs a minute per level).
    w=${WARMUP:-1} levels=$L
    [ "$n" -ge 12288 ] && w=${WARMUP_LARGE:-0} levels=${L_LARGE:-0,2,3,4}
    mpirun -q -n 1 "$MM" run --algo dgemm --threads "$t" --n "$n" --local-strassen "$levels" \
      --local-gemm "${GEMM:-blas,packed}" --reps "${REPS:-3}" --warmup "$w" --csv "$csv" --quiet
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
