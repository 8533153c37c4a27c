#!/usr/bin/env bash
# The main job on the traces shipped with warpsim: simulate every real recording that has counters on its own GPU's
# node and on the other GPU's, compare each simulation with a real recording, and print the accuracy table
# (scripts/validate.sh), then the summary for every SM model. Before the tables, one full comparison shows what
# `warpsim compare` reports per kernel, and `warpsim report` writes it as a page (build/quickstart-report.html).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/build.sh warpsim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
real=workloads/traces/H100-80GB-HBM3/radix_sort
echo "\$ warpsim simulate $real.merged.wstrace --platform h100-pcie --model wave-blocks -o sim.wstrace --timeline build/quickstart-timeline.json"
build/sim/warpsim simulate "$real.merged.wstrace" --platform h100-pcie --model wave-blocks -o "$tmp/sim.wstrace" \
  --timeline build/quickstart-timeline.json
echo
echo "\$ warpsim compare $real.timeline.wstrace sim.wstrace"
build/sim/warpsim compare "$real.timeline.wstrace" "$tmp/sim.wstrace"
echo
echo "\$ warpsim report $real.timeline.wstrace sim.wstrace -o build/quickstart-report.html   # open it in a browser"
build/sim/warpsim report "$real.timeline.wstrace" "$tmp/sim.wstrace" -o build/quickstart-report.html
echo
echo "\$ scripts/validate.sh --model wave-blocks   # every shipped workload, same GPU and cross GPU"
WARPSIM_NO_BUILD=1 scripts/validate.sh --model wave-blocks
echo
echo "\$ scripts/accuracy-table.py   # every SM model: papers' workloads, suite dev half, suite blind half (~6 min)"
WARPSIM_NO_BUILD=1 scripts/accuracy-table.py
