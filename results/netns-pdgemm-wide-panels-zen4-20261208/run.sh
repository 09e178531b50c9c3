#!/bin/bash
# PDGEMM's wide panels on the fast link: is what the model misses the
# network? The same profile (the unlimited 2 x 1 validation's) prices
# PDGEMM lb 32 and 512 and ring at n = 1024 and 2048, run
#   (a) on one node, the two ranks over shared memory, 3 jobs;
#   (b) across 2 namespace nodes with unlimited links, TCP's slow start
#       after idle on (Linux's default) and off, alternating, 3 pairs.
# Usage: OUT=DIR results/netns-pdgemm-wide-panels-zen4-20261208/run.sh
# (root; the repository's build/mmbench; about 4 minutes on 2 cores).
set -u
cd "$(dirname "$0")/../.." || exit 1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OPENBLAS_NUM_THREADS=1
out=${OUT:?set OUT, the folder for the results}; mkdir -p "$out"
P=results/netns-validation-unlimited-zen4-20261208/2x1-unlimited-profile.json
args=(run --algo "pdgemm,ring" --lb "32,512" --n "1024,2048" --reps 7 --profile "$P" --quiet)
for job in 1 2 3; do
  mpirun -n 2 --bind-to core build/mmbench "${args[@]}" --csv "$out/node-$job.csv" >"$out/node-$job.txt" 2>&1 ||
    echo "one-node job $job failed" >&2
done
scripts/netns-cluster.sh down >/dev/null 2>&1
scripts/netns-cluster.sh up 2 >/dev/null || exit 1
trap 'scripts/netns-cluster.sh down >/dev/null 2>&1' EXIT
dir=/tmp/mmb-cluster
for pair in 1 2 3; do
  for x in 1 0; do
    for i in 1 2; do ip netns exec "mmb-n$i" sysctl -qw net.ipv4.tcp_slow_start_after_idle=$x; done
    "$dir/mpirun" -n 2 build/mmbench "${args[@]}" --csv "$out/ssai$x-$pair.csv" >"$out/ssai$x-$pair.txt" 2>&1 ||
      echo "cluster job ssai$x-$pair failed" >&2
  done
done
python3 - "$out" <<'PY' | tee "$out/summary.txt"
import csv, glob, os, statistics as st, sys
d = sys.argv[1]
runs = {}  # (n, label) -> {where: [t_median per job]}, and the model's price
for f in sorted(glob.glob(d + "/*.csv")):
    b = os.path.basename(f)
    where = "one node" if b.startswith("node") else ("slow start after idle on" if b[4] == "1" else "off")
    for r in csv.DictReader(open(f)):
        key = (int(r["n"]), r["algo"] + (" lb=" + r["lb"] if r["lb"] else ""))
        runs.setdefault(key, {}).setdefault(where, []).append(float(r["t_median"]))
        runs[key]["model"] = float(r["pred_refined"])
print("medians over jobs of each job's median (7 rounds); model: the refined price from the profile")
for key in sorted(runs):
    v = runs[key]
    node, on, off = (st.median(v[w]) for w in ("one node", "slow start after idle on", "off"))
    print(f"n = {key[0]}, {key[1]}: one node {node:.5f} s, across nodes {on:.5f} s (slow start after idle off: "
          f"{off:.5f}, {off / on:.3f}x), model {v['model']:.5f} s ({v['model'] / on - 1:+.1%} against across)")
PY
