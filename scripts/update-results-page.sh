#!/usr/bin/env bash
# Regenerate the generated parts of docs/results.md from the committed result
# files it cites (never typed by hand):
#   scripts/update-results-page.sh          rewrite docs/results.md
#   scripts/update-results-page.sh --check  exit 1 if the page is out of date
#   scripts/update-results-page.sh --block NAME   print one block
#
# docs/results.md holds blocks
#   <!-- generated:NAME -->
#   ...
#   <!-- /generated:NAME -->
# and this script replaces what lies between each pair with the output of
# the generator NAME below; the text around the blocks (experiment details,
# what a table says) is written by hand. Each generator names its files
# explicitly: to publish a new reference result, commit it under results/,
# point the generator at it, run this script and update the hand-written
# text and results/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
page=docs/results.md

# What the sidecar (<csv>.json) of a run recorded: when, which build, which
# libraries, and every command that wrote rows.
recorded() { python3 scripts/results_page.py recorded "$1"; }

gen_default_sweep() {
  local f=results/default-sweep-vm-20261123T045318Z.csv
  recorded "$f"
  echo
  python3 scripts/summarize.py --markdown "$f"
}

gen_peer_in_job() {
  local a=results/peer-in-2rank-job-vm-20261123T003125Z.csv b=results/peer-alone-vm-20261123T003125Z.csv
  recorded "$a"
  echo
  echo '```'
  python3 scripts/bench/peer_alone.py "$a" "$b"
  echo '```'
}

gen_peer_ratios() {
  local f=results/peer-ratios-p2-vm-20261123T042213Z.csv
  recorded "$f"
  echo
  python3 scripts/summarize.py --markdown "$f"
}

gen_validate() {
  local f=results/validate-p1-p2-vm-20261123T042213Z.csv
  recorded "$f"
  echo
  echo '```'
  cat "${f%.csv}-validate.txt"
  echo '```'
}

gen_tuner_lb() {
  local d=results/tuner-lb-vm-20261123T040540Z
  recorded "$d/pdgemm-lb-sweep-n4096.csv"
  echo
  python3 scripts/tuner_lb_summary.py --sweep "$d/pdgemm-lb-sweep-n4096.csv" "$d"/profile-*.json
}

# DGEMM alone under each OpenBLAS core, launches alternated in one CSV: the
# sidecar's runs say which core each launch ran (matched by start time).
gen_dgemm_core() {
  local f=results/dgemm-openblas-haswell-vs-cooperlake-vm-20261124T0308Z.csv
  recorded "$f"
  echo
  python3 scripts/results_page.py dgemm-cores "$f"
}

local_kernel() {
  recorded "$1"
  echo
  python3 scripts/local_kernel_summary.py "$1"
}
gen_local_cooperlake() { local_kernel results/local-strassen-vs-dgemm-cooperlake-vm-20261124T231011Z.csv; }
gen_local_haswell_1thread() { local_kernel results/local-strassen-vs-dgemm-haswell-1thread-vm-20261124T232808Z.csv; }
gen_local_haswell_2threads() { local_kernel results/local-strassen-vs-dgemm-haswell-2threads-vm-20261124T235720Z.csv; }

gen_preload() {
  local f=results/preload-lb-pdgemm-app-vm-20261123T045217Z.csv
  recorded "$f"
  echo
  python3 scripts/preload_summary.py "$f"
}

gen_simulated_p56() {
  python3 scripts/simulated_tables.py --parts a --heading-level 4 \
    --stamp 20261123T0738Z,20261123T0950Z,20261123T1015Z,20261123T1032Z,20261123T1034Z,20261123T1200Z,20261123T1250Z,20261123T1545Z |
    sed '/^#### part a$/d' | cat -s
}

gen_q7_predicted() {
  python3 scripts/q7_split_compare.py --markdown results/q7-split-predicted-thesis-opteron-vm-20261122T152236Z.csv
}

gen_dispatch_vm() {
  local f=results/dispatch-vm-20261126/dispatch-vm-20261126T153628Z.csv
  recorded "$f"
  echo
  python3 scripts/dispatch_summary.py "$f"
}
gen_dispatch_lu_vm() {
  local f=results/dispatch-vm-20261126/dispatch-vm-20261126T154256Z.csv
  recorded "$f"
  echo
  python3 scripts/dispatch_summary.py "$f"
}

# A scripts/bench/sim_validation.py folder DIR measured on HOST: what its
# real runs recorded, then the script's report minus its own opening line
# (the page says it), after TITLE where one is given.
validation_report() {  # DIR HOST [TITLE]
  recorded "$1/measured-$2.csv"
  echo
  if [ -n "${3:-}" ]; then
    echo "$3"
    echo
  fi
  sed 1,2d "$1/sim-validation-$2.md"
}

gen_sim_validation_vm() {
  local d
  for d in results/sim-validation-vm-20261126 results/sim-validation-vm-8192-20261126; do
    [ -d "$d" ] || continue
    validation_report "$d" vm
    echo
  done
}
gen_sim_validation_vm_slowest() {
  local d=results/sim-validation-vm-slowest-20261126
  validation_report "$d" vm "New rule (slowest rank):"
  echo
  echo "The earlier kernel model, the same real runs (\`$d/old-kernel-model/\`): the summary only."
  echo
  grep '^- ' "$d/old-kernel-model/sim-validation-vm.md"
}
gen_sim_validation_xeon16() {
  validation_report results/sim-validation-xeon16-20261126 xeon16
}

