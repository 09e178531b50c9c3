#!/usr/bin/env bash
# Regenerate the "Results on this machine" section of README.md from the
# newest committed benchmark CSVs (never typed by hand):
#   scripts/update-readme-results.sh
# Uses the newest results/foundation-*.csv, results/local-kernel-*.csv,
# results/default-*.csv and the two newest results/q7-split-predict-*.csv committed (git ls-files: `make run`'s own
# results are in results/local/, ignored by git, and not shown; to publish one, copy it into results/ and
# git add it), their sidecar JSON for the machine, and
# docs/figures/ for the main figure.
set -euo pipefail
cd "$(dirname "$0")/.."
# Newest by the UTC stamp in the file name (a fresh clone's mtimes say nothing).
newest() { git ls-files -- "$1" | sort | tail -n "${2:-1}"; }
# The newest of the matching CSVs for each OpenBLAS core named in their
# sidecar (runs[0].blas: the word before " MAX_THREADS", e.g. Haswell or
# Cooperlake), oldest group first, one line each: the file, a tab, and
# "OpenBLAS core Haswell (pinned by OPENBLAS_CORETYPE)" for its heading.
# CSVs without a sidecar are left out: they cannot say what ran them.
newest_per_blas() {
  git ls-files -- "$1" | sort | python3 -c '
import json, re, sys
last = {}
for f in sys.stdin.read().split():
    try:
        blas = json.load(open(f + ".json"))["runs"][0]["blas"]
    except (OSError, KeyError, IndexError, ValueError):
        continue
    m = re.search(r"(\w+) MAX_THREADS", blas)
    core = m.group(1) if m else blas
    title = f"OpenBLAS core {core}" + (" (pinned by OPENBLAS_CORETYPE)" if "OPENBLAS_CORETYPE=" in blas else "")
    last.pop(core, None)  # re-insert: dict order = order of each group newest file
    last[core] = f + "\t" + title
print("\n".join(last.values()))'
}
machine() {
  python3 - "$1" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1] + ".json"))["runs"]
d = runs[0]
versions = ", ".join(dict.fromkeys(r["mmbench"] for r in runs))  # every build that wrote rows, in order
print(f"{d['host']}: {d['cpu']}, {d['cores']} cores; {d['mpi']}; {d['blas']}; ScaLAPACK {d['scalapack']}; mmbench {versions}  ")
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
  # Issue 11: the fair peer (a) and the paired ratios to it (b), the
  # tuner's lb (c) and the model's regret (d).
  f=$(newest 'results/trust-peer-in-mpirun2-*-summary.txt')
  if [ -n "$f" ]; then
    echo "### The DGEMM peer inside a 2-rank job vs alone (issue 11 a)"
    echo
    echo "\`PARTS=a scripts/bench/trust.sh\` → \`$f\` (launches alternated, one ratio per pair)  "
    echo "Machine: $(machine "${f%-summary.txt}.csv")"
    echo
    echo '```'
    grep -v '^#' "$f"
    echo '```'
    echo
  fi
  section "Paired ratios to the DGEMM peer, p = 2 (issue 11 b)" "$(newest 'results/trust-ratios-*.csv')" "PARTS=b scripts/bench/trust.sh"
  f=$(newest 'results/tuner-lb-*/summary.md')
  if [ -n "$f" ]; then
    echo "### The tuner's lb against PDGEMM itself (issue 11 c)"
    echo
    echo "\`scripts/bench/tuner_lb.sh\` → \`$f\`"
    echo
    echo '```'
    cat "$f"
    echo '```'
    echo
    [ -f docs/figures/pdgemm-vs-lb-n4096.png ] && { echo "![PDGEMM against lb, p = 2, n = 4096](docs/figures/pdgemm-vs-lb-n4096.png)"; echo; }
  fi
  f=$(newest 'results/trust-validate-*-validate.txt')
  if [ -n "$f" ]; then
    echo "### Regret of the model's pick, paired (issue 11 d)"
    echo
    echo "\`PARTS=d scripts/bench/trust.sh\` → \`${f%.txt}.csv\`  "
    echo "Machine: $(machine "${f%-validate.txt}.csv")"
    echo
    echo '```'
    cat "$f"
    echo '```'
    echo
    [ -f docs/figures/regret-validate.png ] && { echo "![Paired regret of the model's pick](docs/figures/regret-validate.png)"; echo; }
  fi
  f=$(newest 'results/preload-lb-*.csv')
  if [ -n "$f" ]; then
    echo "### libmmbench-lb.so in a plain ScaLAPACK program (issue 14)"
    echo
    echo "\`scripts/bench/preload_lb.sh\` → \`$f\` (tests/preload/pdgemm_app, without and with the library, in rounds)  "
    echo "Machine: $(machine "$f")"
    echo
    python3 - "$f" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {}
