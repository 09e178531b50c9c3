#!/usr/bin/env bash
# --algo auto ranks every value given of an option it does not search
# itself (--nb, --local-gemm, --local-fusion): each candidate appears once
# per value in --explain's ranking, and the run goes on with the pick.
set -u
mpirun=$1; mm=$2; dir=$3/auto-ranks-given
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$dir"; mkdir -p "$dir"
net="--lambda 1e-6 --tau 1000 --flops 1000"
check() {  # name, then run's arguments; the ranking must list each pattern
  local name=$1; shift
  local pats=()
  while [ "$1" != "--" ]; do pats+=("$1"); shift; done; shift
  "$mpirun" -q -n 1 "$mm" run --algo auto --explain --reps 1 --warmup 0 --quiet --csv "$dir/$name.csv" "$@" \
    >"$dir/$name.txt" 2>&1 || { cat "$dir/$name.txt"; fail "$name: exit $?"; }
  for p in "${pats[@]}"; do
    grep -Eq -e "$p" "$dir/$name.txt" || { cat "$dir/$name.txt"; fail "$name: no candidate /$p/ ranked"; }
  done
  echo "$name: ranked ${pats[*]}"
}
check fusion ' ring L=1 fusion=none ' ' ring L=1  ' -- --n 512 $net --local-strassen 1 --local-fusion none,all
check gemm ' ring L=1 gemm=packed ' ' ring L=1  ' -- --n 512 $net --local-strassen 1 --local-gemm packed,blas
check nb ' pdgemm grid=1x1 nb=32 ' ' pdgemm grid=1x1 nb=64 ' -- --n 512 $net --nb 32,64
# --algo auto alone writes no regret report (nothing to compare with); with
# named algorithms in the sweep, one regret per problem from the same rounds.
[ ! -e "$dir/nb-validate.csv" ] || fail "a regret report for --algo auto alone"
"$mpirun" -q -n 1 "$mm" run --algo ring,pdgemm,auto --n 256,320 $net --reps 3 --warmup 0 --quiet \
  --csv "$dir/sweep.csv" >"$dir/sweep.txt" 2>&1 || { cat "$dir/sweep.txt"; fail "sweep: exit $?"; }
python3 - "$dir/sweep-validate.csv" <<'PY' || { cat "$dir/sweep.txt"; fail "sweep's regret"; }
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["n"] for r in rows] == ["256", "320"], rows
for r in rows:
    assert int(r["candidates"]) >= 3, r  # ring, pdgemm and the pick
    assert float(r["regret"]) > 0 and float(r["regret_ci_lo"]) <= float(r["regret"]) <= float(r["regret_ci_hi"]), r
print("regret per problem:", [r["regret"] for r in rows])
PY
echo "auto_ranks_given passed"
