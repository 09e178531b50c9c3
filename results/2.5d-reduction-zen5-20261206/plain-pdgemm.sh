#!/usr/bin/env bash
# Does a plain ScaLAPACK program pay PDGEMM's per-call panels too? The
# project's example program (examples/scalapack_pdgemm, which knows nothing
# of mmbench), lb set through the lb preload library (MMBENCH_LB), 10 calls
# in one process, every call's time printed (times_s); glibc's default
# allocator settings and memory kept (as in run.sh), launches alternated.
#   results/2.5d-reduction-zen5-20261206/plain-pdgemm.sh   (after make build)
set -eu
here=$(dirname "$0")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OPENBLAS_NUM_THREADS=1
out=$here/plain-pdgemm.txt
: > "$out"
for launch in 1 2 3; do
  for n in 1024 2048; do
    for alloc in default keep; do
      for lb in 64 512; do
        envs=(-x OPENBLAS_NUM_THREADS=1)
        [ "$alloc" = keep ] && envs+=(-x MALLOC_MMAP_MAX_=0 -x MALLOC_TRIM_THRESHOLD_=100000000000)
        line=$(mpirun -n 2 "${envs[@]}" -x LD_PRELOAD="$PWD/build/libmmbench-lb.so" -x MMBENCH_LB=$lb \
          build/examples/pdgemm_example --n $n --reps 10)
        echo "launch=$launch alloc=$alloc lb_asked=$lb $line" >> "$out"
      done
    done
  done
done
