#!/usr/bin/env bash
# Test of plots/mmbench_plot.py on the synthetic CSVs in tests/plots/data/.
# Exit 0 = pass, 1 = fail (with the reasons printed), 77 = skipped because
# matplotlib or python3 is missing (ctest: set SKIP_RETURN_CODE 77).
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
plot="$root/plots/mmbench_plot.py"
data="$here/data"

if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: python3 not found on PATH"
    exit 77
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/mmbench-plot-test.XXXXXX")
trap 'rm -rf "$work"' EXIT

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok:   $*"; }

# run OUT_NAME ARGS...: runs the plotter, keeps stdout/stderr/rc under $work
run() {
    local name=$1; shift
    python3 "$plot" "$@" >"$work/$name.out" 2>"$work/$name.err"
    echo $? >"$work/$name.rc"
}
rc_of() { cat "$work/$1.rc"; }

# is_png FILE: exists, non-empty, starts with the 8-byte PNG signature
is_png() {
    [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]
}

# --- input errors (need no matplotlib: files are checked before plotting) ---
run missing --out "$work/o-missing" "$data/no-such-file.csv"
if [ "$(rc_of missing)" = 2 ] && grep -q "no-such-file.csv" "$work/missing.err"; then
    pass "missing file: exit 2 with the file named"
else
    fail "missing file: expected exit 2 naming the file, got $(rc_of missing): $(cat "$work/missing.err")"
fi

run missing2 --out "$work/o-missing2" "$data/run-synthetic.csv" "$data/no-such-file.csv"
if [ "$(rc_of missing2)" = 2 ] && [ -z "$(ls -A "$work/o-missing2" 2>/dev/null)" ]; then
    pass "good file + missing file: exit 2, no PNG written"
else
    fail "good file + missing file: expected exit 2 and no output, got $(rc_of missing2)"
fi

printf 'a,b,c\n1,2,3\n' >"$work/unknown.csv"
run unknown --out "$work/o-unknown" "$work/unknown.csv"
if [ "$(rc_of unknown)" = 2 ] && grep -q "neither known header" "$work/unknown.err"; then
    pass "unknown header: exit 2"
else
    fail "unknown header: expected exit 2 'neither known header', got $(rc_of unknown): $(cat "$work/unknown.err")"
fi

# The plotter runs itself again with /usr/bin/python3 when the python3 on
# PATH (pyenv, a virtualenv) lacks matplotlib; skip only if neither has it.
if ! python3 -c 'import matplotlib' 2>/dev/null && ! /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
    echo "SKIP: matplotlib not found (Debian: apt-get install python3-matplotlib); plot checks not run"
    [ "$failures" -eq 0 ] && exit 77
    exit 1
fi

# --- all three files at once: every name carries its file's stem ---
out="$work/all"
run all --out "$out" --title-prefix "synthetic test data" \
    "$data/run-synthetic.csv" "$data/pdgemm-lb-sweep-synthetic.csv" "$data/dgemm-profile-synthetic.csv"
if [ "$(rc_of all)" != 0 ]; then
    fail "three files: exit $(rc_of all): $(cat "$work/all.err")"
fi
expected="mflops-vs-n-run-synthetic.png
model-vs-measured-run-synthetic.png
regret-run-synthetic.png
mflops-vs-n-pdgemm-lb-sweep-synthetic.png
pdgemm-vs-lb-pdgemm-lb-sweep-synthetic.png
dgemm-profile-dgemm-profile-synthetic.png"
for f in $expected; do
    if is_png "$out/$f"; then
        pass "three files: $f is a PNG"
    else
        fail "three files: $f missing, empty or not a PNG"
    fi
    grep -qx "$out/$f" "$work/all.out" || fail "three files: stdout does not list $out/$f"
done
nout=$(wc -l <"$work/all.out")
[ "$nout" -eq 6 ] || fail "three files: expected 6 stdout lines (one per PNG), got $nout"
npng=$(find "$out" -type f | wc -l)
[ "$npng" -eq 6 ] || fail "three files: expected exactly 6 files in the output folder (no temp files left), got $npng: $(ls -A "$out")"
# the sweep has no predictions and no validation CSV: both plots skipped with a note
grep -q "pdgemm-lb-sweep-synthetic.csv: no predictions" "$work/all.err" ||
    fail "three files: no note about the missing predictions of the sweep"
grep -q "pdgemm-lb-sweep-synthetic.csv: no validation CSV" "$work/all.err" ||
    fail "three files: no note about the sweep's missing validation CSV"

# --- one file: plain names, and no pdgemm-vs-lb (pdgemm has one lb there) ---
out="$work/one"
run one --out "$out" "$data/run-synthetic.csv"
[ "$(rc_of one)" = 0 ] || fail "run CSV alone: exit $(rc_of one): $(cat "$work/one.err")"
for f in mflops-vs-n.png model-vs-measured.png regret.png; do
    is_png "$out/$f" && pass "run CSV alone: $f" || fail "run CSV alone: $f missing or not a PNG"
