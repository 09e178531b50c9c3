#!/usr/bin/env bash
# 16 real ranks on the lent machine (docs/results.md, "Machine xeon16"), in
# one command that fits its time: a tune at p = 16 (the kernel model fitted
# on each call's slowest rank, as tune does now), an interleaved PDGEMM lb
# ladder at p = 16 against that profile (is `--lb auto` within 3 % of the
# best lb at every n, from one tune at TUNE_N?), the ranks x threads
# layouts of one 16-rank job (--hybrid), and the sweeps at p = 4 and
# 16 that scripts/bench/sim_validation.py then simulates here
# (measured-xeon16.csv, with --parts profile,sim,report).
# Run from the repository root there, after scripts/bench/device_bundle.sh
# here (its folder travels):   OUT=/some/folder scripts/bench/device_p16.sh
# OpenBLAS 0.3.21 runs its Prescott kernels on that CPU unless pinned: every
# step pins KERNEL (default Cooperlake, the fastest there on 2026-11-28) and
# forwards it to every rank. Each step is bounded by `timeout`; its files go
# to a work folder that is tarred into OUT/p16.tar as the step ends (the
# device tool brings back only a few files), so a step cut off loses only
# itself. With several TUNE_NS, each tune gets its own ladder; the sweeps
# follow the first tune, as its profile's measurement.
#   TUNE_NS ("2048"), NS (2048,4096,8192), LBS (32,64,128,256,512), ROUNDS (3),
#   SWEEPS (1; 0 leaves the sweeps out), HYBRIDS (1; 0 leaves the ranks x
#   threads step out), HYBRID_NS (4096)
set -u
cd "$(dirname "$0")/../.."
source scripts/bench/device_env.sh
OUT=${OUT:-/tmp/mmbench-device}
W=/tmp/mmbench-p16
mkdir -p "$OUT" "$W"
log=$W/log.txt
step() { tar -cf "$OUT/p16.tar" -C "$W" .; echo "== $(date -u +%H:%M:%S) $*" | tee -a "$log"; }
say() { "$@" 2>&1 | grep -v -E 'PMIx|pmix' | tee -a "$log"; }
export OPENBLAS_NUM_THREADS=1 OPENBLAS_CORETYPE=${KERNEL:-Cooperlake}
TUNE_NS=${TUNE_NS:-2048}; NS=${NS:-2048,4096,8192}; LBS=${LBS:-32,64,128,256,512}; ROUNDS=${ROUNDS:-3}
mpi=(mpirun -x OPENBLAS_CORETYPE -x OPENBLAS_NUM_THREADS --bind-to core)

step "machine (OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE)"
say lscpu
say free -g
say timeout 40 build/mmbench doctor --no-blas-probe

first=1
for tn in $TUNE_NS; do
  prof=$W/profile-p16-n$tn.json
  step "tune p=16 n=$tn"
  say timeout 200 "${mpi[@]}" -n 16 build/mmbench tune --n "$tn" --passes 3 --no-blas-probe --profile "$prof" \
    --csv "$W/dgemm-profile-p16-n$tn.csv"
  [ -f "$prof" ] || continue
  step "lb ladder p=16 n=$NS lb=$LBS,auto, $ROUNDS rounds, profile tuned at n=$tn"
  say timeout 200 "${mpi[@]}" -n 16 build/mmbench run --algo pdgemm --n "$NS" --lb "$LBS,auto" --profile "$prof" \
    --reps "$ROUNDS" --warmup 1 --csv "$W/lb-ladder-p16-tune$tn.csv" --quiet
  [ $first = 1 ] || continue
  first=0
  # Ranks x threads in one job, interleaved: every algorithm as 16 x 1,
  # 8 x 2, 4 x 4 and 2 x 8 (--hybrid), the peer and auto's pick, so the run's
  # `layouts` line and the model columns answer which layout wins here
  # (compare docs/results.md, "Ranks x threads hybrids priced").
  if [ "${HYBRIDS:-1}" = 1 ]; then
    step "hybrids p=16 n=${HYBRID_NS:-4096}, profile tuned at n=$tn"
    say timeout 240 "${mpi[@]}" -n 16 build/mmbench run --algo tpmm,ring,pdgemm,dgemm,auto --hybrid 1,2,4,8 \
      --lb auto --local-strassen 0 --profile "$prof" --n "${HYBRID_NS:-4096}" --reps 3 --warmup 1 \
      --csv "$W/hybrid-p16.csv"
  fi
  [ "${SWEEPS:-1}" = 1 ] || continue
  # The sweep of sim-validation-xeon16-20261126, measured again (same
  # options and order seed as sim_validation.py's real step).
  for p in 16 4; do
    algos=dgemm,ring,tpmm,2.5d,strassen-q8+tpmm
    [ "$p" = 16 ] && algos=$algos,strassen-q7+ring
    step "sweep p=$p n=4096"
    say timeout 120 "${mpi[@]}" -n "$p" build/mmbench run --algo "$algos" --n 4096 --local-strassen 0 --reps 3 \
      --warmup 1 --order-seed 20261126 --quiet --csv "$W/measured-xeon16.csv"
  done
done
step "done"
