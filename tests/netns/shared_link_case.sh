#!/usr/bin/env bash
# tune on a link whose two directions share one rate (docs/method.md, "Both
# directions against one"): 2 namespace nodes of 1 rank on the fixture's
# shared link (scripts/netns-cluster.sh up --shared-link: their traffic
# routed through this machine's end of the bridge, one tbf there, so both
# directions leave through one queue, as on a half-duplex or shared
# segment). tune must measure the all-to-all at about half the ping-pong,
# measure it again (and the backbone), keep the half, and warn; the profile
# must hold the half as the all-to-all rate and the backbone as a capacity.
# The fixture's down must then put the host's forwarding settings back as
# they were. Skipped (exit 77) where namespaces cannot be made.
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
# shellcheck source=cluster_up.sh
source "$(dirname "$0")/cluster_up.sh"
require_root_or_skip
host() { echo "ip_forward $(sysctl -n net.ipv4.ip_forward), send_redirects $(sysctl -n net.ipv4.conf.all.send_redirects)"; }
before=$(host)
"$cluster" down --prefix $prefix --dir "$dir" >/dev/null 2>&1
trap '"$cluster" down --prefix $prefix --dir "$dir" >/dev/null 2>&1' EXIT
link=(--shared-link); [ "${SHARED:-1}" != 0 ] || link=()
cluster_up 2 --ranks-per-node 1 --prefix $prefix --dir "$dir" --rate 2gbit --burst 64kb "${link[@]}"
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
"$cluster" down --prefix $prefix --dir "$dir" >/dev/null || { echo "FAIL: down"; exit 1; }
after=$(host)
[ "$after" = "$before" ] || { echo "FAIL: the host's forwarding not put back: before $before, after $after"; exit 1; }
echo "host after down as before: $after"
echo "PASS"
