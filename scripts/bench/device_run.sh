#!/usr/bin/env bash
# The measurements on the lent 16-core machine (docs/results.md, "Real ranks
# on a 16-core machine"), in one command that fits its time: the machine,
# a tune at p = 16, sweeps at p = 4 and 16, libmmbench-dispatch.so against
# ScaLAPACK at p = 16. Run from the repository root there, after
# scripts/bench/device_bundle.sh here (its folder travels):
#   OUT=/some/folder scripts/bench/device_run.sh
# Every step writes into OUT as it ends (log.txt, profile.json, runs.tar,
# dispatch.tar, tune.tar), so a step cut off by the time limit loses only itself.
set -u
cd "$(dirname "$0")/../.."
source scripts/bench/device_env.sh
OUT=${OUT:-/tmp/mmbench-device}
mkdir -p "$OUT" results/local
log=$OUT/log.txt
step() { echo "== $(date -u +%H:%M:%S) $*" | tee -a "$log"; }
say() { "$@" 2>&1 | tee -a "$log"; }
export OPENBLAS_NUM_THREADS=1
P=${P:-16}; TUNE_N=${TUNE_N:-4096}; NS_RUN=${NS_RUN:-4096,8192}; NS_RUN4=${NS_RUN4:-4096}; NS_DISPATCH=${NS_DISPATCH:-8192}
host=$(hostname)
prof=configs/$host.json

step "machine"
say lscpu
say free -g
say env | grep -E '^OPENBLAS|^OMP_' || true
say build/mmbench doctor --no-blas-probe

step "tune p=$P n=$TUNE_N"
say timeout 200 mpirun -n "$P" --bind-to core build/mmbench tune --n "$TUNE_N" --passes 3 --no-blas-probe
[ -f "$prof" ] && cp "$prof" "$OUT/profile.json"
tar -cf "$OUT/tune.tar" results/local 2>/dev/null
profile_args=()
[ -f "$prof" ] && profile_args=(--profile "$prof" --lb default,auto)

step "run p=$P n=$NS_RUN"
say timeout 180 mpirun -n "$P" --bind-to core build/mmbench run --algo dgemm,pdgemm,ring,tpmm,2.5d,strassen-q8+tpmm,strassen-q7+ring,auto \
  --n "$NS_RUN" --reps 3 "${profile_args[@]}" --csv results/local/run-p$P.csv --quiet
step "run p=4 n=$NS_RUN4"
say timeout 90 mpirun -n 4 --bind-to core build/mmbench run --algo dgemm,pdgemm,ring,tpmm,2.5d,strassen-q8+tpmm,auto \
  --n "$NS_RUN4" --reps 3 "${profile_args[@]}" --csv results/local/run-p4.csv --quiet
tar -cf "$OUT/runs.tar" results/local/run-p*.csv results/local/run-p*.csv.json 2>/dev/null

if [ -f "$prof" ]; then
  step "dispatch p=$P n=$NS_DISPATCH"
  say env P="$P" NS="$NS_DISPATCH" ROUNDS=2 REPS=2 OUT=results/local/dispatch timeout 120 scripts/bench/dispatch.sh
  step "dispatch LU p=$P n=$NS_DISPATCH"
  say env P="$P" NS="$NS_DISPATCH" ROUNDS=1 REPS=1 LU=1 OUT=results/local/dispatch timeout 60 scripts/bench/dispatch.sh
  tar -cf "$OUT/dispatch.tar" results/local/dispatch 2>/dev/null
fi
step "done"
