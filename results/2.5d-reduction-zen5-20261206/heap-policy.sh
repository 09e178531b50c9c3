#!/usr/bin/env bash
# PDGEMM lb 512 against lb 64 in `run` with mmbench's heap policy (freed heap
# memory kept, core/machine/heap_policy.hpp) and without it: any glibc
# malloc variable set turns it off, and GLIBC_TUNABLES=glibc.malloc.perturb=0
# sets one to its default value, so glibc runs as by default. Launches
# alternated.   results/2.5d-reduction-zen5-20261206/heap-policy.sh  (after make build)
set -eu
here=$(dirname "$0")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OPENBLAS_NUM_THREADS=1
rm -f "$here"/pdgemm-lb-policy-*.csv "$here"/pdgemm-lb-policy-*.csv.json
for launch in 1 2 3; do
  for policy in kept off; do
    envs=(X=1)
    [ "$policy" = off ] && envs=(GLIBC_TUNABLES=glibc.malloc.perturb=0)
    env "${envs[@]}" mpirun -n 2 build/mmbench run --algo pdgemm --lb 64,512 --n 1024,2048 --reps 5 --quiet \
      --csv "$here/pdgemm-lb-policy-$policy.csv" > /dev/null
  done
done
