#!/usr/bin/env bash
# ring with --ring-chunks auto (the refined model's choice from the profile
# tuned on such a cluster) against ring in up to 4 chunks and tpmm, at p = 2
# across two namespace nodes, interleaved rounds. Needs root.
#   RATES="1gbit 500mbit" NS=512,1024,2048 REPS=9 results/ring-chunks-zen5-20261207/run-netns.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
RATES=${RATES:-1gbit 500mbit}
NS=${NS:-512,1024,2048}
REPS=${REPS:-9}
OUT=${OUT:-results/ring-chunks-zen5-20261207}
prefix=mrc
trap 'scripts/netns-cluster.sh down --prefix $prefix >/dev/null 2>&1' EXIT
export OPENBLAS_NUM_THREADS=1
for rate in $RATES; do
  profile=results/netns-overlap-sizes-zen5-20261207/2x1-$rate-profile.json
  scripts/netns-cluster.sh down --prefix $prefix >/dev/null 2>&1 || true
  scripts/netns-cluster.sh up 2 --ranks-per-node 1 --prefix $prefix --rate "$rate" --burst 16kb
  /tmp/$prefix-cluster/mpirun -n 2 build/mmbench run --algo ring,tpmm --ring-chunks auto,4 --local-strassen 0 \
    --n "$NS" --reps "$REPS" --profile "$profile" --csv "$OUT/netns-$rate.csv" --quiet >"$OUT/netns-$rate.txt" 2>&1
done
