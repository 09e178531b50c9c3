#!/usr/bin/env bash
# One run of the dispatcher's randomized suite (dispatch_suite.cpp), with
# the census written and checked against the calls made.
#   suite_case.sh MPIRUN LIB SUITE DIR NAME P [VAR=VALUE...] -- SUITE_ARGS... [-- check_census args]
# VAR=VALUE: extra environment for the ranks (MMBENCH_PROFILE=..., say).
set -u
mpirun=$1 lib=$2 suite=$3 name=$5 dir=$4/$5 p=$6
shift 6
envs=() args=() extra=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=(-x "$1"); shift; done
[ $# -gt 0 ] && shift
while [ $# -gt 0 ] && [ "$1" != "--" ]; do args+=("$1"); shift; done
[ $# -gt 0 ] && shift && extra=("$@")
rm -rf "$dir"; mkdir -p "$dir"
env -u MMBENCH_PROFILE -u MMBENCH_LB -u MMBENCH_DISPATCH -u MMBENCH_DISPATCH_FORCE \
  "$mpirun" -q -n "$p" -x LD_PRELOAD="$lib" -x MMBENCH_DISPATCH_MIN_DIM=0 -x OPENBLAS_NUM_THREADS=1 \
  -x MMBENCH_DISPATCH_LOG="$dir/census.csv" ${MMBENCH_DISPATCH_MAX_MB:+-x MMBENCH_DISPATCH_MAX_MB} "${envs[@]}" \
  "$suite" --expect "$dir/expected.csv" "${args[@]}" >"$dir/out.txt" 2>&1
rc=$?
cat "$dir/out.txt"
[ $rc -eq 0 ] || { echo "FAIL: dispatch_suite exit $rc"; exit 1; }
grep -q "mmbench-dispatch census" "$dir/out.txt" || { echo "FAIL: no census summary at MPI_Finalize"; exit 1; }
python3 "$(dirname "$0")/check_census.py" "$dir/census.csv" "$dir/expected.csv" "${extra[@]}" || exit 1
echo "suite_case $name passed"
