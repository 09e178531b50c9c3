#!/usr/bin/env bash
# What libmmbench-lb.so gives a ScaLAPACK program that is not
# mmbench. PDGEMM of examples/scalapack_pdgemm (plain C, ScaLAPACK + MPI) at
# p = P, n = N, nb = NB, without and with the library, interleaved in
# rounds so that the drift of a shared machine hits both alike; the order
# within a round alternates (odd rounds: without first, even: with first),
# so neither variant always runs second, on a machine warmed or throttled
# by the other. REPS timed PDGEMM calls per run.
#   N=4096 P=2 NB=64 REPS=3 ROUNDS=5 (defaults); OUT=results (the folder)
#   LB=256 serves that lb (MMBENCH_LB); otherwise PROFILE (default
#   configs/<host>.json, from `mmbench tune`) gives it (MMBENCH_PROFILE).
# Writes OUT/preload-lb-pdgemm-app-<host>-<stamp>.csv (one row per run, in the order
# run; `position` = 1 for the round's first run, 2 for its second; the app
# checked C every time) and its sidecar .csv.json with the machine and the
# order rule (scripts/bench/bench_sidecar.py), prints the Markdown table of
# scripts/preload_summary.py (each variant's median GFLOP/s, the speed-up per round).
source "$(dirname "$0")/common.sh"
APP=${APP:-build/examples/pdgemm_example}
LIB=${LIB:-build/libmmbench-lb.so}
N=${N:-4096}; P=${P:-2}; NB=${NB:-64}; REPS=${REPS:-3}; ROUNDS=${ROUNDS:-5}
PROFILE=${PROFILE:-configs/$host.json}
[ -x "$APP" ] && [ -f "$LIB" ] || { echo "preload_lb.sh: build first (make build): no $APP or $LIB" >&2; exit 1; }
if [ -n "${LB:-}" ]; then lbvar=(MMBENCH_LB="$LB"); from="MMBENCH_LB=$LB"
elif [ -f "$PROFILE" ]; then lbvar=(MMBENCH_PROFILE="$PROFILE"); from="MMBENCH_PROFILE=$PROFILE"
else echo "preload_lb.sh: give LB=<lb> or PROFILE=<profile> (no $PROFILE; run mmbench tune first)" >&2; exit 2; fi
[ "$P" -le "$(nproc)" ] || { echo "preload_lb.sh: p = $P > $(nproc) cores (timings of oversubscribed runs mean nothing)" >&2; exit 2; }
lib=$(cd "$(dirname "$LIB")" && pwd)/$(basename "$LIB")
OUT=${OUT:-results}
mkdir -p "$OUT"
csv=$OUT/preload-lb-pdgemm-app-$host-$stamp.csv
echo "round,variant,position,p,n,nb,reps,lb,override_calls,t_min_s,t_median_s,gflops,checked,wrong" >"$csv"
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
app_args=(--n "$N" --nb "$NB" --reps "$REPS")
get() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$line"; }  # a value of the app's report line
for round in $(seq 1 "$ROUNDS"); do
  if [ $((round % 2)) = 1 ]; then order=(without with); else order=(with without); fi
  position=0
  for variant in "${order[@]}"; do
    position=$((position + 1))
    # A clean environment: no lb setting of the caller's leaks into "without".
    env_args=(-u LD_PRELOAD -u MMBENCH_LB -u MMBENCH_PROFILE -u MMBENCH_VERBOSE)
    [ "$variant" = with ] && env_args+=(LD_PRELOAD="$lib" "${lbvar[@]}")
    line=$(env "${env_args[@]}" mpirun -q -n "$P" "$APP" "${app_args[@]}" | grep '^pdgemm_example ') ||
      { echo "preload_lb.sh: the example failed ($variant, round $round): ${line:-no report}" >&2; exit 1; }
    # The lb PBLAS got: a profile's lb after the cap for this PDGEMM.
    lb=$(get served); [ "$lb" = default ] && lb=32  # ScaLAPACK's own PILAENV
    echo "$round,$variant,$position,$P,$N,$NB,$REPS,$lb,$(get calls),$(get t_min_s),$(get t_median_s),$(get gflops),$(get checked),$(get wrong)" >>"$csv"
    echo "round $round $variant (run $position of 2): lb $lb, median $(get t_median_s) s, $(get gflops) GFLOP/s"
  done
done
python3 scripts/bench/bench_sidecar.py "$csv" mmbench-preload-lb/2 \
  "alternating per round: odd rounds without then with, even rounds with then without (CSV column position: 1 = the round's first run)" \
  "$started" "$0 (N=$N P=$P NB=$NB REPS=$REPS ROUNDS=$ROUNDS $from)" "$P" "$("$MM" --help | sed -n '1s/^mmbench \([^ ]*\).*/\1/p')" \
  "$(mpirun --version | sed -n 1p)" "$(pkg-config --modversion scalapack-openmpi 2>/dev/null || true)"
python3 scripts/preload_summary.py "$csv"