gen_sim_validation_xeon16_p16() {
  validation_report results/sim-validation-xeon16-p16-20261128 xeon16
}
gen_sim_validation_xeon16_busy() {
  validation_report results/sim-validation-xeon16-busy-20261128 xeon16
}
gen_refined_vs_measured_xeon16_busy() {
  cat results/sim-validation-xeon16-busy-20261128/refined-vs-measured.md
}
gen_refined_shape_fit() {
  local d=results/refined-shape-fit-20261128
  echo "| measured set (its own profile) | rows | median \|error\|, nearest point | with the kernel model's shapes | largest, nearest point | with the shapes |"
  echo "|---|---|---|---|---|---|"
  local f
  for f in netns-2x1-1gbit netns-2x2-1gbit vm-20261126 vm-8192-20261126 vm-slowest-20261126 xeon16-20261126 xeon16-p16-20261128; do
    python3 - "$d/$f.md" "$f" <<'PY'
import re, sys
lines = [l for l in open(sys.argv[1]) if l.startswith("- ")]
v = [re.search(r"median \|error\| ([0-9.]+) %, largest ([0-9.]+) % over ([0-9]+) rows", l).groups() for l in lines]
print(f"| [`{sys.argv[2]}`](../results/refined-shape-fit-20261128/{sys.argv[2]}.md) | {v[0][2]} | {v[0][0]} % | {v[1][0]} % | {v[0][1]} % | {v[1][1]} % |")
PY
  done
}
gen_hybrid_layouts() {
  # The table and its two order lines, as scripts/bench/hybrid_vs_measured.py wrote them.
  grep -E '^(\||- )' results/hybrid-layouts-20261129/xeon16-layouts.md
}
gen_xeon16_p16_ladders() {
  local d=results/xeon16-p16-20261128
  recorded "$d/call2/lb-ladder-p16-tune2048.csv"
  local f
  for f in call1/lb-ladder-p16.csv call2/lb-ladder-p16-tune2048.csv call2/lb-ladder-p16-tune4096.csv call3/lb-ladder-p16-tune4096.csv; do
    echo
    echo "\`$f\`:"
    echo
    python3 scripts/bench/lb_ladder_summary.py "$d/$f"
  done
}

gen_xeon16_runs() {
  local d=results/xeon16-device-20261126
  recorded "$d/run-p16.csv"
  echo
  python3 scripts/summarize.py --markdown "$d/run-p16.csv"
  echo
  recorded "$d/run-p4.csv"
  echo
  python3 scripts/summarize.py --markdown "$d/run-p4.csv"
}
gen_xeon16_dispatch() {
  local f=results/xeon16-device-20261126/dispatch-prescott/dispatch-vm-20261126T151420Z.csv
  recorded "$f"
  echo
  python3 scripts/dispatch_summary.py "$f"
}
gen_xeon16_skylakex() {
  local d=results/xeon16-device-20261126
  recorded "$d/run-p16-skylakex.csv"
  echo
  python3 scripts/summarize.py --markdown "$d/run-p16-skylakex.csv"
  echo
  local f=$d/dispatch-skylakex-profile-prescott/dispatch-vm-20261126T151747Z.csv
  recorded "$f"
  echo
  python3 scripts/dispatch_summary.py "$f"
}
gen_xeon16_lu() {
  local f=results/xeon16-device-20261126/lu-prescott/dispatch-vm-20261126T151636Z.csv
  recorded "$f"
  echo
  python3 scripts/dispatch_summary.py "$f"
}

gen_two_level_network() {
  # The report of scripts/two_level_tables.py (its predictions were made by
  # the build of that day), its summary parts; every part: the file itself.
  awk '/^#### Summary per point/ {on = 1} /^#### The network probe/ {on = 0} /^#### Wall time/ {on = 1} on' \
    results/simulated-two-level-network/model-vs-simulation-vm-20261126T1800Z.md | sed 's/^#### /#### /'
}

gen_isoefficiency_thesis() {
  python3 scripts/results_page.py isoefficiency results/isoefficiency-thesis-opteron-20261126/isoefficiency-E0.5.csv \
    results/isoefficiency-thesis-opteron-20261126/isoefficiency-E0.8.csv
}

# One block's text (used below, one process per block).
if [ "${1:-}" = --block ]; then
  fn=gen_${2//-/_}
  declare -F "$fn" >/dev/null || { echo "update-results-page.sh: no generator for block '$2'" >&2; exit 2; }
  "$fn"
  exit 0
fi

# Replace every generated block; a block whose generator is unknown is an
# error (a typo in the page would otherwise leave stale numbers).
new=$(mktemp)
trap 'rm -f "$new"' EXIT
python3 scripts/results_page.py splice "$page" "$new"
if [ "${1:-}" = --check ]; then
  if cmp -s "$new" "$page"; then echo "$page is up to date"; else diff -u "$page" "$new" | head -40; echo "$page is out of date: run $0" >&2; exit 1; fi
else
  cp "$new" "$page"
  echo "$page: generated blocks regenerated"
fi
