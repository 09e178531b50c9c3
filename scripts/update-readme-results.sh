#!/usr/bin/env bash
# Regenerate the "Results on this machine" section of README.md from the
# newest committed benchmark CSVs (never typed by hand):
#   scripts/update-readme-results.sh
# Uses the newest results/foundation-*.csv, results/local-strassen-*.csv,
# results/default-*.csv and the two newest results/q7-split-predict-*.csv committed (git ls-files: `make run`'s own
# uncommitted results are ignored by git and not shown), their sidecar JSON for the machine, and
# docs/figures/ for the main figure.
set -euo pipefail
cd "$(dirname "$0")/.."
# Newest by the UTC stamp in the file name (a fresh clone's mtimes say nothing).
newest() { git ls-files -- "$1" | sort | tail -n "${2:-1}"; }
machine() {
  python3 - "$1" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1] + ".json"))["runs"]
d = runs[0]
print(f"{d['host']}: {d['cpu']}, {d['cores']} cores; {d['mpi']}; {d['blas']}; ScaLAPACK {d['scalapack']}; mmbench {d['mmbench']}  ")
print("Runs: " + "; ".join(f"`{r['command']}`" for r in runs))
PY
}
section() {  # title csv command
  local title=$1 csv=$2 cmd=$3
  [ -n "$csv" ] || return 0
  echo "### $title"
  echo
  echo "\`$cmd\` → \`$csv\`  "
  echo "Machine: $(machine "$csv")"
  echo
  python3 scripts/summarize.py --markdown "$csv"
  echo
}
tmp=$(mktemp)
{
  section "Foundation sweep (p = 2)" "$(newest 'results/foundation-*.csv')" "scripts/bench/foundation.sh"
  # The full sweep (one timed run per configuration) and the two closer
  # looks at the goal points (3 runs each) that followed it.
  for f in $(newest 'results/local-strassen-*.csv' 3); do
    section "Local Strassen–Winograd" "$f" "scripts/bench/local_strassen.sh"
  done
  section "Default experiment (make run)" "$(newest 'results/default-*.csv')" "make run"
  for q in $(newest 'results/q7-split-predict-*.csv' 2); do
    echo "### Q7 group split: model vs paper, predicted (${q#results/q7-split-predict-})"
    echo
    echo "\`scripts/bench/q7_split_predict.sh\` → \`$q\` (refined model, no measurement: no machine with more than"
    echo "2 cores was available; \`scripts/bench/q7_split.sh\` measures it where one is)"
    echo
    python3 scripts/q7_split_compare.py --markdown "$q"
    echo
  done
  if [ -f docs/figures/mflops-vs-n.png ]; then echo "![MFLOPS per core against n](docs/figures/mflops-vs-n.png)"; echo; fi
  echo "MFLOPS per core use the classical 2mnk count; \"vs DGEMM peer\" is total GFLOP/s over one"
  echo "rank running OpenBLAS DGEMM with all the job's cores, measured in the same run. Ranks beyond the"
  echo "core count are oversubscribed and never used for these figures. This VM is noisy (the same"
  echo "configuration varied by up to 1.65x between repetitions): read single rows with care; the"
  echo "CSVs hold min/median/max of every configuration."
} >"$tmp"
python3 - "$tmp" <<'PY'
import re, sys
body = open(sys.argv[1]).read()
readme = open("README.md").read()
new = re.sub(r"<!-- results:begin -->.*<!-- results:end -->",
             "<!-- results:begin -->\n" + body.replace("\\", "\\\\") + "<!-- results:end -->", readme, flags=re.S)
open("README.md", "w").write(new)
PY
rm -f "$tmp"
echo "README.md results section regenerated"
