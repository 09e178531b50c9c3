# shellcheck shell=bash
# Sourced by the netns cases, which set $cluster (scripts/netns-cluster.sh).
# require_root_or_skip comes first, before a case's first `down` (which
# needs root as well): not root, the case is skipped, exit 77, never passed.
# cluster_up ARGS... brings a namespace cluster up ($cluster up ARGS...)
# and prints what the fixture said. Where this machine cannot make one (not
# root, no namespaces, a tool missing: the fixture's one-line refusals,
# exit 2) the case is skipped, exit 77, never passed; any other failure
# fails the case.
require_root_or_skip() {
  if [ "$(id -u)" != 0 ]; then echo "SKIP: not root (network namespaces need it)"; exit 77; fi
}

cluster_up() {
  local msg rc
  msg=$("${cluster:?the netns case sets cluster}" up "$@" 2>&1)
  rc=$?
  echo "$msg"
  if [ $rc = 2 ] && grep -q "cannot make a network namespace\|needs root\|no '" <<<"$msg"; then
    echo "SKIP: $msg"
    exit 77
  fi
  [ $rc = 0 ] || { echo "FAIL: cluster up"; exit 1; }
}
