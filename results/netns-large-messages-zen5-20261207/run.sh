#!/usr/bin/env bash
# Do large messages cross the namespace links at the rate tune measured with
# messages up to 4 MiB? exchange.c (written apart from mmbench) between two
# namespace nodes, one rank each, 16 KB bucket, at each RATE; ROUNDS rounds.
#   RATES="500mbit 1gbit" ROUNDS=5 results/netns-large-messages-zen5-20261207/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
here=results/netns-large-messages-zen5-20261207
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
bin=$(mktemp -d)/exchange
trap 'rm -rf "$(dirname "$bin")"; scripts/netns-cluster.sh down --prefix mmx >/dev/null 2>&1 || true' EXIT
mpicc -O2 -Wall "$here/exchange.c" -o "$bin"
for rate in ${RATES:-500mbit 1gbit}; do
  scripts/netns-cluster.sh down --prefix mmx >/dev/null 2>&1 || true
  scripts/netns-cluster.sh up 2 --ranks-per-node 1 --prefix mmx --rate "$rate" --burst 16kb >/dev/null
  echo "== $rate"
  # shellcheck disable=SC2046
  mpirun $(cat /tmp/mmx-cluster/mpirun.args) -n 2 "$bin" "${ROUNDS:-5}"
done
