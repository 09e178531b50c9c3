#!/usr/bin/env bash
# The machine's limit on the machine at hand (2 cores or more), the
# benchmark list of docs/results.md "The machine's limit": doctor as
# detected and with the BLAS kernel pinned, `tune --n 2048` and
# `tune --n 4096` at p = 2, an interleaved PDGEMM lb ladder at p = 2 read
# against both tunes' lb curves, and local Strassen-Winograd against DGEMM
# at one rank, one thread (n = 4096, L = 0..2, and n = 8192, L = 0 and 3,
# on both leaves), each row with its additions' share.
#   KERNEL=Cooperlake  the OpenBLAS core every timed step pins (doctor's
#                      advice where OpenBLAS does not know the CPU; empty:
#                      as detected), recorded in every sidecar
#   STEPS="doctor tune ladder strassen" (default all); OUT=results/machine-limit-<host>-<stamp>
#   ROUNDS=5 (ladder n <= 4096 and n = 4096 Strassen), ROUNDS8192=2
# About 20 minutes on 2 cores; run it on a quiet machine, nothing else timing.
source "$(dirname "$0")/common.sh"
kernel=${KERNEL-Cooperlake}
[ -n "$kernel" ] && export OPENBLAS_CORETYPE=$kernel
steps=" ${STEPS:-doctor tune ladder strassen} "
want() { [[ $steps == *" $1 "* ]]; }
out=${OUT:-results/machine-limit-$host-$stamp}
rounds=${ROUNDS:-5}; rounds8192=${ROUNDS8192:-2}
mkdir -p "$out"
mpi=(mpirun -q -x OPENBLAS_NUM_THREADS)
[ -n "$kernel" ] && mpi+=(-x OPENBLAS_CORETYPE)
step() { echo "== $(date -u +%H:%M:%S) $*"; }

if want doctor; then
  step "doctor, OpenBLAS as detected"
  env -u OPENBLAS_CORETYPE "$MM" doctor > "$out/doctor-detected.txt" 2>&1 || true
  step "doctor, ${kernel:-as detected}"
  "$MM" doctor > "$out/doctor.txt" 2>&1 || true
fi
if want tune; then
  for n in 2048 4096; do
    step "tune --n $n at p = 2"
    "${mpi[@]}" -n 2 "$MM" tune --n "$n" --profile "$out/profile-n$n.json" \
      --csv "$out/dgemm-profile-n$n.csv" > "$out/tune-n$n.txt" 2>&1
  done
fi
if want ladder; then
  # The tuned lb of tune --n 2048 runs as `auto`; tune --n 4096's lbs are
  # read off the explicit rows (lb_ladder_summary.py NAME=N:LB,...).
  step "lb ladder n = 1024..4096, $rounds rounds"
  OUT=$out/ladder NS="1024 2048 4096" LBS=32,64,128,256,512,1024 ROUNDS=$rounds PROFILE=$out/profile-n2048.json \
    scripts/bench/lb_ladder.sh > /dev/null
  step "lb ladder n = 8192, $rounds8192 rounds"
  OUT=$out/ladder8192 NS=8192 LBS=128,256,512,1024 ROUNDS=$rounds8192 PROFILE=$out/profile-n2048.json \
    scripts/bench/lb_ladder.sh > /dev/null
fi
if want strassen; then
  step "local Strassen-Winograd n = 4096, L = 0..2, both leaves, $rounds rounds"
  "${mpi[@]}" -n 1 "$MM" run --algo dgemm --n 4096 --local-strassen 0,1,2 --local-gemm blas,packed \
    --profile "$out/profile-n2048.json" --reps "$rounds" --warmup 0 --csv "$out/strassen-n4096.csv" --quiet
  step "local Strassen-Winograd n = 8192, L = 0 and 3, both leaves, 3 rounds"
  "${mpi[@]}" -n 1 "$MM" run --algo dgemm --n 8192 --local-strassen 0,3 --local-gemm blas,packed \
    --profile "$out/profile-n2048.json" --reps 3 --warmup 0 --csv "$out/strassen-n8192.csv" --quiet
fi
step "done: $out"
