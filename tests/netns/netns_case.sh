#!/usr/bin/env bash
# mmbench on a cluster of network namespaces (scripts/netns-cluster.sh):
# 2 nodes of 1 rank (the ranks talk TCP over a bridge, nothing shared):
# `tune` with its fast options finishes and its profile records the
# inter-node level as measured; then 2 nodes of 2 ranks (shared memory
# inside a node, TCP between): `tune` records both levels, and a `run`
# across the nodes is verified, one rank per core and as ranks x threads; a link limited with --rate and --burst holds
# that bucket on both ends, and `burst` changes it. Skipped (exit 77) where namespaces cannot be
# made (not root, no CAP_SYS_ADMIN); the cluster is always taken down.
# With DISPATCH_LIB and EXAMPLE, on 2 nodes of 2 ranks also the example
# ScaLAPACK program through libmmbench-dispatch.so with a ranks x threads
# hybrid forced: each node's first rank computes with 2 threads, its
# neighbour lends its core, the product checked by the program itself.
# With DRIVERS (Debian's scalapack-mpi-test folder) also ScaLAPACK's own
# xdinv across the nodes, plain and under the dispatcher with ring, tpmm
# and 2.5D forced (tests/scalapack_drivers/run_driver.py): a suite nobody
# here wrote checks the products of calls whose ranks talk over TCP.
#   netns_case.sh MPIRUN MMBENCH WORKDIR SOURCE_DIR [DISPATCH_LIB EXAMPLE [DRIVERS]]
set -u
mpirun=$1 mm=$2 work=$3 src=$4 dispatch_lib=${5:-} example=${6:-} drivers=${7:-}
cluster=$src/scripts/netns-cluster.sh
prefix=mmt  # a subnet of its own: never meets a cluster someone left up
dir=$work/netns-cluster
rm -rf "$work/netns"; mkdir -p "$work/netns"
out=$work/netns
# shellcheck source=cluster_up.sh
source "$(dirname "$0")/cluster_up.sh"
require_root_or_skip
"$cluster" down --prefix $prefix --dir "$dir" >/dev/null 2>&1
trap '"$cluster" down --prefix $prefix --dir "$dir" >/dev/null 2>&1' EXIT
up() { cluster_up 2 --ranks-per-node "$1" --prefix $prefix --dir "$dir"; }
fast=(--n 256 --kmin 8 --kmax 64 --reps 1 --passes 1 --warmup 0 --no-lb-check --no-blas-probe --no-kernel-model
      --no-packed-tune --no-local --quiet)
check_profile() {  # PROFILE WANT_INTRA
  python3 - "$1" "$2" "$dir/nodes" <<'PY'
import json, sys
profile = json.load(open(sys.argv[1]))
# A node held by a cpuset (the nodes file's last column is its cgroup, "-"
# where none could be made) has the cores it lists: tune counts those, not
# the machine's, and measures no threaded DGEMM on a one-core node.
node = open(sys.argv[3]).readline().split()
if node[4] != "-":
    first, _, last = node[3].partition("-")
    cores = int(last or first) - int(first) + 1
    assert profile["cores"] == cores, f"profile cores {profile['cores']}, node 1 holds {cores} ({node[3]})"
    if cores == 1:
        assert profile["dgemm_threads"] == 0, f"threaded DGEMM measured with {profile['dgemm_threads']} threads on 1 core"
    print(f"profile cores {profile['cores']} = node 1's cpuset {node[3]}")
levels = profile["network_levels"]
print("network_levels:", json.dumps(levels)[:600])
assert levels["nodes"] == 2, f"nodes {levels['nodes']}, expected 2"
assert levels["inter_node"]["tau_doubles_per_s"] > 0 and levels["inter_node"]["latency_s"] > 0, "no inter-node level"
assert "measured" in levels["source"], levels["source"]
overlap = profile["shift_overlap"]
print("shift_overlap:", json.dumps(overlap))
assert overlap["across_nodes"] and len(overlap["points"]) >= 2, "overlap not measured across the nodes at several sizes"
assert all(0 <= pt["fraction"] <= 1 for pt in overlap["points"]), overlap
if sys.argv[2] == "yes":
    assert levels["ranks_per_node"] == 2, levels["ranks_per_node"]
    assert levels["intra_node"]["tau_doubles_per_s"] > 0, "no intra-node level"
PY
}