for r in rows:
    by.setdefault(int(r["round"]), {})[r["variant"]] = r
ratios = [float(v["without"]["t_median_s"]) / float(v["with"]["t_median_s"]) for v in by.values() if len(v) == 2]
w = [float(r["gflops"]) for r in rows if r["variant"] == "with"]
wo = [float(r["gflops"]) for r in rows if r["variant"] == "without"]
r0 = rows[0]
lb_with = next(r["lb"] for r in rows if r["variant"] == "with")
# Files with a position column alternate the order per round; older ones
# always ran "without" first.
order = ("order alternated per round (odd rounds without first)" if "position" in r0
         else "\"without\" always ran first (file from before the order alternated)")
print(f"p = {r0['p']}, n = {r0['n']}, nb = {r0['nb']}: without (lb 32) median {statistics.median(wo):.1f} GFLOP/s, "
      f"with (lb {lb_with}) {statistics.median(w):.1f} GFLOP/s; speed-up per round (same round's pair) "
      f"median {statistics.median(ratios):.3f}, min {min(ratios):.3f}, max {max(ratios):.3f} over {len(ratios)} rounds; "
      f"{order}; every result checked by the program.")
PY
    echo
  fi
  section "Foundation sweep (p = 2)" "$(newest 'results/foundation-*.csv')" "scripts/bench/foundation.sh"
  # Issue 15: the local kernel against the same rounds' DGEMM, L = 0..4,
  # 1 and 2 threads (the newest file for each OpenBLAS core that ran it: the
  # VM pins Haswell's kernels by OPENBLAS_CORETYPE, and the gain depends on
  # how fast DGEMM is), then the paired comparisons of its schedules (the
  # two newest files).
  while IFS=$'\t' read -r f core; do
    [ -n "$f" ] || continue
    echo "### Local Strassen–Winograd kernel vs DGEMM, one rank (issue 15): $core"
    echo
    echo "\`scripts/bench/local_kernel.sh\` → \`$f\`  "
    echo "Machine: $(machine "$f")"
    echo
    echo "Ratio: median over interleaved rounds of t(DGEMM) / t(L) in the same round, with its order-statistics interval and the coverage that interval has at the row's rounds (3 rounds: [min, max], 75 %); ~ = noisy row (cv above 5 %); effective GFLOP/s count 2n³; \"of ideal\" = ratio / (8/7)^L (goal ≥ 90 %)."
    echo
    python3 scripts/local_kernel_summary.py "$f"
    echo
  done < <(newest_per_blas 'results/local-kernel-*.csv')
  if [ -n "$(newest 'results/local-kernel-*.csv')" ]; then
    for s in $(newest 'results/local-kernel-schedules-*.txt' 2); do
      echo "Schedules, paired in one process (\`build/bench/fast_gemm_schedules\`, \`$s\`): \`plain\` = the two-temporary schedule on every level, \`accumulate\` = the deepest level accumulates through DGEMM's beta, \`fused-deepest\` / \`fused-all\` = besides, the eight operand sums of a level in two fused passes at the deepest / every level (\`fused-all\` is the default since 2026-11-23; older files lack the fused rows); leaf_s / add_s = seconds per multiply in DGEMM leaves / addition passes."
      echo
      echo '```'
      cat "$s"
      echo '```'
      echo
    done
  fi
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
  echo "MFLOPS per core use the classical 2mnk count. \"vs DGEMM peer\" is t(peer) / t(row) for one"
  echo "rank running OpenBLAS DGEMM with all the job's cores, formed per round of the same run (median"
  echo "and order-statistics interval, with the coverage it has at that row's rounds: 3 rounds give [min, max],"
  echo "75 %; 6 or more at least 95 %); rows flagged noisy (cv above 5 %) say so in the noisy column. CSVs"
  echo "from before 2026-11-23 have no interval and an inflated peer, see"
  echo "\"What changed\"). Ranks beyond the core count are oversubscribed and never used for these figures."
  echo "This VM is noisy (single runs differed by up to 1.9x): read the intervals, not single rows."
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
