#!/usr/bin/env bash
# tune on a link whose two directions share one rate: does it measure half,
# measure again, keep the half and warn, and do runs then see the price?
# Two namespace nodes (one rank each, links unlimited) whose traffic to each
# other is routed through this machine's end of the bridge (a /32 route via
# the bridge's address), with one tbf of RATE on the bridge device: both
# directions leave through that one queue, as on a half-duplex or shared
# segment. This needs the host to forward (ip_forward = 1, no ICMP
# redirects) for the while; both are put back on exit. Then: exchange.c
# (written apart from mmbench; one way and both ways, 3 rounds), a fast tune
# (network and overlap steps), and ring, tpmm and PDGEMM at n = 1024, 2048
# with --validate against that profile. Run from the repository root as root:
#   RATE=500mbit results/netns-shared-link-zen5-20261207/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
here=results/netns-shared-link-zen5-20261207
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
fwd=$(sysctl -n net.ipv4.ip_forward) redir=$(sysctl -n net.ipv4.conf.all.send_redirects)
trap 'scripts/netns-cluster.sh down --prefix mms >/dev/null 2>&1 || true;
      sysctl -qw net.ipv4.ip_forward="$fwd" net.ipv4.conf.all.send_redirects="$redir"' EXIT
mpicc -O2 results/netns-large-messages-zen5-20261207/exchange.c -o /tmp/mms-exchange
scripts/netns-cluster.sh down --prefix mms >/dev/null 2>&1 || true
scripts/netns-cluster.sh up 2 --ranks-per-node 1 --prefix mms >/dev/null
net=$(awk 'NR == 1 { split($1, a, "."); print a[1] "." a[2] "." a[3] }' /tmp/mms-cluster/nodes)
sysctl -qw net.ipv4.ip_forward=1 net.ipv4.conf.all.send_redirects=0 net.ipv4.conf.mms-br.send_redirects=0
ip -n mms-n1 route add "$net.2/32" via "$net.254"
ip -n mms-n2 route add "$net.1/32" via "$net.254"
tc qdisc add dev mms-br root tbf rate "${RATE:-500mbit}" burst 16kb latency 50ms
run=/tmp/mms-cluster/mpirun
$run -n 2 /tmp/mms-exchange 3 0 | tee "$here/exchange.txt"
$run -n 2 build/mmbench tune --n 1024 --no-lb-check --no-local --no-blas-probe --no-packed-tune --no-kernel-model \
  --progress --profile "$here/profile.json" --csv "$here/dgemm-profile.csv" >"$here/tune.txt" 2>&1
grep -E "network|warning: both" "$here/tune.txt"
rm -f "$here/runs.csv" "$here/runs.csv.json" "$here/runs-validate.csv" "$here/runs-validate.txt"
$run -n 2 build/mmbench run --algo ring,tpmm,pdgemm --lb 64 --n 1024,2048 --reps 5 --warmup 1 --validate --quiet \
  --profile "$here/profile.json" --csv "$here/runs.csv"
