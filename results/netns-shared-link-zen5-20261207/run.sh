#!/usr/bin/env bash
# tune on a link whose two directions share one rate: does it measure half,
# measure again, keep the half and warn, and do runs then see the price?
# Two namespace nodes (one rank each) on the fixture's shared link
# (scripts/netns-cluster.sh up --shared-link: their traffic to each other
# routed through this machine's end of the bridge, one tbf of RATE there,
# so both directions leave through that one queue, as on a half-duplex or
# shared segment; the host forwards until down puts its settings back).
# Then: exchange.c (written apart from mmbench; one way and both ways, 3
# rounds), a fast tune (network and overlap steps), and ring, tpmm and
# PDGEMM at n = 1024, 2048 with --validate against that profile. Run from
# the repository root as root (OUT: another folder for the files):
#   RATE=500mbit results/netns-shared-link-zen5-20261207/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
here=${OUT:-results/netns-shared-link-zen5-20261207}
mkdir -p "$here"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
trap 'scripts/netns-cluster.sh down --prefix mms >/dev/null 2>&1 || true' EXIT
mpicc -O2 results/netns-large-messages-zen5-20261207/exchange.c -o /tmp/mms-exchange
scripts/netns-cluster.sh down --prefix mms >/dev/null 2>&1 || true
scripts/netns-cluster.sh up 2 --ranks-per-node 1 --prefix mms --shared-link --rate "${RATE:-500mbit}" --burst 16kb >/dev/null
run=/tmp/mms-cluster/mpirun
$run -n 2 /tmp/mms-exchange 3 0 | tee "$here/exchange.txt"
$run -n 2 build/mmbench tune --n 1024 --no-lb-check --no-local --no-blas-probe --no-packed-tune --no-kernel-model \
  --progress --profile "$here/profile.json" --csv "$here/dgemm-profile.csv" >"$here/tune.txt" 2>&1
grep -E "network|warning: both" "$here/tune.txt"
rm -f "$here/runs.csv" "$here/runs.csv.json" "$here/runs-validate.csv" "$here/runs-validate.txt"
$run -n 2 build/mmbench run --algo ring,tpmm,pdgemm --lb 64 --n 1024,2048 --reps 5 --warmup 1 --validate --quiet \
  --profile "$here/profile.json" --csv "$here/runs.csv"
