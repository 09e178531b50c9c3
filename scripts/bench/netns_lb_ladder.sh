#!/usr/bin/env bash
# Is `--lb auto` right at every n across nodes? On a cluster of network
# namespaces (scripts/netns-cluster.sh: NODES nodes of one rank, each link
# limited to RATE, or "unlimited"): `tune --n TUNE_N` there (its lb check
# at TUNE_N, TUNE_N/2, TUNE_N/4 gives the profile's lb curve), then one
# interleaved PDGEMM lb ladder with `--lb auto` beside the explicit lbs
# (rounds interleave within each n), summarized by
# scripts/bench/lb_ladder_summary.py: per n the tuned lb's time over the
# best lb's. Needs root.
#   NODES=2 RATE=1gbit TUNE_N=2048 NS="1024 2048 4096" LBS=32,64,128,256,512 ROUNDS=5 \
#   [BURST=256kb] [PROFILE=p.json] OUT=results/netns-lb-ladder-... scripts/bench/netns_lb_ladder.sh
# BURST: the limited links' tbf bucket (scripts/netns-cluster.sh --burst;
# 16kb is the NIC-like link). PROFILE: a profile tuned before on the same
# kind of cluster, copied to OUT and used instead of tuning again (a second
# look at the lb one validation run chose).
# Writes OUT/profile.json, OUT/tune.txt, OUT/lb-ladder.csv (+ sidecar) and
# OUT/lb-ladder-summary.md.
source "$(dirname "$0")/common.sh"
NODES=${NODES:-2}
RATE=${RATE:-1gbit}
TUNE_N=${TUNE_N:-2048}
NS=${NS:-1024 2048 4096}
LBS=${LBS:-32,64,128,256,512}
ROUNDS=${ROUNDS:-5}
BURST=${BURST:-256kb}
PROFILE=${PROFILE:-}
# The fixture's launcher (DIR/mpirun) passes OPENBLAS_NUM_THREADS and a
# pinned OPENBLAS_CORETYPE on to every rank (the nodes' daemons start
# through the rsh agent and see only what -x passes).
export OPENBLAS_NUM_THREADS=1
TUNE_ARGS=${TUNE_ARGS:---no-blas-probe --no-packed-tune --no-local --no-kernel-model}
OUT=${OUT:-results/netns-lb-ladder-$host-$stamp}
[ "$(id -u)" = 0 ] || { echo "netns_lb_ladder.sh: needs root (network namespaces)" >&2; exit 2; }
mkdir -p "$OUT"
cluster=scripts/netns-cluster.sh
prefix=mml
trap '$cluster down --prefix $prefix >/dev/null 2>&1' EXIT
rate_arg=(); [ "$RATE" = unlimited ] || rate_arg=(--rate "$RATE" --burst "$BURST")
$cluster down --prefix $prefix >/dev/null 2>&1 || true
$cluster up "$NODES" --ranks-per-node 1 --prefix $prefix "${rate_arg[@]}"
launch=/tmp/$prefix-cluster/mpirun
if [ -n "$PROFILE" ]; then
  echo "== ${NODES} x 1, $RATE: the profile $PROFILE (not tuned again)"
  [ "$(realpath "$PROFILE")" = "$(realpath -m "$OUT/profile.json")" ] || cp "$PROFILE" "$OUT/profile.json"
else
  echo "== ${NODES} x 1, $RATE: tune --n $TUNE_N"
  # shellcheck disable=SC2086
  "$launch" -n "$NODES" "$MM" tune --n "$TUNE_N" $TUNE_ARGS --profile "$OUT/profile.json" \
    --csv "$OUT/dgemm-profile.csv" >"$OUT/tune.txt" 2>&1 || { cat "$OUT/tune.txt"; exit 1; }
  grep -E "written|lb per size|lb = " "$OUT/tune.txt"
fi
echo "== ladder: n = $NS, lb $LBS and auto, $ROUNDS rounds"
# shellcheck disable=SC2086
"$launch" -n "$NODES" "$MM" run --algo pdgemm --n "$(echo $NS | tr ' ' ,)" \
  --lb "$LBS,auto" --profile "$OUT/profile.json" --reps "$ROUNDS" --csv "$OUT/lb-ladder.csv" --quiet \
  >"$OUT/run.txt" 2>&1 || { cat "$OUT/run.txt"; exit 1; }
$cluster down --prefix $prefix >/dev/null
python3 scripts/bench/lb_ladder_summary.py "$OUT/lb-ladder.csv" | tee "$OUT/lb-ladder-summary.md"