up 1
args=$(cat "$dir/mpirun.args")
# shellcheck disable=SC2086
timeout 240 "$mpirun" $args -n 2 -x OPENBLAS_NUM_THREADS=1 "$mm" tune "${fast[@]}" --profile "$out/p1.json" \
  --csv "$out/p1.csv" >"$out/tune1.out" 2>&1
rc=$?
cat "$out/tune1.out"
[ $rc = 0 ] || { echo "FAIL: tune across 2 nodes of 1 rank: exit $rc (124: it did not finish in 240 s)"; exit 1; }
check_profile "$out/p1.json" no || { echo "FAIL: profile of 2 x 1"; exit 1; }
"$cluster" down --prefix $prefix --dir "$dir" >/dev/null

up 2
args=$(cat "$dir/mpirun.args")
# shellcheck disable=SC2086
timeout 240 "$mpirun" $args -n 4 -x OPENBLAS_NUM_THREADS=1 "$mm" tune "${fast[@]}" --profile "$out/p2.json" \
  --csv "$out/p2.csv" >"$out/tune2.out" 2>&1
rc=$?
cat "$out/tune2.out"
[ $rc = 0 ] || { echo "FAIL: tune across 2 nodes of 2 ranks: exit $rc"; exit 1; }
check_profile "$out/p2.json" yes || { echo "FAIL: profile of 2 x 2"; exit 1; }
# shellcheck disable=SC2086
# --hybrid 2: one rank of each node computes with 2 threads, its neighbour
# idles (ranks 0 and 2: one per node), across the TCP link.
timeout 240 "$mpirun" $args -n 4 -x OPENBLAS_NUM_THREADS=1 "$mm" run --algo ring,tpmm,pdgemm,2.5d --hybrid 1,2 --n 256 \
  --reps 1 --csv "$out/run.csv" --quiet >"$out/run.out" 2>&1 || { cat "$out/run.out"; echo "FAIL: run across the nodes"; exit 1; }
python3 - "$out/run.csv" <<'PY' || { echo "FAIL: rows"; exit 1; }
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ok = [r for r in rows if r["status"] == "ok"]
assert len(ok) >= 6 and all(r["verified"] == "yes" for r in ok), [(r["algo"], r["hybrid"], r["status"], r["verified"]) for r in rows]
hybrid = [r for r in ok if r["hybrid"] == "2"]
assert len(hybrid) >= 3 and all((r["p"], r["threads"]) == ("2", "2") for r in hybrid), [(r["algo"], r["p"], r["threads"]) for r in hybrid]
print(f"{len(ok)} rows verified across 2 nodes of 2 ranks, {len(hybrid)} of them as 1 rank x 2 threads per node")
PY
if [ -n "$dispatch_lib" ]; then
  # shellcheck disable=SC2086
  timeout 240 "$mpirun" $args -n 4 -x OPENBLAS_NUM_THREADS=1 -x LD_PRELOAD="$dispatch_lib" \
    -x MMBENCH_DISPATCH_FORCE=tpmm/2 -x MMBENCH_DISPATCH_MIN_DIM=0 -x MMBENCH_DISPATCH_LOG="$out/census.csv" \
    "$example" --n 512 --reps 2 >"$out/dispatch.out" 2>&1
  rc=$?
  cat "$out/dispatch.out"
  [ $rc = 0 ] && grep -q "wrong=0" "$out/dispatch.out" && grep -q "dispatched=[1-9]" "$out/dispatch.out" ||
    { echo "FAIL: the example through the dispatcher, tpmm/2 across the nodes: exit $rc"; exit 1; }
  grep -q ",tpmm hybrid=2," "$out/census.csv" || { echo "FAIL: the census shows no tpmm hybrid=2 call"; exit 1; }
  echo "the dispatcher ran tpmm as 2 processes x 2 threads across the nodes; the program found its product right"
