#!/usr/bin/env bash
# 2.5D's sum of C over its layers, before (MPI_Reduce) and after (its own
# binomial tree of sends into a buffer the plan holds), and why: a fresh
# temporary per MPI_Reduce call where first touching memory is slow.
#   OLD=/tmp/mmbench-old NEW=build/mmbench results/2.5d-reduction-zen5-20261206/run.sh
# OLD: mmbench built from a74a841 (MPI_Reduce); NEW: this commit.
# profile-n2048.json: `mpirun -n 2 build/mmbench tune --n 2048` on this VM
# just before (its lb curve's point n = 1024: lb 512).
set -eu
here=$(dirname "$0")
: "${OLD:?mmbench built before the change}" "${NEW:=build/mmbench}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OPENBLAS_NUM_THREADS=1
{ lscpu | grep -E "Model name|CPU family|^Model:"; echo "OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-unset}"; } > "$here/machine.txt"
# The mechanism, in a program of its own.
mpicxx -O2 -Wall "$here/reduce_first_touch.cpp" -o /tmp/reduce_first_touch
mpirun -n 2 /tmp/reduce_first_touch > "$here/reduce_first_touch.txt"
MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=100000000000 mpirun -n 2 /tmp/reduce_first_touch \
  > "$here/reduce_first_touch-no-mmap.txt"
# 2.5D against ring in the same launch, old and new binaries alternating.
for launch in 1 2 3; do
  for which in old new; do
    bin=$OLD; [ "$which" = new ] && bin=$NEW
    mpirun -n 2 "$bin" run --algo ring,2.5d --n 1024,2048,4096 --reps 3 --quiet \
      --profile "$here/profile-n2048.json" --csv "$here/ring-2.5d-$which.csv" > /dev/null
  done
done
# PDGEMM allocates its panels on every call: lb 64 against lb 512 under
# glibc's default allocator settings and with both its ways of handing
# memory back switched off (MALLOC_MMAP_MAX_=0: no fresh mapping per large
# block; MALLOC_TRIM_THRESHOLD_ huge: no trim of the heap's top), launches
# alternated.
for launch in 1 2 3; do
  for alloc in default keep; do
    envs=(X=1)
    [ "$alloc" = keep ] && envs=(MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=100000000000)
    env "${envs[@]}" mpirun -n 2 "$NEW" run --algo pdgemm --lb 64,512 --n 1024,2048 --reps 5 --quiet \
      --csv "$here/pdgemm-lb-alloc-$alloc.csv" > /dev/null
  done
done
