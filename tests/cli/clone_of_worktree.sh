# Sourced by the tests that check a command leaves a clone clean.
#   clone_of_worktree SOURCE_DIR CLONE_DIR
# Clones SOURCE_DIR's HEAD into CLONE_DIR and commits there the working
# tree's uncommitted changes and new, not ignored files, so a test checks
# what is about to be committed. Fails (returns 1) if the clone is not
# clean afterwards.
clone_of_worktree() {
  local src=$1 clone=$2 patch
  patch=$(mktemp)
  git clone -q --no-checkout "$src" "$clone" || return 1
  git -C "$clone" checkout -q "$(git -C "$src" rev-parse HEAD)" || return 1
  # The working tree's state as `git add -A` would commit it.
  git -C "$src" diff --binary HEAD >"$patch"
  if [ -s "$patch" ]; then git -C "$clone" apply --index "$patch" || { rm -f "$patch"; return 1; }; fi
  rm -f "$patch"
  (cd "$src" && git ls-files -z --others --exclude-standard) | (cd "$src" && xargs -0 -r cp --parents -t "$clone")
  git -C "$clone" add -A
  git -C "$clone" -c user.name=test -c user.email=test@localhost commit -q --allow-empty -m "working tree"
  [ -z "$(git -C "$clone" status --porcelain)" ] || { echo "FAIL: the clone is not clean before the run"; return 1; }
}
