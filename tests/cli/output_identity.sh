#!/usr/bin/env bash
# The outputs of list, predict and explain (text, CSV, JSON) over a grid of
# p, n, shapes, both models and several option spaces stay byte-identical
# to a recorded expectation: a change of structure (moving code between
# layers, one table of options) must not change a number, a label or an
# order. The expectation is regenerated only on purpose, when an output is
# meant to change, and the diff goes into that commit:
#   tests/cli/output_identity.sh $PWD/build/mmbench $PWD /tmp/oi --regenerate
# (absolute paths: the script runs the commands from a folder of its own)
# All inputs are committed (configs/thesis-opteron.json and numbers on the
# command line), so nothing depends on the host.
#
# The profile runs as a profile without a two-level network (its
# network_levels section taken out): such profiles must price exactly as
# before the two-level network existed. A second pass gives it a section
# whose two levels are equal with no contention limit (one network in
# disguise), which must print the same bytes too. Both copies sit at
# DIR/<pass>/configs/thesis-opteron.json, so the commands print the same
# path as the recorded expectation.
set -u
mm=$1; src=$2; dir=$3/output-identity; regenerate=${4:-}
expected=$src/tests/cli/expected/output-identity.txt
rm -rf "$dir"; mkdir -p "$dir/one-level/configs" "$dir/equal-levels/configs"
python3 - "$src/configs/thesis-opteron.json" "$dir" <<'PY' || exit 1
import json, sys
prof = json.load(open(sys.argv[1]))
prof.pop("network_levels", None)
json.dump(prof, open(sys.argv[2] + "/one-level/configs/thesis-opteron.json", "w"), indent=2)
lat, tau = prof["latency_s"], prof["tau_alltoall_doubles_per_s"]
prof["network_levels"] = {
    "ranks_per_node": 2, "nodes": 32,
    "intra_node": {"latency_s": lat, "tau_doubles_per_s": tau, "tau_concurrent_doubles_per_s": 0.0},
    "inter_node": {"latency_s": lat, "tau_doubles_per_s": tau, "node_link_doubles_per_s": 0.0,
                   "backbone_doubles_per_s": 0.0},
    "source": "tests/cli/output_identity.sh: both levels the one-level values"}
json.dump(prof, open(sys.argv[2] + "/equal-levels/configs/thesis-opteron.json", "w"), indent=2)
PY
prof=configs/thesis-opteron.json
case_() {  # one command; its stdout, exit code and any files it wrote
  local name=$1; shift
  local shown=$*
  echo "=== $name: ${shown//$dir/DIR}" >>"$out"
  "$mm" "$@" >>"$out" 2>&1
  echo "--- exit $?" >>"$out"
  for f in "$dir"/case.csv "$dir"/case.json; do
    [ -f "$f" ] && { echo "--- $(basename "$f")" >>"$out"; cat "$f" >>"$out"; rm -f "$f"; }
  done
}
run_all() {  # every command, from the folder whose configs/ holds the profile
cd "$1" || exit 1
out=$dir/$2.txt
: >"$out"
case_ list list
for model in refined paper; do
  case_ "predict-$model-grid" predict --profile $prof --p 1,2,4,7,16,56,64 --n 512,4096 --model $model --top 3 \
    --csv "$dir/case.csv"
  case_ "predict-$model-lb" predict --profile $prof --p 4,56 --n 512,4096 --algo pdgemm,strassen-q7+pdgemm,strassen-q8+pdgemm \
    --lb default,auto,64,512 --model $model --top 3 --json "$dir/case.json"
  case_ "predict-$model-shapes" predict --profile $prof --p 8,49 --n 2048 --m 1000,3000 --k 500,7000 --model $model --top 5
  case_ "predict-$model-local" predict --profile $prof --p 2,16 --n 8192 --local-strassen 0,2 --threads 2 \
    --model $model --top 3 --csv "$dir/case.csv"
  case_ "predict-$model-flags" predict --p 32 --n 6000 --lambda 2e-6 --tau 1200 --flops 40000 --add-bandwidth 9000 \
    --cores-per-node 16 --model $model --top 0
done
case_ explain-56 explain --profile $prof --p 56 --n 4096
case_ explain-shape explain --profile $prof --p 12 --n 3000 --m 1000 --k 5000 --algo ring,tpmm,2.5d,pdgemm
case_ explain-bad explain --profile $prof --p 0 --n 4096
}
run_all "$dir/one-level" actual
if [ "$regenerate" = --regenerate ]; then
  mkdir -p "$(dirname "$expected")"; cp "$dir/actual.txt" "$expected"; echo "regenerated $expected"; exit 0
fi
run_all "$dir/equal-levels" equal-levels
for pass in actual equal-levels; do
  if ! diff -u "$expected" "$dir/$pass.txt" >"$dir/diff-$pass.txt"; then
    head -60 "$dir/diff-$pass.txt"
    echo "FAIL: output ($pass) differs from $expected (full diff: $dir/diff-$pass.txt; regenerate only if meant: $0 MM SRC DIR --regenerate)"
    exit 1
  fi
done
echo "output_identity: $(grep -c '^=== ' "$dir/actual.txt") commands identical, without a two-level network and with equal levels"
