#!/usr/bin/env bash
# Memory per rank at the command line (docs/method.md §7.7):
# - predict and explain state every candidate's predicted peak per rank
#   (table column mem/rank, CSV mem_pred_mb and mem_pred_parts, JSON memory);
# - --memory-per-rank excludes the candidates over it: none ranked exceeds
#   it, explain names each excluded one with its need, its parts and the
#   limit's source; a profile's memory_per_rank_bytes does the same;
# - run refuses a named configuration over --memory-per-rank with a
#   not-applicable row and the reason, and runs the others (the dgemm
#   peer, whose rank 0 alone holds anything, may use what all ranks may);
# - run --algo auto under a limit picks a candidate within it;
# - a measured row has the predicted and the measured peak side by side
#   (mem_pred_mb, mem_hwm_mb within 3 %, mem_err, mem_rss_mb).
set -eu
mpirun=$1; mm=$2; dir=$3; opteron=$4
rm -f "$dir"/memory-*
fail() { echo "FAIL: $*"; exit 1; }

# Predict without a limit: every candidate's memory in the table and the files.
"$mm" predict --profile "$opteron" --p 16 --n 8192 --top 0 --csv "$dir/memory-free.csv" --json "$dir/memory-free.json" \
  >"$dir/memory-free.out"
grep -q 'mem/rank' "$dir/memory-free.out" || fail "predict table has no mem/rank column"
python3 - "$dir/memory-free.csv" "$dir/memory-free.json" <<'PY' || fail "predict memory columns"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(float(r["mem_pred_mb"]) > 0 for r in rows), rows[:2]
assert all("a=" in r["mem_pred_parts"] or "replicas=" in r["mem_pred_parts"] for r in rows)
doc = json.load(open(sys.argv[2]))
for c in doc["rankings"][0]["ranked"]:
    assert c["memory"]["bytes_per_rank"] > 0, c
    assert set(c["memory"]["doubles"]) == {"a", "b", "c", "replicas", "comm", "strassen", "local", "library"}
# The parts add up to the total.
for r in rows:
    parts = sum(float(kv.split("=")[1]) for kv in r["mem_pred_parts"].split(";"))
    assert abs(parts - float(r["mem_pred_mb"])) <= 0.01 * float(r["mem_pred_mb"]) + 0.1, r
PY

# A limit between the candidates' needs: about half are excluded.
limit_mib=$(python3 - "$dir/memory-free.csv" <<'PY'
import csv, statistics, sys
print(int(statistics.median(float(r["mem_pred_mb"]) for r in csv.DictReader(open(sys.argv[1])))))
PY
)
"$mm" predict --profile "$opteron" --p 16 --n 8192 --top 0 --memory-per-rank "${limit_mib}M" \
  --csv "$dir/memory-limited.csv" >"$dir/memory-limited.out"
grep -q "memory per rank .* (--memory-per-rank)" "$dir/memory-limited.out" || fail "predict does not say the limit"
python3 - "$dir/memory-free.csv" "$dir/memory-limited.csv" "$limit_mib" <<'PY' || fail "predict under --memory-per-rank"
import csv, sys
free = list(csv.DictReader(open(sys.argv[1])))
lim = list(csv.DictReader(open(sys.argv[2])))
limit = float(sys.argv[3])
assert 0 < len(lim) < len(free), (len(lim), len(free))
assert all(float(r["mem_pred_mb"]) <= limit for r in lim), "a ranked candidate over the limit"
fits = {r["label"] for r in free if float(r["mem_pred_mb"]) <= limit and "split=model" not in r["label"]}
assert fits <= {r["label"] for r in lim}, fits - {r["label"] for r in lim}
PY
"$mm" explain --profile "$opteron" --p 16 --n 8192 --memory-per-rank "${limit_mib}M" >"$dir/memory-explain.out"
grep -Eq "excluded: .* needs [0-9.]+ [MG]iB \(A [0-9.]+ [MG]iB, B .*\) per rank, more than the [0-9.]+ [MG]iB of --memory-per-rank" \
  "$dir/memory-explain.out" || { cat "$dir/memory-explain.out"; fail "explain names no memory exclusion"; }

