#!/usr/bin/env bash
# The second call on the lent 16-core machine (docs/results.md, "Machine xeon16"): PDGETRF
# plain vs dispatch in 3 rounds, a sweep and the dispatcher under OPENBLAS_CORETYPE=SkylakeX
# with the profile of the first call (device_run.sh), copied into .devbundle/device-profile.json.
# Run from the repository root there, OUT set: scripts/bench/device_run2.sh
cd "$(dirname "$0")/../.."
set -u
source scripts/bench/device_env.sh
mkdir -p configs results/local; cp .devbundle/device-profile.json configs/$(hostname).json
log=$OUT/log2.txt
step() { echo "== $(date -u +%H:%M:%S) $*" | tee -a "$log"; }
export OPENBLAS_NUM_THREADS=1
step "LU p=16 n=8192, 3 rounds (OpenBLAS as detected)"
env P=16 NS=8192 ROUNDS=3 REPS=1 LU=1 OUT=results/local/lu timeout 70 scripts/bench/dispatch.sh 2>&1 | grep -v PMIx | tee -a "$log"
tar -cf $OUT/lu.tar results/local/lu
step "SkylakeX kernels: doctor and a sweep p=16 n=8192"
OPENBLAS_CORETYPE=SkylakeX timeout 30 build/mmbench doctor --no-blas-probe 2>&1 | grep -E "blas|peak" | tee -a "$log"
OPENBLAS_CORETYPE=SkylakeX timeout 120 mpirun -x OPENBLAS_CORETYPE -n 16 --bind-to core build/mmbench run --algo dgemm,pdgemm,ring,tpmm --n 8192 --reps 3 --csv results/local/run-p16-skylakex.csv --quiet 2>&1 | grep -v PMIx | tee -a "$log"
tar -cf $OUT/skx.tar results/local/run-p16-skylakex.csv*
step "dispatch p=16 n=8192 under SkylakeX kernels, the profile tuned under Prescott, GEMM blas"
OPENBLAS_CORETYPE=SkylakeX MMBENCH_DISPATCH_GEMM=blas env P=16 NS=8192 ROUNDS=1 REPS=2 OUT=results/local/dskx timeout 60 scripts/bench/dispatch.sh 2>&1 | grep -v PMIx | tee -a "$log"
tar -cf $OUT/dskx.tar results/local/dskx
step done
