#!/usr/bin/env bash
# `make run` leaves a clone clean: scripts/default-benchmark.sh (what make run
# calls after the build) is run in a temporary clone with the already built
# mmbench in its --smoke mode (one tiny size, a tune of a few seconds), and
# afterwards `git status --porcelain` must be empty, while the outputs exist
# (results, plots, the machine profile) -- they are new and ignored.
#
# The clone is of HEAD plus the working tree's uncommitted changes and new
# files (committed there), so the test checks what is about to be committed.
#
#   make_run_clean.sh MMBENCH SOURCE_DIR
# Exit 0 pass, 1 fail, 77 skipped (no git, or the source is no git checkout).
set -eu
mm=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$2
command -v git >/dev/null || { echo "SKIP: git not found"; exit 77; }
git -C "$src" rev-parse --verify -q HEAD >/dev/null || { echo "SKIP: $src is not a git checkout"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/mmbench-make-run.XXXXXX")
trap 'rm -rf "$work"' EXIT
clone=$work/repo
. "$(dirname "$0")/clone_of_worktree.sh"
clone_of_worktree "$src" "$clone" || exit 1
if ! (cd "$clone" && scripts/default-benchmark.sh "$mm" --smoke) >"$work/out.txt" 2>&1; then
    echo "FAIL: scripts/default-benchmark.sh --smoke failed:"; cat "$work/out.txt"; exit 1
fi
dirty=$(git -C "$clone" status --porcelain --untracked-files=all)
if [ -n "$dirty" ]; then
    echo "FAIL: make run left the clone dirty (tracked files changed or new files not ignored):"
    echo "$dirty"; echo "--- output:"; cat "$work/out.txt"; exit 1
fi
# Not vacuous: it did write, and what it wrote is ignored.
host=$(hostname)
ls "$clone"/results/local/default-"$host"-*.csv >/dev/null 2>&1 || { echo "FAIL: no results/local/default-$host-*.csv"; cat "$work/out.txt"; exit 1; }
[ -f "$clone/configs/$host.json" ] || { echo "FAIL: no configs/$host.json (the tune step)"; cat "$work/out.txt"; exit 1; }
rows=$(($(wc -l <"$(ls "$clone"/results/local/default-"$host"-*[0-9]Z.csv | head -1)") - 1))
[ "$rows" -gt 0 ] || { echo "FAIL: the results CSV has no rows"; exit 1; }
ignored=$(git -C "$clone" status --porcelain --ignored | grep -c '^!!' || true)
[ "$ignored" -gt 0 ] || { echo "FAIL: git lists no ignored outputs"; exit 1; }
if python3 -c 'import matplotlib' 2>/dev/null || /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
    ls "$clone"/plots/latest/*.png >/dev/null 2>&1 || { echo "FAIL: no plots in plots/latest/"; cat "$work/out.txt"; exit 1; }
fi
echo "ok: make run (--smoke) wrote $rows result rows, a profile and plots; git status is clean"