# The profile's memory per rank is a limit too, cited as such.
python3 - "$opteron" "$dir/memory-profile.json" "$limit_mib" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["memory_per_rank_bytes"] = int(sys.argv[3]) << 20
json.dump(doc, open(sys.argv[2], "w"), indent=2)
PY
"$mm" explain --profile "$dir/memory-profile.json" --p 16 --n 8192 >"$dir/memory-profile.out"
grep -q "more than the .* of the profile's memory per rank" "$dir/memory-profile.out" \
  || fail "the profile's memory per rank excludes nothing"
grep -q "MiB per rank" "$dir/memory-profile.out" || fail "the machine line does not show the profile's memory"

# run: a named configuration over the limit is a not-applicable row; the
# others run, their predicted and measured peaks side by side.
csv=$dir/memory-run.csv
"$mpirun" -n 2 "$mm" run --algo dgemm,ring,tpmm,pdgemm,2.5d --n 256,600 --local-strassen 0,1 --local-cutoff 64 \
  --reps 1 --warmup 0 --memory-per-rank 5M --csv "$csv" --quiet >"$dir/memory-run.out"
python3 - "$csv" <<'PY' || fail "run rows under --memory-per-rank"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
refused = [r for r in rows if r["status"] == "not-applicable" and "--memory-per-rank" in r["reason"]]
ran = [r for r in rows if r["status"] == "ok"]
assert refused and ran, [(r["algo"], r["n"], r["status"], r["reason"]) for r in rows]
# The dgemm peer's rank 0 holds everything, the other rank nothing: it may
# use what both ranks may (10 MiB).
for r in refused:
    if r["algo"] == "dgemm":
        assert float(r["mem_pred_mb"]) > 10, r
        assert "on rank 0 (the others hold nothing), more than the 10.0 MiB of 2 ranks at 5.00 MiB each" in r["reason"], r["reason"]
    else:
        assert float(r["mem_pred_mb"]) > 5, r
        assert "per rank, more than the 5.00 MiB of --memory-per-rank" in r["reason"], r["reason"]
    assert r["mem_hwm_mb"] == "", r
assert any(r["algo"] == "dgemm" for r in refused) and any(r["algo"] != "dgemm" for r in refused)
for r in ran:
    pred, hwm = float(r["mem_pred_mb"]), float(r["mem_hwm_mb"])
    own = pred - sum(float(kv.split("=")[1]) for kv in r["mem_pred_parts"].split(";") if kv.startswith("library="))
    assert abs(own - hwm) <= 0.03 * hwm + 0.01, (r["algo"], r["n"], own, hwm)
    assert abs(float(r["mem_err"])) <= 0.03, r["mem_err"]
    assert pred <= (10 if r["algo"] == "dgemm" else 5), r
    assert r["mem_rss_mb"] == "" or float(r["mem_rss_mb"]) >= 0, r["mem_rss_mb"]
print(f"{len(ran)} rows ran within 5 MiB per rank, {len(refused)} refused")
PY

# run --algo auto under a limit: the pick fits it (and the CSV says so).
net="--lambda 4e-6 --tau 5000 --flops 40000"
"$mpirun" -n 2 "$mm" run --algo auto --n 600 --reps 1 --warmup 0 $net --memory-per-rank 5M --csv "$dir/memory-auto.csv" \
  --quiet --explain >"$dir/memory-auto.out"
grep -q "of --memory-per-rank" "$dir/memory-auto.out" || fail "run --explain shows no memory exclusion"
python3 - "$dir/memory-auto.csv" <<'PY' || fail "auto under --memory-per-rank"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 1 and rows[0]["selected_by"] == "auto-refined", rows
assert rows[0]["status"] == "ok", rows[0]
limit = 10 if rows[0]["algo"] == "dgemm" else 5  # the peer's rank 0 may use both ranks' share
assert float(rows[0]["mem_pred_mb"]) <= limit, (rows[0]["algo"], rows[0]["mem_pred_mb"])
PY
echo "memory_ok passed"
