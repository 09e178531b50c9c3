#!/usr/bin/env bash
# `make run` keeps to ten minutes counted from when make started, build
# included:
# 1. the Makefile's run target builds the mmbench target only and hands the
#    start time to scripts/default-benchmark.sh (MMBENCH_MAKE_STARTED), read
#    from `make -n run`;
# 2. the script drops the sizes that no longer fit when that start lies
#    minutes back, and keeps them all when it is now. It runs in a copy of
#    scripts/ and python/ with a machine profile of 50 GFLOP/s and a stub in
#    place of mmbench that records the sizes it is asked to run and fails,
#    so no tune and no multiply runs.
#
#   make_run_budget.sh SOURCE_DIR
# Exit 0 pass, 1 fail.
set -eu
src=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/mmbench-make-run-budget.XXXXXX")
trap 'rm -rf "$work"' EXIT

plan=$(make -n -C "$src" run BUILD="$work/nobuild" 2>/dev/null) || { echo "FAIL: make -n run failed"; exit 1; }
echo "$plan" | grep -q -- '--build .*--target mmbench' ||
    { echo "FAIL: make run does not build the mmbench target alone:"; echo "$plan"; exit 1; }
echo "$plan" | grep -Eq 'MMBENCH_MAKE_STARTED=[0-9]+ scripts/default-benchmark.sh' ||
    { echo "FAIL: make run does not hand its start time to default-benchmark.sh:"; echo "$plan"; exit 1; }

repo=$work/repo
mkdir -p "$repo/configs"
cp -r "$src/scripts" "$src/python" "$repo/"
echo '{"peak_dgemm_mflops": 50000}' >"$repo/configs/$(hostname).json"
cat >"$work/stub" <<'EOF'
#!/usr/bin/env bash
# Not mmbench: no tune subcommand in its help, no faster BLAS core, and a
# run that records its arguments and fails.
[ "${1:-}" = run ] && echo "$*" >>"$(dirname "$0")/runs.txt" && exit 3
exit 0
EOF
chmod +x "$work/stub"

sizes_asked() {  # MMBENCH_MAKE_STARTED value or "" -> the --n of the first run
    rm -f "$work/runs.txt"
    (cd "$repo" && env -u MMBENCH_MAKE_STARTED ${1:+MMBENCH_MAKE_STARTED=$1} OPENBLAS_CORETYPE=x \
        scripts/default-benchmark.sh "$work/stub" --default) >"$work/out.txt" 2>&1 || true
    [ -f "$work/runs.txt" ] || { echo "FAIL: the script never called run:"; cat "$work/out.txt"; exit 1; }
    sed -n 's/.*--n \([^ ]*\).*/\1/p' "$work/runs.txt" | head -1
}

now=$(date +%s)
got=$(sizes_asked "$now")
[ "$got" = 1024,2048,4096 ] || { echo "FAIL: make started now: sizes '$got' (expected 1024,2048,4096)"; cat "$work/out.txt"; exit 1; }
got=$(sizes_asked "")
[ "$got" = 1024,2048,4096 ] || { echo "FAIL: run by hand: sizes '$got' (expected 1024,2048,4096)"; cat "$work/out.txt"; exit 1; }
# Eight minutes ago: 90 s left; at 50 GFLOP/s n = 4096 is estimated at
# about 110 s and n = 2048 at about 14 s (scripts/sweep_sizes.py).
got=$(sizes_asked $((now - 480)))
[ "$got" = 1024,2048 ] || { echo "FAIL: make started 480 s ago: sizes '$got' (expected 1024,2048)"; cat "$work/out.txt"; exit 1; }
grep -q 'n = 4096 (about .* s) left out: make run keeps to 10 minutes' "$work/out.txt" ||
    { echo "FAIL: no line names the size left out:"; cat "$work/out.txt"; exit 1; }
echo "ok: make run builds mmbench alone, hands over its start; 4096 left out 480 s after it, all sizes at its start"
