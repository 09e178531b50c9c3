#!/usr/bin/env bash
# Local Strassen levels and the Q7 split at the command line with good input:
# - --local-strassen 0,auto with a profile that has a crossover: the auto
#   rows record local_levels=auto, the profile's cut-off and the levels the
#   kernel really did (dgemm 256^3 with cut-off 64: 256, 128, 64 -> 3;
#   ring's 128-row blocks at p = 2: 128, 64 -> 2), all verified;
# - --q7-split paper,model at p = 4: two rows per Q7 combination, the rule
#   and the split recorded, both verified;
# - --algo auto ranks local levels (the row's L is a number, verified).
set -eu
mpirun=$1; mm=$2; dir=$3; opteron=$4
prof=$dir/local-split-profile.json
csv=$dir/local-split.csv
rm -f "$csv" "$csv.json" "$prof"
fail() { echo "FAIL: $*"; cat "$csv" 2>/dev/null; exit 1; }
python3 - "$opteron" "$prof" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["strassen_crossover"] = {"local_l1_n": 64, "local_l2_n": 128, "largest_n_tried": 512}
json.dump(d, open(sys.argv[2], "w"))
PY
"$mpirun" -n 2 "$mm" run --algo dgemm,ring --n 256 --local-strassen 0,auto --profile "$prof" --reps 1 --csv "$csv" --quiet >/dev/null
"$mpirun" -n 4 "$mm" run --algo strassen-q7+ring,strassen-q7+pdgemm --n 128 --nb 16 --q7-split paper,model --profile "$prof" \
  --reps 1 --csv "$csv" --quiet >/dev/null
"$mpirun" -n 2 "$mm" run --algo auto --n 512 --profile "$prof" --reps 1 --csv "$csv" --quiet >/dev/null
python3 - "$csv" <<'PY' || fail "rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 4 + 4 + 1, len(rows)
assert all(r["status"] == "ok" and r["verified"] == "yes" for r in rows), [(r["algo"], r["status"]) for r in rows]
auto = {r["algo"]: r for r in rows[:4] if r["local_levels"] == "auto"}
plain = {r["algo"]: r for r in rows[:4] if r["local_levels"] == "0"}
assert set(auto) == {"dgemm", "ring"} and set(plain) == {"dgemm", "ring"}, rows[:4]
assert auto["dgemm"]["local_levels_applied"] == "3", auto["dgemm"]
assert auto["ring"]["local_levels_applied"] == "2", auto["ring"]
assert all(r["local_cutoff"] == "64" for r in auto.values())
assert all(r["local_levels_applied"] == "0" for r in plain.values())
q7 = rows[4:8]
for algo in ("strassen-q7+ring", "strassen-q7+pdgemm"):
    rules = sorted(r["q7_split_rule"] for r in q7 if r["algo"] == algo)
    assert rules == ["model", "paper"], (algo, rules)
    for r in q7:
        g = [int(x) for x in r["q7_split"].split("/")]
        assert len(g) == 4 and sum(g) == 4, r["q7_split"]
a = rows[8]
assert a["selected_by"] == "auto-refined" and a["local_levels"].isdigit(), a
print("local_and_split_ok passed:", a["algo"], "L =", a["local_levels"], "runner-up", a["runner_up"])
PY
