#!/usr/bin/env bash
# Predictions against runs across nodes: for each cluster of network
# namespaces (scripts/netns-cluster.sh; LAYOUTS of NODESxRANKS, RATES a tc
# rate or "unlimited"), tune on that cluster, then run the algorithms, a
# PDGEMM lb ladder with the tuned lb and --algo auto in interleaved rounds
# with --validate: every row beside the refined model's prediction from the
# profile tuned there (two levels), its communication share, and auto's
# regret. Needs root. Oversubscribed layouts (more ranks than cores) are
# labelled: their compute times mean little, their communication-bound rows
# are what they are for.
#   LAYOUTS="2x1 2x2" RATES="1gbit unlimited" NS="1024 2048 4096" REPS=3 OUT=results/netns-... [TUNE_ARGS=...] \
#   [BURST=256kb] scripts/bench/netns_validation.sh
# BURST: tc tbf's burst on limited links (scripts/netns-cluster.sh --burst;
# what crosses at memory speed after an idle spell, scripts/bench/netns_burst.sh);
# 16kb is the NIC-like link (docs/netns-cluster.md).
# An OPENBLAS_CORETYPE of the environment reaches every rank.
# Writes OUT/<tag>-profile.json, OUT/<tag>.csv (+ -validate.csv, sidecar),
# OUT/<tag>-tune.txt per cluster (tag = NODESxRANKS-RATE), and
# OUT/summary.md (scripts/netns_validation_summary.py).
source "$(dirname "$0")/common.sh"
LAYOUTS=${LAYOUTS:-2x1 2x2}
RATES=${RATES:-1gbit unlimited}
NS=${NS:-1024 2048 4096}
REPS=${REPS:-3}
OUT=${OUT:-results/netns-validation-$host-$stamp}
TUNE_N=${TUNE_N:-2048}
BURST=${BURST:-256kb}
# The fixture's launcher (DIR/mpirun) passes OPENBLAS_NUM_THREADS and a
# pinned OPENBLAS_CORETYPE on to every rank.
export OPENBLAS_NUM_THREADS=1
# tune's options on each cluster: by default the fast ones (no BLAS probe,
# packed ladder, local Strassen step or kernel model). Without the local
# step the profile holds no square DGEMM points, and local Strassen's small
# products are priced at the panel shapes' rate: TUNE_ARGS="--no-blas-probe
# --no-packed-tune" keeps it.
TUNE_ARGS=${TUNE_ARGS:---no-blas-probe --no-packed-tune --no-local --no-kernel-model}
[ "$(id -u)" = 0 ] || { echo "netns_validation.sh: needs root (network namespaces)" >&2; exit 2; }
mkdir -p "$OUT"
cluster=scripts/netns-cluster.sh
prefix=mmv
trap '$cluster down --prefix $prefix >/dev/null 2>&1' EXIT
for layout in $LAYOUTS; do
  nodes=${layout%x*} rpn=${layout#*x}
  for rate in $RATES; do
    tag=${layout}-$rate
    rate_arg=(); [ "$rate" = unlimited ] || rate_arg=(--rate "$rate" --burst "$BURST")
    $cluster down --prefix $prefix >/dev/null 2>&1
    $cluster up "$nodes" --ranks-per-node "$rpn" --prefix $prefix "${rate_arg[@]}"
    launch=/tmp/$prefix-cluster/mpirun
    p=$((nodes * rpn))
    echo "== $tag: tune at p = $p"
    # shellcheck disable=SC2086
    "$launch" -n $p "$MM" tune --n "$TUNE_N" $TUNE_ARGS --profile "$OUT/$tag-profile.json" --csv "$OUT/$tag-dgemm-profile.csv" >"$OUT/$tag-tune.txt" 2>&1 ||
      { cat "$OUT/$tag-tune.txt"; echo "netns_validation.sh: tune failed on $tag" >&2; exit 1; }
    grep -E "written|network|lb =" "$OUT/$tag-tune.txt" | head -8
    echo "== $tag: run at p = $p, n = $NS"
    # shellcheck disable=SC2086
    "$launch" -n $p "$MM" run --algo ring,tpmm,pdgemm,2.5d,dgemm,auto \
      --lb 32,128,auto --n "$(echo $NS | tr ' ' ,)" --reps "$REPS" --validate --profile "$OUT/$tag-profile.json" \
      --csv "$OUT/$tag.csv" --quiet >"$OUT/$tag-run.txt" 2>&1 ||
      { cat "$OUT/$tag-run.txt"; echo "netns_validation.sh: run failed on $tag" >&2; exit 1; }
  done
done
$cluster down --prefix $prefix >/dev/null
python3 scripts/netns_validation_summary.py "$OUT" | tee "$OUT/summary.md"
