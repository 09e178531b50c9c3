#!/usr/bin/env bash
# The models at the command line with good input:
# - predict writes a CSV (one row per ranked candidate) and valid JSON;
# - predict with the thesis' Opteron profile reads it (lb 668 is a candidate);
# - the Opteron profile reproduces the shape of Abb. 2.14;
# - explain lists excluded candidates with a reason;
# - run --algo auto runs predict's first candidate and records selected_by, runner_up, runner_up_ratio (the
#   runner-up's price over the pick's, as predict prices them) and both predictions with
#   their errors; --model paper records auto-paper;
# - a Strassen row is priced at the r its plan used;
# - run --validate writes <stem>-validate.csv and .txt with a regret and the pick's runner_up_ratio.
set -eu
mpirun=$1; mm=$2; dir=$3; opteron=$4
net="--lambda 4e-6 --tau 5000 --flops 40000"
rm -f "$dir"/models-*
fail() { echo "FAIL: $*"; exit 1; }

"$mm" predict $net --p 4,8 --n 512,1024 --csv "$dir/models-predict.csv" --json "$dir/models-predict.json" >"$dir/models-predict.out"
python3 - "$dir/models-predict.csv" "$dir/models-predict.json" <<'PY' || fail "predict files"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
doc = json.load(open(sys.argv[2]))
assert len(doc["rankings"]) == 4, len(doc["rankings"])
assert len(rows) == sum(len(r["ranked"]) for r in doc["rankings"]), "CSV rows != JSON candidates"
for r in doc["rankings"]:
    t = [c["t_pred"] for c in r["ranked"]]
    assert t == sorted(t), "not ranked"
    assert r["ranked"][0]["rank"] == 1
assert all(float(r["pred_paper"]) > 0 and float(r["pred_refined"]) > 0 for r in rows)
PY

"$mm" predict --profile "$opteron" --p 56 --n 4096 --algo pdgemm --top 0 >"$dir/models-opteron.out"
grep -q 'lb=64(auto)' "$dir/models-opteron.out" || fail "profile lb 668, capped to 64 on 7 x 8 at n = 4096, not a candidate"
grep -q '146 MB/s' "$dir/models-opteron.out" || fail "profile tau not shown"

# Abb. 2.14: with the thesis' Opteron parameters the paper model puts
# Strassen + Ring ahead of PDGEMM at p = 56 for every size.
"$mm" predict --profile "$opteron" --p 56 --n 1024:12288:1024 --algo pdgemm,strassen-q7+ring --lb auto --model paper \
  --csv "$dir/models-abb214.csv" >/dev/null
python3 - "$dir/models-abb214.csv" <<'PY' || fail "Abb. 2.14 shape"
import csv, sys
best = {}
for r in csv.DictReader(open(sys.argv[1])):
    key = (int(r["n"]), r["algo"])
    best[key] = min(best.get(key, float("inf")), float(r["pred_paper"]))
ns = sorted({n for n, _ in best})
assert len(ns) == 12, ns
for n in ns:
    assert best[(n, "strassen-q7+ring")] < best[(n, "pdgemm")], (n, best[(n, "strassen-q7+ring")], best[(n, "pdgemm")])
PY

"$mm" explain $net --p 3 --n 300 --cores-per-node 1 >"$dir/models-explain.out"
grep -q 'excluded: dgemm .*one node' "$dir/models-explain.out" || { cat "$dir/models-explain.out"; fail "explain: no exclusion"; }

csv=$dir/models-auto.csv
"$mpirun" -n 2 "$mm" run --algo auto --n 64,96 --reps 1 $net --csv "$csv" --quiet >/dev/null
"$mpirun" -n 2 "$mm" run --algo auto --n 64 --reps 1 $net --model paper --csv "$csv" --quiet --explain >"$dir/models-auto.out"
grep -q '^p = 2, m = 64' "$dir/models-auto.out" || fail "run --explain printed no ranking"
python3 - "$csv" <<'PY' || fail "auto rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["selected_by"] for r in rows] == ["auto-refined", "auto-refined", "auto-paper"], [r["selected_by"] for r in rows]
for r in rows:
    assert r["status"] == "ok", r
    assert r["runner_up"], "no runner-up"
    assert float(r["runner_up_ratio"]) >= 1, ("runner_up_ratio below 1", r["runner_up_ratio"])
    for c in ("pred_paper", "pred_refined", "err_paper", "err_refined"):
        assert r[c], c + " empty"
    t, pr = float(r["t_median"]), float(r["pred_refined"])
    assert abs((pr - t) / t - float(r["err_refined"])) < 1e-3
