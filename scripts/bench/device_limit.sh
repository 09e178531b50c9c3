#!/usr/bin/env bash
# Issue-43 measurements on the lent 16-core Intel machine (docs/results.md,
# "Machine xeon16"), in one command that fits its time: doctor (FMA peak,
# the GEMM ceiling, OpenBLAS's cores), a one-rank tune (the packed GEMM's
# blockings against DGEMM), the packed GEMM and local Strassen-Winograd
# against DGEMM at one thread, and ranks x threads layouts of 16 cores.
# Run from the repository root there, after scripts/bench/device_bundle.sh
# here (its folder travels):   OUT=/some/folder scripts/bench/device_limit.sh
# OpenBLAS 0.3.21 does not recognise that CPU and runs its Prescott (SSE3)
# kernels; every timed step but the first doctor pins the SkylakeX kernels
# (KERNEL=...) so that DGEMM is a fair peer, and says so in its sidecar.
# Each step is bounded by `timeout` and tars its files into OUT as it ends.
# STEPS picks steps (default all: machine tune packed strassen4096
# strassen8192 layouts); ROUNDS8192 the rounds at n = 8192 (default 3).
set -u
cd "$(dirname "$0")/../.."
source scripts/bench/device_env.sh
OUT=${OUT:-/tmp/mmbench-device}
mkdir -p "$OUT" results/local
log=$OUT/log.txt
step() { echo "== $(date -u +%H:%M:%S) $*" | tee -a "$log"; }
say() { "$@" 2>&1 | grep -v -E 'PMIx|pmix' | tee -a "$log"; }
save() { tar -cf "$OUT/results.tar" results/local 2>/dev/null; }
export OPENBLAS_NUM_THREADS=1
kernel=${KERNEL:-SkylakeX}
steps=" ${STEPS:-machine tune packed strassen4096 strassen8192 layouts} "
want() { [[ $steps == *" $1 "* ]]; }
prof=results/local/profile-p1-$kernel.json
r=results/local
# A one-rank tune measures no network, and run --profile before 348d8b3's
# successor wanted one even on one rank; these one-rank runs send nothing,
# so any values do (kept so that the recorded commands stay as they ran).
net=(--tau 100000 --lambda 0)

if want machine; then
  step "machine"
  say lscpu
  say free -g
  say env | grep -E '^OPENBLAS|^OMP_' || true
  say timeout 60 build/mmbench doctor
fi
step "doctor ($kernel)"
say env OPENBLAS_CORETYPE="$kernel" timeout 30 build/mmbench doctor --no-blas-probe

export OPENBLAS_CORETYPE=$kernel
want tune && step "tune, one rank, n = 2048 ($kernel)" &&
say timeout 100 mpirun -x OPENBLAS_CORETYPE -n 1 build/mmbench tune --n 2048 --passes 2 --no-lb-check \
  --no-kernel-model --no-blas-probe --no-local --profile "$prof" --csv $r/dgemm-profile-p1-$kernel.csv
save
pa=()
[ -f "$prof" ] && pa=(--profile "$prof" "${net[@]}")

want packed && step "packed GEMM against DGEMM, one thread, n = 2048, 4096 ($kernel)" &&
say timeout 60 mpirun -x OPENBLAS_CORETYPE -n 1 build/mmbench run --algo dgemm --n 2048,4096 --local-gemm blas,packed \
  --reps 5 "${pa[@]}" --csv $r/packed-vs-dgemm-$kernel.csv --quiet
save

want strassen4096 && step "local Strassen-Winograd against DGEMM, one thread, n = 4096 (L = 2, $kernel)" &&
say timeout 60 mpirun -x OPENBLAS_CORETYPE -n 1 build/mmbench run --algo dgemm --n 4096 --local-strassen 0,2 \
  --local-gemm blas,packed --reps 3 --warmup 0 "${pa[@]}" --csv $r/local-strassen-4096-$kernel.csv --quiet
save
rounds=${ROUNDS8192:-3}
want strassen8192 && step "local Strassen-Winograd against DGEMM, one thread, n = 8192 (L = 3, $kernel, $rounds rounds)" &&
say timeout $((40 * rounds)) mpirun -x OPENBLAS_CORETYPE -n 1 build/mmbench run --algo dgemm --n 8192 --local-strassen 0,3 \
  --local-gemm blas --reps "$rounds" --warmup 0 "${pa[@]}" --csv $r/local-strassen-8192-$kernel.csv --quiet
save

# P ranks of T threads each on 16 cores: Open MPI gives each rank T cores
# (--map-by slot:PE=T), mmbench's --threads sets its BLAS threads. Every run
# has the dgemm peer (one rank, 16 threads), so layouts compare as ratios.
want layouts && for t in 1 2 4 8 16; do
  p=$((16 / t))
  step "ranks x threads: $p x $t, n = 8192 ($kernel)"
  say timeout 60 mpirun -x OPENBLAS_CORETYPE -n $p --map-by slot:PE=$t --bind-to core build/mmbench run \
    --algo dgemm,tpmm,pdgemm --threads $t --n 8192 --reps 3 --csv $r/layout-${p}x$t.csv --quiet
  save
done
step "done"