done
[ ! -e "$out/pdgemm-vs-lb.png" ] || fail "run CSV alone: pdgemm-vs-lb.png written from a single lb value"
grep -q "fewer than two lb values" "$work/one.err" || fail "run CSV alone: no note on the skipped pdgemm-vs-lb"

# --- robustness: extra column, empty fields, a single row ---
{
    IFS= read -r header
    echo "$header,some_future_column"
    # first data row only (single point per line), with t_max and residual emptied
    IFS= read -r first
    echo "$first,xyz"
} <"$data/run-synthetic.csv" | python3 -c '
import csv, sys
rows = list(csv.reader(sys.stdin))
h = rows[0]
for r in rows[1:]:
    r[h.index("t_max")] = ""; r[h.index("residual")] = ""
csv.writer(sys.stdout, lineterminator="\n").writerows(rows)' >"$work/odd.csv"
run odd --out "$work/o-odd" "$work/odd.csv"
if [ "$(rc_of odd)" = 0 ] && is_png "$work/o-odd/mflops-vs-n.png" && is_png "$work/o-odd/model-vs-measured.png"; then
    pass "extra column, empty fields, one row: plots written"
else
    fail "extra column, empty fields, one row: exit $(rc_of odd): $(cat "$work/odd.err")"
fi

# --- regret: read from the validation CSV (the run CSV's <stem>-validate.csv) ---
out="$work/regret"
run regret --out "$out" "$data/run-synthetic.csv" "$data/validate-ci-synthetic.csv"
[ "$(rc_of regret)" = 0 ] || fail "regret files: exit $(rc_of regret): $(cat "$work/regret.err")"
for f in regret-run-synthetic.png regret-validate-ci-synthetic.png; do
    is_png "$out/$f" && pass "regret files: $f" || fail "regret files: $f missing or not a PNG"
done
# a validation CSV yields the regret plot only
[ "$(ls "$out" | grep -c validate-ci-synthetic)" -eq 1 ] || fail "validation CSV: expected one PNG, got $(ls "$out")"
# the same CSV without cores / interval columns (an older validation CSV) still plots
python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
keep = [c for c in rows[0] if c not in ("cores", "regret_ci_lo", "regret_ci_hi")]
w = csv.DictWriter(sys.stdout, fieldnames=keep, extrasaction="ignore", lineterminator="\n")
w.writeheader(); w.writerows(rows)' "$data/validate-ci-synthetic.csv" >"$work/validate-old.csv"
run valold --out "$work/o-valold" "$work/validate-old.csv"
if [ "$(rc_of valold)" = 0 ] && is_png "$work/o-valold/regret.png" && grep -q "no cores column" "$work/valold.err"; then
    pass "validation CSV without cores / interval columns: regret.png, grouped by p"
else
    fail "validation CSV without cores / interval columns: exit $(rc_of valold): $(cat "$work/valold.err")"
fi

# --- a PDGEMM call census (libmmbench-dispatch.so's MMBENCH_DISPATCH_LOG) ---
run census --out "$work/o-census" "$data/census-synthetic.csv"
if [ "$(rc_of census)" = 0 ] && is_png "$work/o-census/census.png"; then
    pass "census CSV: census.png"
else
    fail "census CSV: exit $(rc_of census): $(cat "$work/census.err")"
fi
# --- isoefficiency (predict --isoefficiency --csv): log p against n ---
run iso --out "$work/o-iso" "$data/isoefficiency-synthetic.csv"
if [ "$(rc_of iso)" = 0 ] && is_png "$work/o-iso/isoefficiency.png" && [ "$(ls "$work/o-iso" | wc -l)" = 1 ]; then
    pass "isoefficiency CSV: isoefficiency.png only"
else
    fail "isoefficiency CSV: exit $(rc_of iso), files $(ls "$work/o-iso" 2>/dev/null): $(cat "$work/iso.err")"
fi
# rows without any n (no algorithm applies anywhere): a note, no PNG
python3 -c '
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["n"] == ""]
w = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]), lineterminator="\n")
w.writeheader(); w.writerows(rows)' "$data/isoefficiency-synthetic.csv" >"$work/iso-none.csv"
run isonone --out "$work/o-isonone" "$work/iso-none.csv"
if [ "$(rc_of isonone)" = 0 ] && grep -q "no isoefficiency plot" "$work/isonone.err"; then
    pass "isoefficiency CSV without any n: a note, no PNG"
else
    fail "isoefficiency CSV without any n: exit $(rc_of isonone): $(cat "$work/isonone.err")"
fi

# --- header only: nothing to plot is not an error ---
head -n 1 "$data/run-synthetic.csv" >"$work/header-only.csv"
run hdr --out "$work/o-hdr" "$work/header-only.csv"
if [ "$(rc_of hdr)" = 0 ] && grep -q "no PNG written" "$work/hdr.err" && [ ! -s "$work/hdr.out" ]; then
    pass "header only: exit 0 with a note, no PNG"
else
    fail "header only: expected exit 0, a note and no output, got $(rc_of hdr): $(cat "$work/hdr.err")"
fi

if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all plot checks passed"
exit 0
