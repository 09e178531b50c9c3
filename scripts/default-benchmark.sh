#!/usr/bin/env bash
# `make run`: the default experiment on this machine.
#
#   scripts/default-benchmark.sh [path/to/mmbench] [--quick|--full]
#
# 1. tunes (mmbench tune) if configs/<host>.json does not exist yet,
# 2. sweeps the algorithms at p = 1 and p = <cores> (one BLAS thread per
#    rank; the dgemm peer uses all cores in one rank) over a few sizes,
#    and, with a profile, runs the cost model's pick (--algo auto) per size,
# 3. writes results/local/default-<host>-<time>.csv (+ .json sidecar), plots to
#    plots/latest/, and prints a summary: best algorithm per n, MFLOPS per
#    core, ratio to the DGEMM peer of the same run.
# Ranks never exceed the cores: this measures speed, so no oversubscription.
#
# Everything it writes is new and ignored by git (.gitignore): timestamped
# results/local/default-<host>-<time>*, plots/latest/, configs/<host>.json. A
# clone stays clean (`git status` shows nothing); to publish a result, copy
# it into results/ and `git add -f` it there. The committed figures of the
# README live in docs/figures/.
#
# --smoke (for tests/cli/make_run_clean.sh): one tiny size, one repetition, a
# tune of a few seconds, at most 2 ranks. Measures nothing worth reading.
#
# Where OPENBLAS_CORETYPE is unset and OpenBLAS's own core is slower than
# one it can run (mmbench doctor --faster-blas-core), the faster core is
# pinned for the whole experiment.
set -euo pipefail
cd "$(dirname "$0")/.."
MM=${1:-build/mmbench}
MODE=${2:-${MODE:---default}}
host=$(hostname)
cores=$(nproc)
stamp=$(date -u +%Y%m%dT%H%M%SZ)
tune_args=(--n 4096)
case "$MODE" in
  --quick) sizes=512,1024; reps=3 ;;
  --full) sizes=1024:8192:1024; reps=5 ;;
  --smoke) sizes=64; reps=1; tune_args=(--n 128 --kmin 8 --kmax 64 --reps 1 --warmup 0 --no-local --no-blas-probe --quiet) ;;
  *) sizes=1024,2048,4096; reps=3 ;;
esac
# Open MPI refuses root unless told; this script runs the benchmark for the
# user who typed `make run`, who may be root in a container.
if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
export OPENBLAS_NUM_THREADS=1
plots=plots/latest
mkdir -p results/local "$plots" configs
profile=configs/$host.json
P=$cores
[ "$P" -gt 16 ] && P=16
[ "$MODE" = --smoke ] && [ "$P" -gt 2 ] && P=2
csv=results/local/default-$host-$stamp.csv

t0=$(date +%s)
# OpenBLAS may not know this CPU and run a slow core (Debian's 0.3.21 runs
# Prescott, SSE3, on some AVX-512 Xeons: a tune there took 543 of make run's
# 600 s and described a DGEMM 6x slower than the one `run` then switched
# to). Where the environment pins no core, the fastest verified one is
# pinned for the tune and every run alike, and said so; a pin of the
# environment is kept. Not in --smoke (a test: it leaves the core alone).
if [ "$MODE" != --smoke ] && [ -z "${OPENBLAS_CORETYPE:-}" ]; then
  faster=$("$MM" doctor --faster-blas-core 2>/dev/null || true)
  if [ -n "$faster" ]; then
    export OPENBLAS_CORETYPE=$faster
    echo "== OpenBLAS's own choice of core is slower here: this make run pins OPENBLAS_CORETYPE=$faster, the fastest it verified (set OPENBLAS_CORETYPE yourself to choose)"
  fi
fi
# A here-string, not a pipe: under pipefail grep -q's early exit could
# fail the writer with SIGPIPE and so the test.
if grep -q '^ *tune' <<<"$("$MM" --help 2>/dev/null)"; then
  if [ ! -f "$profile" ]; then
    echo "== tuning this machine (no $profile yet): mmbench tune at p = $P"
    mpirun -q -n "$P" "$MM" tune "${tune_args[@]}" --profile "$profile" --csv "${csv%.csv}-dgemm-profile.csv"
  else
    echo "== using the existing machine profile $profile (delete it to re-tune)"
  fi
fi
lbs=default
prof=()
if [ -f "$profile" ]; then lbs=default,auto; prof=(--profile "$profile"); fi
# `make run` keeps to 10 minutes: on a slow machine (a tune of 6 minutes,
# DGEMM at 18 GFLOP/s per core) n = 4096 alone would take over 4. The
# largest sizes that would not fit in what is left are dropped, with a line
# saying so (scripts/sweep_sizes.py). --full and --quick run their sizes as asked.
# The minutes count from when `make run` started (MMBENCH_MAKE_STARTED, set
# by the Makefile), since on a fresh machine installing and building spend
# part of them; run by hand, from this script's start.
started=${MMBENCH_MAKE_STARTED:-$t0}
if [ "$MODE" = --default ] && [ -f "$profile" ]; then
  left=$(( 570 - ($(date +%s) - started) ))
  kept=$(python3 scripts/sweep_sizes.py "$profile" "$sizes" "$reps" "$P" "$left")
  [ -n "$kept" ] && sizes=$kept
fi
# The cost model's pick (--algo auto) runs in the same sweep as the
# algorithms it is compared with, so its regret comes from the same rounds.
one=dgemm,ring,pdgemm
[ "$P" = 1 ] && [ -f "$profile" ] && one=$one,auto
echo "== p = 1: $one (lb $lbs), n = $sizes"
mpirun -q -n 1 "$MM" run --algo "$one" --lb "$lbs" --n "$sizes" --reps "$reps" --csv "$csv" "${prof[@]}"
algos=all
[ -f "$profile" ] && algos=all,auto
if [ "$P" -gt 1 ]; then
  echo "== p = $P: every algorithm (not-applicable rows say why) plus --algo auto when a profile exists, n = $sizes"
  mpirun -q -n "$P" "$MM" run --algo "$algos" --lb "$lbs" --n "$sizes" --reps "$reps" --csv "$csv" "${prof[@]}"
fi
echo
echo "== summary ($csv)"
python3 scripts/summarize.py "$csv"
echo
echo "== plots"
python3 plots/mmbench_plot.py --out "$plots" --title-prefix "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $cores cores" "$csv" || echo "(plotting failed; the CSV is intact)"
echo "== done in $(( $(date +%s) - t0 )) s: results in $csv, plots in $plots/"
