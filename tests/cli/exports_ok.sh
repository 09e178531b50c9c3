#!/usr/bin/env bash
# run --json / --markdown on a small real run (p = 2, n = 256):
#  - the JSON validates against docs/results.schema.json (python3-jsonschema;
#    without it, the required keys and types are checked by hand) and holds
#    the CSV's rows, typed, with per-round times;
#  - the Markdown file is the table: header row, separator, one line per row;
#  - the CSV has t_rounds with one time per round;
#  - stdout starts with the command line and the machine block;
#  - compare of the run's CSV with its own JSON pairs the rounds (one run)
#    and flags nothing.
set -u
mpirun=$1; mm=$2; dir=$3/exports
src=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$dir"
rm -f "$dir"/run.*
"$mpirun" -q -n 2 "$mm" run --algo dgemm,ring,pdgemm --n 256 --reps 3 --quiet --csv "$dir/run.csv" \
  --json "$dir/run.json" --markdown "$dir/run.md" >"$dir/run.out" 2>&1 || { cat "$dir/run.out"; fail "run exit $?"; }
head -4 "$dir/run.out" | grep -q '^# mmbench .* command: .*run --algo dgemm,ring,pdgemm' || fail "no command line on top"
grep -q '^# host .*cores.*2 MPI ranks' "$dir/run.out" || fail "no machine line"
grep -q '^# BLAS: .*(kernel ' "$dir/run.out" || fail "no BLAS line"
grep -q '^# MPI: ' "$dir/run.out" || fail "no MPI line"

python3 - "$dir/run.json" "$src/docs/results.schema.json" "$dir/run.csv" <<'PY' || fail "JSON export"
import csv, json, sys
doc = json.load(open(sys.argv[1]))
schema = json.load(open(sys.argv[2]))
try:
    import jsonschema
    jsonschema.validate(doc, schema)
    print("validated with jsonschema", jsonschema.__name__)
except ImportError:
    print("note: python3-jsonschema missing; checking required keys and types by hand")
    types = {"string": str, "integer": int, "number": (int, float), "array": list, "object": dict,
             "boolean": bool, "null": type(None)}
    def check(v, s, where):
        if "type" in s:
            ts = s["type"] if isinstance(s["type"], list) else [s["type"]]
            assert any(isinstance(v, types[t]) and not (t in ("integer", "number") and isinstance(v, bool))
                       for t in ts), (where, v, ts)
        for k in s.get("required", []):
            assert k in v, (where, k)
        for k, sub in s.get("properties", {}).items():
            if isinstance(v, dict) and k in v:
                check(v[k], sub, where + "." + k)
        if "items" in s and isinstance(v, list):
            for i, x in enumerate(v):
                check(x, s["items"], f"{where}[{i}]")
    check(doc, schema, "$")
m = doc["metadata"]
assert doc["schema"] == "mmbench-results/2"
assert m["complete"] is True and m["interrupted_by"] is None and m["finished"], m
assert m["machine"]["ranks"] == 2 and m["command"].count("--json") == 1, m
rows = list(csv.DictReader(open(sys.argv[3])))
assert len(doc["rows"]) == len(rows) == 3, (len(doc["rows"]), len(rows))
for j, c in zip(doc["rows"], rows):
    assert j["algo"] == c["algo"] and j["status"] == "ok", j
    assert isinstance(j["n"], int) and j["n"] == 256 and isinstance(j["t_median"], float)
    assert len(j["t_rounds"]) == 3 and len(c["t_rounds"].split(";")) == 3, (j["t_rounds"], c["t_rounds"])
    assert abs(min(j["t_rounds"]) - j["t_min"]) <= 1e-5 * j["t_min"], (j["t_rounds"], j["t_min"])
PY

# Markdown: a line above the table, then header, separator and 3 rows.
grep -q '^| algo | p | thr | m | n | k | grid | nb | lb | r | L | t_med\[s\] |' "$dir/run.md" || fail "Markdown header: $(cat "$dir/run.md")"
[ "$(grep -c '^|---|---:|' "$dir/run.md")" = 1 ] || fail "Markdown separator"
[ "$(grep -c '^| ' "$dir/run.md")" = 4 ] || fail "Markdown: $(grep -c '^| ' "$dir/run.md") table lines, expected 4"
for a in dgemm ring pdgemm; do grep -q "^| $a | " "$dir/run.md" || fail "Markdown row $a"; done

# The run's CSV against its own JSON: one run, so the rounds are paired.
out=$("$mm" compare "$dir/run.csv" "$dir/run.json" --fail-on-regression 2>&1) || { echo "$out"; fail "compare exit $?"; }
echo "$out"
[ "$(echo "$out" | grep -cE '^(dgemm|ring|pdgemm) .* paired')" = 3 ] || fail "rounds of one run not paired"
echo "$out" | grep -q '3 configurations in both: 0 slower, 0 faster, 3 unchanged' || fail "summary"

# An unwritable export fails before anything runs, one line, exit 2.
out=$("$mpirun" -q -n 2 "$mm" run --algo ring --n 64 --csv "$dir/run2.csv" --json /proc/mmbench-no-dir/x.json 2>&1 >/dev/null); code=$?
[ $code = 2 ] || fail "unwritable --json: exit $code"
echo "$out" | grep -qE '^mmbench: --json: cannot (write|create folder) /proc/mmbench-no-dir' || fail "unwritable --json message: $out"
echo "exports_ok passed"
