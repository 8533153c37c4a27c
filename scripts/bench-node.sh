#!/usr/bin/env bash
# Replay time on a large generated node (scripts/generate-node.py; target: a 1,000-GPU node simulates a small trace in
# under 5 s). Times `warpsim simulate` RUNS times each on two traces: the synthetic two-GPU sample (tests/data) and the
# real two-H200 stencil recording scaled to every GPU of the node (`warpsim scale`). Prints each run and the medians.
#   scripts/bench-node.sh [GPUS] [RUNS]   (defaults: 1000, 3; GPUS even)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
gpus=${1:-1000} runs=${2:-3}
scripts/build.sh warpsim >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
node=$(scripts/generate-node.py "$gpus" "$tmp/platform")
build/sim/warpsim scale tests/data/real/2xh200-stencil3d-dist-z-r4.timeline.wstrace --gpus "$gpus" -o "$tmp/scaled.wstrace" >/dev/null
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
bench_trace() {
  local trace=$1 label=$2 times=() memories=() line i
  for i in $(seq "$runs"); do
    # --allow-estimates: the stencil recording is timeline-only (no counters); speed, not accuracy, is measured here.
    line=$(build/sim/warpsim simulate "$trace" --platform "$node" -o "$tmp/sim.wstrace" --allow-estimates 2>/dev/null | grep 'took')
    echo "$label run $i:$line"
    times+=("$(echo "$line" | awk '{print $2}')")
    memories+=("$(echo "$line" | awk '{print $6}')")
  done
  echo "$label: median $(median "${times[@]}") s, peak memory $(median "${memories[@]}") MiB over $runs runs ($gpus-GPU node, $(nproc) cores)"
}
bench_trace tests/data/sample.wstrace "small trace (2 GPUs, $(build/sim/warpsim inspect --json tests/data/sample.wstrace | grep -o '"events": [0-9]*' | grep -o '[0-9]*') events)"
bench_trace "$tmp/scaled.wstrace" "scaled trace (every GPU)"
