#!/usr/bin/env bash
# `mmbench run` and `mmbench tune` without --csv (and tune without
# --profile) write only what git ignores: run in a temporary clone of the
# working tree (cwd = the clone) with the already built mmbench, then
# `git status --porcelain` must be empty while the files exist under
# results/local/ (and configs/<host>.json).
#
#   run_default_clean.sh MPIEXEC MMBENCH SOURCE_DIR
# Exit 0 pass, 1 fail, 77 skipped (no git, or the source is no git checkout).
set -eu
mpirun=$1
mm=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
src=$3
command -v git >/dev/null || { echo "SKIP: git not found"; exit 77; }
git -C "$src" rev-parse --verify -q HEAD >/dev/null || { echo "SKIP: $src is not a git checkout"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/mmbench-run-default.XXXXXX")
trap 'rm -rf "$work"' EXIT
clone=$work/repo
. "$(dirname "$0")/clone_of_worktree.sh"
clone_of_worktree "$src" "$clone" || exit 1

host=$(hostname)
if ! (cd "$clone" && "$mpirun" -q -n 1 "$mm" run --algo dgemm --n 128 --reps 1 --quiet) >"$work/out.txt" 2>&1; then
    echo "FAIL: mmbench run failed:"; cat "$work/out.txt"; exit 1
fi
if ! (cd "$clone" && "$mpirun" -q -n 1 "$mm" tune --n 128 --kmin 8 --kmax 64 --reps 1 --passes 2 --no-lb-check \
        --no-local --no-blas-probe --quiet) >>"$work/out.txt" 2>&1; then
    echo "FAIL: mmbench tune failed:"; cat "$work/out.txt"; exit 1
fi
dirty=$(git -C "$clone" status --porcelain --untracked-files=all)
if [ -n "$dirty" ]; then
    echo "FAIL: run/tune without --csv left the clone dirty (tracked files changed or new files not ignored):"
    echo "$dirty"; echo "--- output:"; cat "$work/out.txt"; exit 1
fi
# Not vacuous: the defaults were written, where the help says.
for f in "results/local/run-$host.csv" "results/local/run-$host.csv.json" \
         "results/local/dgemm-profile-$host-n128.csv" "configs/$host.json"; do
    [ -s "$clone/$f" ] || { echo "FAIL: $f was not written"; cat "$work/out.txt"; exit 1; }
done
rows=$(($(wc -l <"$clone/results/local/run-$host.csv") - 1))
[ "$rows" -gt 0 ] || { echo "FAIL: results/local/run-$host.csv has no rows"; exit 1; }
grep -q "results appended to results/local/run-$host.csv" "$work/out.txt" ||
    { echo "FAIL: run did not name results/local/run-$host.csv"; cat "$work/out.txt"; exit 1; }
echo "ok: run and tune wrote results/local/ ($rows rows) and configs/$host.json; git status is clean"