PY

# auto ran what predict ranks first for the same machine, p and n.
"$mm" predict $net --p 2 --n 64,96 --csv "$dir/models-auto-pred.csv" >/dev/null
python3 - "$csv" "$dir/models-auto-pred.csv" <<'PY' || fail "auto != predict's first"
import csv, sys
runs = list(csv.DictReader(open(sys.argv[1])))[:2]
pred = list(csv.DictReader(open(sys.argv[2])))
for r in runs:
    ranked = [q for q in pred if q["n"] == r["n"]]
    assert ranked[0]["algo"] == r["algo"], (ranked[0]["label"], r["algo"])
    assert ranked[1]["label"] == r["runner_up"], (ranked[1]["label"], r["runner_up"])
    gap = float(ranked[1]["pred_refined"]) / float(ranked[0]["pred_refined"])
    assert abs(float(r["runner_up_ratio"]) - gap) < 1e-3 * gap, ("runner_up_ratio", r["runner_up_ratio"], gap)
PY

# A user-chosen run with a machine also gets the predictions.
"$mpirun" -n 2 "$mm" run --algo ring --n 64 --reps 1 $net --csv "$dir/models-user.csv" --quiet >/dev/null
python3 -c "import csv,sys; r=list(csv.DictReader(open('$dir/models-user.csv')))[0]; assert r['selected_by']=='user' and r['pred_paper'] and r['err_refined'], r" || fail "user row without predictions"

# Strassen with r = max: the row is priced at the r the plan used (1 at p = 4),
# the same numbers predict gives for that candidate.
"$mpirun" -n 4 "$mm" run --algo strassen-q7+ring --n 64 --reps 1 $net --csv "$dir/models-q7.csv" --quiet >/dev/null
"$mm" predict $net --p 4 --n 64 --algo strassen-q7+ring --csv "$dir/models-q7-pred.csv" >/dev/null
python3 - "$dir/models-q7.csv" "$dir/models-q7-pred.csv" <<'PY' || fail "strassen row predictions"
import csv, sys
run = list(csv.DictReader(open(sys.argv[1])))[0]
pred = [q for q in csv.DictReader(open(sys.argv[2])) if q["recursions"] == run["recursions"]][0]
assert run["recursions"] == "1", run["recursions"]
for c in ("pred_paper", "pred_refined"):
    assert abs(float(run[c]) - float(pred[c])) <= 1e-5 * float(pred[c]), (c, run[c], pred[c])
PY

"$mpirun" -n 2 "$mm" run --algo all --validate --n 64 --reps 1 $net --csv "$dir/models-val.csv" --quiet >/dev/null
python3 - "$dir/models-val.csv" "$dir/models-val-validate.csv" "$dir/models-auto-pred.csv" <<'PY' || fail "validation"
import csv, sys
runs = list(csv.DictReader(open(sys.argv[1])))
val = list(csv.DictReader(open(sys.argv[2])))
assert len(val) == 1, val
v = val[0]
assert int(v["candidates"]) == len(runs) >= 3, (v, len(runs))
assert float(v["regret"]) >= 1.0
assert v["median_abs_err_refined"] and v["p90_abs_err_paper"]
best = min(float(r["t_median"]) for r in runs)
assert abs(float(v["t_best"]) - best) <= 1e-6 * best + 1e-12, (v["t_best"], best)
# How close a call the pick was: predict's second price over its first.
ranked = [q for q in csv.DictReader(open(sys.argv[3])) if q["n"] == "64"]
gap = float(ranked[1]["pred_refined"]) / float(ranked[0]["pred_refined"])
assert abs(float(v["runner_up_ratio"]) - gap) < 1e-3 * gap, ("runner_up_ratio", v["runner_up_ratio"], gap)
PY
grep -q 'regret' "$dir/models-val-validate.txt" || fail "no text summary"
echo "models_ok passed"
