#!/usr/bin/env bash
# The two-level network of configs/thesis-opteron.json against what SMPI
# charges on its platform (configs/platforms/thesis-opteron.xml): the probe
# (tests/smpi/network_probe.c, compiled here with smpicc) times one message
# inside a node and one between nodes alone, the ring shift and the pairwise
# swaps of every rank at once, at p = 8 (4 nodes) and p = 64 (32 nodes: the
# ring's 32 flows share the backbone), for messages of 1 and 4 MiB. Each
# must match the price of the profile's section within 3 %
# (scripts/network_probe_prices.py): latency + size / the smallest of the
# flow's rate, its node link's share and its backbone share (one step in
# lockstep: every flow waits out its latency at the same time, so here the
# backbone pays it too; model/network_traffic.hpp hides it behind the other
# flows, as in the steady state of an algorithm's steps).
set -eu
src=$1; dir=$3/network-levels
command -v smpirun >/dev/null || { echo "SKIP: smpirun not found (libsimgrid-dev not installed)"; exit 77; }
command -v smpicc >/dev/null || { echo "SKIP: smpicc not found (libsimgrid-dev not installed)"; exit 77; }
rm -rf "$dir"; mkdir -p "$dir"
smpicc -O1 -o "$dir/network_probe" "$src/tests/smpi/network_probe.c" 2> "$dir/smpicc.err" \
  || { echo "FAIL: smpicc"; cat "$dir/smpicc.err"; exit 1; }
plat=$src/configs/platforms/thesis-opteron.xml
python3 "$src/scripts/platform_hosts.py" "$plat" > "$dir/hosts"
for p in 8 64; do
  smpirun -np $p -platform "$plat" -hostfile "$dir/hosts" --cfg=smpi/tmpdir:"$dir" --log=root.thres:critical \
    "$dir/network_probe" 2 1048576 4194304 2> "$dir/probe-$p.err" | sed "s/^/p=$p /" >> "$dir/probe.txt" \
    || { echo "FAIL: network_probe p=$p"; cat "$dir/probe-$p.err"; exit 1; }
done
python3 - "$src/configs/thesis-opteron.json" "$dir/probe.txt" "$src/scripts" <<'PY'
import json, re, sys
sys.path.insert(0, sys.argv[3])
from network_probe_prices import probe_price
lv = json.load(open(sys.argv[1]))["network_levels"]
worst, n = 0.0, 0
for line in open(sys.argv[2]):
    m = re.match(r"p=(\d+) (\S+) (\d+) (\S+)", line)
    p, pat, nbytes, t = int(m.group(1)), m.group(2), int(m.group(3)), float(m.group(4))
    want = probe_price(lv, p, pat, nbytes)
    assert want is not None, f"unknown probe pattern {pat}"
    err = t / want - 1
    worst, n = max(worst, abs(err)), n + 1
    print(f"p={p:3d} {pat:12s} {nbytes:8d} B: simulated {t:.6g} s, section {want:.6g} s ({100 * err:+.2f} %)")
    assert abs(err) < 0.03, f"{pat} at p = {p}: off by {100 * err:+.1f} %"
assert n == 2 * (3 + 3) + 2 * (3 + 6), f"{n} probe lines"
print(f"network_levels passed: {n} patterns within {100 * worst:.2f} %")
PY
