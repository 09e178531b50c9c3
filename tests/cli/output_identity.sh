#!/usr/bin/env bash
# The outputs of list, predict and explain (text, CSV, JSON) over a grid of
# p, n, shapes, both models and several option spaces stay byte-identical
# to a recorded expectation: a change of structure (moving code between
# layers, one table of options) must not change a number, a label or an
# order. The expectation is regenerated only on purpose, when an output is
# meant to change, and the diff goes into that commit:
#   tests/cli/output_identity.sh build/mmbench . /tmp/oi --regenerate
# All inputs are committed (configs/thesis-opteron.json and numbers on the
# command line), so nothing depends on the host.
set -u
mm=$1; src=$2; dir=$3/output-identity; regenerate=${4:-}
expected=$src/tests/cli/expected/output-identity.txt
rm -rf "$dir"; mkdir -p "$dir"
cd "$src" || exit 1
out=$dir/actual.txt
: >"$out"
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
if [ "$regenerate" = --regenerate ]; then
  mkdir -p "$(dirname "$expected")"; cp "$out" "$expected"; echo "regenerated $expected"; exit 0
fi
if ! diff -u "$expected" "$out" >"$dir/diff.txt"; then
  head -60 "$dir/diff.txt"
  echo "FAIL: output differs from $expected (full diff: $dir/diff.txt; regenerate only if meant: $0 MM SRC DIR --regenerate)"
  exit 1
fi
echo "output_identity: $(grep -c '^=== ' "$out") commands identical"
