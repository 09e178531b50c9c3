#!/usr/bin/env bash
# tune on a link whose two directions share one rate (docs/method.md, "Both
# directions against one"): 2 namespace nodes of 1 rank whose traffic to
# each other is routed through this machine's end of the bridge, with one
# tbf on the bridge device, so both directions leave through one queue (a
# half-duplex or shared segment). tune must measure the all-to-all at about
# half the ping-pong, measure it again (and the backbone), keep the half,
# and warn; the profile must hold the half as the all-to-all rate and the
# backbone as a capacity. The host forwards for the while (ip_forward = 1,
# no ICMP redirects); both are put back, and the cluster taken down, on
# exit. Skipped (exit 77) where namespaces cannot be made.
#   shared_link_case.sh MMBENCH WORKDIR SOURCE_DIR
# SHARED=0 makes the usual cluster instead, each node's link limited to
# the same rate in each direction (full duplex; unlimited links would not
# do: there the nodes' one core each carries both directions at about half
# the rate of one): the test must fail, which shows it can.
set -u
mm=$1 work=$2 src=$3
cluster=$src/scripts/netns-cluster.sh
prefix=mmh  # a subnet of its own
dir=$work/netns-shared-cluster out=$work/netns-shared
rm -rf "$out"; mkdir -p "$out"
if [ "$(id -u)" != 0 ]; then echo "SKIP: not root (network namespaces need it)"; exit 77; fi
fwd=$(sysctl -n net.ipv4.ip_forward) redir=$(sysctl -n net.ipv4.conf.all.send_redirects)
"$cluster" down --prefix $prefix --dir "$dir" >/dev/null 2>&1
trap '"$cluster" down --prefix $prefix --dir "$dir" >/dev/null 2>&1;
      sysctl -qw net.ipv4.ip_forward="$fwd" net.ipv4.conf.all.send_redirects="$redir"' EXIT
limit=(); [ "${SHARED:-1}" != 0 ] || limit=(--rate 2gbit --burst 64kb)
msg=$("$cluster" up 2 --ranks-per-node 1 --prefix $prefix --dir "$dir" "${limit[@]}" 2>&1)
rc=$?
echo "$msg"
if [ $rc = 2 ] && grep -q "cannot make a network namespace\|needs root\|no '" <<<"$msg"; then echo "SKIP: $msg"; exit 77; fi
[ $rc = 0 ] || { echo "FAIL: cluster up"; exit 1; }
net=$(awk 'NR == 1 { split($1, a, "."); print a[1] "." a[2] "." a[3] }' "$dir/nodes")
if [ "${SHARED:-1}" != 0 ]; then
  set -e
  sysctl -qw net.ipv4.ip_forward=1 net.ipv4.conf.all.send_redirects=0 "net.ipv4.conf.$prefix-br.send_redirects=0"
  ip -n $prefix-n1 route add "$net.2/32" via "$net.254"
  ip -n $prefix-n2 route add "$net.1/32" via "$net.254"
  tc qdisc add dev $prefix-br root tbf rate 2gbit burst 64kb latency 50ms
  set +e
fi
"$dir/mpirun" -n 2 "$mm" tune --n 256 --kmin 8 --kmax 64 --reps 1 --passes 1 --warmup 0 --no-lb-check \
  --no-blas-probe --no-kernel-model --no-packed-tune --no-local --progress --profile "$out/profile.json" \
  --csv "$out/dgemm.csv" >"$out/tune.txt" 2>&1 || { cat "$out/tune.txt"; echo "FAIL: tune"; exit 1; }
grep -E "network|warning: both" "$out/tune.txt"
grep -q "warning: both directions at once" "$out/tune.txt" || { echo "FAIL: no both-directions warning"; exit 1; }
grep -q "network: the all-to-all ran at .*measured again after" "$out/tune.txt" ||
  { echo "FAIL: the all-to-all was not measured again"; exit 1; }
python3 - "$out/profile.json" <<'PY' || exit 1
import json, sys
p = json.load(open(sys.argv[1]))
ratio = p["tau_alltoall_doubles_per_s"] / p["tau_pingpong_doubles_per_s"]
print(f"all-to-all / ping-pong {ratio:.2f}")
assert ratio < 0.75, f"both directions at {ratio:.2f} of one: the link did not share"
assert ratio > 0.3, f"both directions at {ratio:.2f} of one: far below the half a shared link gives"
assert "measured again" in p["notes"], "notes do not list the rates measured again"
backbone = p["network_levels"]["inter_node"]["backbone_doubles_per_s"]
assert backbone > 0, "the backbone (both directions at once) not recorded as a capacity"
print(f"backbone capacity {backbone * 8 / 1e6:.1f} MB/s")
PY
echo "PASS"
