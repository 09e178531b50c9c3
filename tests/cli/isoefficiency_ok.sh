#!/usr/bin/env bash
# predict --isoefficiency at the command line (docs/method.md §9.1):
# - tpMM with the paper model and no latency: n_E = ceil((p - 1) E / ((1 - E)
#   tau t_op)) at every p (the closed form, derived in tests/unit/test_isoefficiency.cpp);
# - the CSV has a row per algorithm and p with its best member, the JSON
#   the same points; the table ends with the smallest n_E at each p;
# - a small --n-max leaves E unreached, and the row says so;
# - an algorithm that does not run at some p says why (tpmm at p = 6);
# - under --memory-per-rank the search stops where no member fits;
# - the plotter draws the CSV (where matplotlib is installed).
set -eu
mm=$1; dir=$2; src=$3
rm -rf "$dir"/iso-*
fail() { echo "FAIL: $*"; exit 1; }
net="--lambda 0 --tau 146 --flops 3300"

"$mm" predict $net --model paper --isoefficiency 0.5 --p 4:64:*2,6 --algo tpmm,ring \
  --csv "$dir/iso-paper.csv" --json "$dir/iso-paper.json" >"$dir/iso-paper.out"
grep -q "isoefficiency E = 0.5, paper model" "$dir/iso-paper.out" || fail "no title line"
grep -q "^smallest n_E at each p" "$dir/iso-paper.out" || fail "no summary"
python3 - "$dir/iso-paper.csv" "$dir/iso-paper.json" <<'PY' || { cat "$dir/iso-paper.out"; fail "isoefficiency rows"; }
import csv, json, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
doc = json.load(open(sys.argv[2]))
assert doc["schema"] == "mmbench-isoefficiency/1" and len(doc["points"]) == len(rows) == 12, (len(rows), doc["schema"])
tau, t = 146e6 / 8, 1 / 3300e6
for r in rows:
    p, E = int(r["p"]), float(r["isoefficiency"])
    if r["algo"] == "tpmm" and p == 6:
        assert r["reached"] == "no" and "power of two" in r["note"] and r["n"] == "", r
        continue
    assert r["reached"] == "yes" and float(r["efficiency"]) >= E, r
    assert r["best_member"].startswith(r["algo"]) and float(r["mem_pred_mb"]) > 0, r
    root = (p - 1) * E / (1 - E) / (tau * t)
    n = int(r["n_iso"])
    if r["algo"] == "tpmm":
        assert n == math.ceil(root - 1e-9), (p, n, root)
    else:  # ring: at or above tpMM's n*, within its saw-tooth
        assert root <= n <= 1.03 * root + p, (p, n, root)
print("tpmm n_E:", {int(r["p"]): int(r["n_iso"]) for r in rows if r["algo"] == "tpmm" and r["n_iso"]})
PY

# Not reached within --n-max: the row says how far it searched.
"$mm" predict $net --model paper --isoefficiency 0.9 --p 64 --algo tpmm --n-max 1000 --csv "$dir/iso-short.csv" \
  >"$dir/iso-short.out"
grep -q "not reached up to n = 1000 (efficiency 0\.[0-9]* there)" "$dir/iso-short.out" || { cat "$dir/iso-short.out"; fail "no 'not reached'"; }
python3 - "$dir/iso-short.csv" <<'PY' || fail "not-reached row"
import csv, sys
r, = list(csv.DictReader(open(sys.argv[1])))
assert r["reached"] == "no" and r["n_iso"] == "" and r["n"] == "1000" and float(r["efficiency"]) < 0.9, r
PY

# A memory limit bounds the search: no member fits beyond some n.
"$mm" predict $net --model paper --isoefficiency 0.5 --p 64 --algo tpmm --memory-per-rank 8M >"$dir/iso-memory.out"
grep -q "no member fits the memory limit above n = " "$dir/iso-memory.out" || { cat "$dir/iso-memory.out"; fail "memory limit"; }

# The curves as a plot (skipped without matplotlib).
if python3 -c 'import matplotlib' 2>/dev/null || /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
  python3 "$src/plots/mmbench_plot.py" --out "$dir/iso-plots" "$dir/iso-paper.csv" >"$dir/iso-plot.out" \
    || fail "plot: $(cat "$dir/iso-plot.out")"
  [ -s "$dir/iso-plots/isoefficiency.png" ] || fail "no isoefficiency.png"
fi
echo "isoefficiency_ok passed"