fi
if [ -n "$dispatch_lib" ] && [ -n "$drivers" ]; then
  if [ -x "$drivers/xdinv" ]; then
    # run_driver.py launches "MPIRUN -q -n 4 ..."; the cluster's launcher
    # (scripts/netns-cluster.sh) puts those ranks on its nodes.
    MPIRUN=$mpirun OPENBLAS_NUM_THREADS=1 \
      timeout 400 python3 "$src/tests/scalapack_drivers/run_driver.py" --mpirun "$dir/mpirun" --lib "$dispatch_lib" \
      --drivers "$drivers" --work "$out/xdinv" --driver xdinv --calls-pdgemm ring tpmm 2.5d >"$out/xdinv.out" 2>&1
    rc=$?
    cat "$out/xdinv.out"
    [ $rc = 0 ] || { echo "FAIL: ScaLAPACK's xdinv across the nodes, plain and through the dispatcher: exit $rc"; exit 1; }
    echo "ScaLAPACK's xdinv passed its own tests across the nodes with ring, tpmm and 2.5D taking its PDGEMM calls"
  else
    echo "ScaLAPACK's test drivers are not in $drivers: xdinv across the nodes not run (scalapack_drivers.* say skipped)"
  fi
fi
"$cluster" down --prefix $prefix --dir "$dir" >/dev/null

# A limited link holds the bucket it was given (--burst), on both ends; a
# malformed size is refused in one line, exit 2, before anything is made.
msg=$("$cluster" up 2 --prefix $prefix --dir "$dir" --rate 1gbit --burst 64 2>&1); rc=$?
[ $rc = 2 ] && [ "$(wc -l <<<"$msg")" = 1 ] && grep -q -- "--burst '64'" <<<"$msg" ||
  { echo "FAIL: --burst 64 gave exit $rc: $msg"; exit 1; }
# tc shows the bucket as the kernel keeps it, in time at the rate: 64kb
# (65536 B) at 1 Gbit/s reads "burst 65500b". Both ends also hand tbf
# packets no larger than the bucket (gso_max_size = min(bucket, 64 KiB)):
# a larger packet tbf cuts up and paces at well under the rate.
check_burst() {  # KIB: both ends of node 1's link at 1 Gbit/s with a bucket of KIB KiB, within 1 %
  local show q bytes gso want=$(( $1 * 1024 < 65536 ? $1 * 1024 : 65536 ))
  for show in "ip -n $prefix-n1 -d link show dev eth0" "ip -d link show dev $prefix-v1"; do
    gso=$($show | grep -o 'gso_max_size [0-9]*' | awk '{print $2}')
    [ "$gso" = "$want" ] || { echo "FAIL: $show: gso_max_size '$gso' (expected $want for a $1 KiB bucket)"; exit 1; }
  done
  for show in "ip netns exec $prefix-n1 tc qdisc show dev eth0" "tc qdisc show dev $prefix-v1"; do
    q=$($show)
    bytes=$(sed -nE 's/.*rate 1Gbit burst ([0-9.]+)(b|Kb|Mb) .*/\1 \2/p' <<<"$q" |
            awk '{ print int($1 * ($2 == "Kb" ? 1024 : $2 == "Mb" ? 1048576 : 1)) }')
    [ -n "$bytes" ] && [ $((bytes * 100)) -ge $(($1 * 1024 * 99)) ] && [ $((bytes * 100)) -le $(($1 * 1024 * 101)) ] ||
      { echo "FAIL: $show: $q (expected a burst of $1 KiB)"; exit 1; }
  done
  echo "tbf on both ends of node 1's link: rate 1Gbit, a burst of $1 KiB within 1 %, packets of at most $want B"
}
"$cluster" up 2 --prefix $prefix --dir "$dir" --rate 1gbit --burst 64kb >/dev/null 2>&1 || { echo "FAIL: up with --burst"; exit 1; }
check_burst 64
# `burst` changes the bucket of a cluster that is up, on every limited link.
"$cluster" burst 128kb --prefix $prefix --dir "$dir" >/dev/null || { echo "FAIL: burst 128kb"; exit 1; }
check_burst 128
"$cluster" burst 16kb --prefix $prefix --dir "$dir" >/dev/null || { echo "FAIL: burst 16kb"; exit 1; }
check_burst 16
echo "netns_case passed"
