#!/usr/bin/env bash
# What tc tbf's burst does to times across the namespace cluster. A link
# limited by tbf lets `burst` bytes through at memory speed after it was
# idle, where a real NIC sends everything at its rate; an algorithm that
# computes between its messages (PDGEMM's panels) refills the bucket each
# time. Per round, every size of BURSTS is set on every tbf end of a NODES x 1
# cluster (scripts/netns-cluster.sh burst) and one `mmbench run` of ALGOS at NS follows, so
# the sizes interleave. Needs root.
#   NODES=2 RATE=1gbit BURSTS="64kb 256kb 1mb" ROUNDS=4 NS="1024 2048" REPS=3 OUT=results/... \
#   scripts/bench/netns_burst.sh
# Writes OUT/burst-<size>.csv (+ sidecar) and OUT/summary.md
# (scripts/netns_burst_summary.py).
source "$(dirname "$0")/common.sh"
NODES=${NODES:-2}
RATE=${RATE:-1gbit}
BURSTS=${BURSTS:-64kb 256kb 1mb}
ROUNDS=${ROUNDS:-4}
NS=${NS:-1024 2048}
REPS=${REPS:-3}
ALGOS=${ALGOS:-pdgemm,tpmm,ring}
LBS=${LBS:-32,128}
OUT=${OUT:-results/netns-burst-$host-$stamp}
[ "$(id -u)" = 0 ] || { echo "netns_burst.sh: needs root (network namespaces)" >&2; exit 2; }
mkdir -p "$OUT"
cluster=scripts/netns-cluster.sh
prefix=mmbu
trap '$cluster down --prefix $prefix >/dev/null 2>&1' EXIT
$cluster down --prefix $prefix >/dev/null 2>&1
first=${BURSTS%% *}
$cluster up "$NODES" --prefix $prefix --rate "$RATE" --burst "$first"
# The fixture's launcher passes OPENBLAS_NUM_THREADS and a pinned
# OPENBLAS_CORETYPE on to every rank.
launch=/tmp/$prefix-cluster/mpirun
export OPENBLAS_NUM_THREADS=1
for round in $(seq 1 "$ROUNDS"); do
  for b in $BURSTS; do
    $cluster burst "$b" --prefix $prefix >/dev/null
    echo "== round $round, burst $b"
    # shellcheck disable=SC2086
    "$launch" -n "$NODES" "$MM" run --algo "$ALGOS" --grid "1x$NODES" \
      --lb "$LBS" --n "$(echo $NS | tr ' ' ,)" --reps "$REPS" --csv "$OUT/burst-$b.csv" --quiet \
      >"$OUT/run-$b-$round.txt" 2>&1 || { cat "$OUT/run-$b-$round.txt"; exit 1; }
  done
done
python3 scripts/netns_burst_summary.py "$OUT" | tee "$OUT/summary.md"
