#!/usr/bin/env bash
# What libmmbench-dispatch.so gives a plain ScaLAPACK program: the example
# program (examples/scalapack_pdgemm) at p = P, for each n of NS, in
# interleaved rounds of four variants --
#   plain      ScaLAPACK alone (lb 32)
#   lb         libmmbench-lb.so with the profile (the tuned lb, capped per call)
#   classical  libmmbench-dispatch.so with the profile (ring, tpmm, 2.5d or ScaLAPACK)
#   strassen   the same with MMBENCH_DISPATCH_STRASSEN=1
# -- the order rotated by one per round, so no variant always runs first.
# Each run makes REPS timed calls of one shape (the first pays what a
# library prepares); CALLS="1 2 3" makes runs of 1, 2 and 3 calls each
# instead, as programs that call a shape once, twice or three times.
# t_median_s is the median of a run's calls, times_s every call's time in
# order (';' between); every run checks C (Strassen runs within 18^3 x the
# classical bound). With LU=1 the example factors instead (PDGETRF, whose
# trailing updates call PDGEMM), plain against classical. SHRINK=S makes
# call r of a run multiply the leading n - S r submatrices (a new shape on
# every call, as a factorization's updates are; the example's --shrink).
# VARIANTS="lb strassen" runs only those; a variant force:MEMBER runs the
# dispatcher with MMBENCH_DISPATCH_FORCE=MEMBER (tpmm, tpmm/2 for a ranks x
# threads hybrid, ring:1, ...), and hybrid the model with
# MMBENCH_DISPATCH_HYBRID=1.
#   NS="4096 8192" P=2 NB=64 REPS=3 ROUNDS=3 PROFILE=configs/<host>.json OUT=results
# Writes OUT/dispatch-<host>-<stamp>.csv (one row per run), the censuses of
# the dispatch runs beside it (…-census-<variant>-n<N>-r<round>.csv) and a
# sidecar .csv.json with the machine (scripts/bench/bench_sidecar.py); prints
# the Markdown table of scripts/dispatch_summary.py (each variant's median,
# its ratio to plain and to lb with the rounds' range, what the census says ran).
source "$(dirname "$0")/common.sh"
APP=${APP:-build/examples/pdgemm_example}
LBLIB=${LBLIB:-build/libmmbench-lb.so}
DLIB=${DLIB:-build/libmmbench-dispatch.so}
NS=${NS:-4096 8192}; P=${P:-2}; NB=${NB:-64}; REPS=${REPS:-3}; ROUNDS=${ROUNDS:-3}; LU=${LU:-0}; CALLS=${CALLS:-$REPS}
SHRINK=${SHRINK:-0}
PROFILE=${PROFILE:-configs/$host.json}
OUT=${OUT:-results}
[ -x "$APP" ] && [ -f "$LBLIB" ] && [ -f "$DLIB" ] || { echo "dispatch.sh: build first (make build)" >&2; exit 1; }
[ -f "$PROFILE" ] || { echo "dispatch.sh: no profile $PROFILE (run mmbench tune first)" >&2; exit 2; }
[ "$P" -le "$(nproc)" ] || { echo "dispatch.sh: p = $P > $(nproc) cores (oversubscribed timings mean nothing)" >&2; exit 2; }
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
lblib=$(abs "$LBLIB"); dlib=$(abs "$DLIB"); profile=$(abs "$PROFILE")
mkdir -p "$OUT"
base=$OUT/dispatch-$host-$stamp
csv=$base.csv
echo "round,variant,position,mode,p,n,nb,reps,t_min_s,t_median_s,gflops,checked,wrong,max_err,census,times_s" >"$csv"
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
if [ "$LU" = 1 ]; then variants=(plain classical); mode=(--lu); else variants=(plain lb classical strassen); mode=(); fi
[ "$SHRINK" -gt 0 ] && mode+=(--shrink "$SHRINK")
[ -n "${VARIANTS:-}" ] && read -r -a variants <<<"$VARIANTS"
get() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$line"; }
for n in $NS; do
 for reps in $CALLS; do
  for round in $(seq 1 "$ROUNDS"); do
    k=${#variants[@]}; shift_by=$(( (round - 1) % k ))
    order=("${variants[@]:$shift_by}" "${variants[@]:0:$shift_by}")
    position=0
    for v in "${order[@]}"; do
      position=$((position + 1))
      envs=(-u LD_PRELOAD -u MMBENCH_LB -u MMBENCH_PROFILE -u MMBENCH_DISPATCH -u MMBENCH_DISPATCH_FORCE
            -u MMBENCH_DISPATCH_STRASSEN -u MMBENCH_DISPATCH_HYBRID -u MMBENCH_DISPATCH_LOG -u MMBENCH_VERBOSE)
      census=""
      tol=1
      case $v in
        lb) envs+=(LD_PRELOAD="$lblib" MMBENCH_PROFILE="$profile") ;;
        classical|strassen|hybrid|force:*)
          census=$base-census-$(tr ':/' '-h' <<<"$v")-n$n-c$reps-r$round.csv
          envs+=(LD_PRELOAD="$dlib" MMBENCH_PROFILE="$profile" MMBENCH_DISPATCH_LOG="$census")
          [ "$v" = strassen ] && envs+=(MMBENCH_DISPATCH_STRASSEN=1) && tol=5832
          [ "$v" = hybrid ] && envs+=(MMBENCH_DISPATCH_HYBRID=1)
          if [[ $v == force:* ]]; then
            envs+=(MMBENCH_DISPATCH_FORCE="${v#force:}" MMBENCH_DISPATCH_MIN_DIM=0)
            # force:ring:2 -> 18^2, the bound of two local levels
            if [[ ${v#force:} =~ :([0-9]+) ]]; then tol=$((18 ** BASH_REMATCH[1])); fi
          fi ;;
      esac
      line=$(env "${envs[@]}" mpirun -q -n "$P" "$APP" --n "$n" --nb "$NB" --reps "$reps" --tol "$tol" "${mode[@]}" 2>/dev/null |
             grep '^pdgemm_example ') || { echo "dispatch.sh: $v n=$n round $round failed: ${line:-no report}" >&2; exit 1; }
      echo "$round,$v,$position,$(get mode),$P,$n,$NB,$reps,$(get t_min_s),$(get t_median_s),$(get gflops),$(get checked),$(get wrong),$(get max_err),$(basename "${census:-}"),$(get times_s | tr , ';')" >>"$csv"
      echo "n=$n calls=$reps round $round $v (run $position): calls $(get times_s) s, wrong $(get wrong)"
    done
  done
 done
done
python3 scripts/bench/bench_sidecar.py "$csv" mmbench-dispatch-bench/1 \
  "variants rotated by one per round (CSV column position: 1 = the round's first run)" "$started" \
  "$0 (NS='$NS' P=$P NB=$NB CALLS='$CALLS' ROUNDS=$ROUNDS LU=$LU SHRINK=$SHRINK VARIANTS='${VARIANTS:-}' PROFILE=$PROFILE)" "$P" \
  "$("$MM" --help | sed -n '1s/^mmbench \([^ ]*\).*/\1/p')" "$(mpirun --version | sed -n 1p)" \
  "$(pkg-config --modversion scalapack-openmpi 2>/dev/null || true)"
python3 scripts/dispatch_summary.py "$csv"
