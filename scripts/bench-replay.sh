#!/usr/bin/env bash
# Replay speed and peak memory on a generated trace of OPERATIONS kernels and copies over 2 GPUs and 8 streams
# (issue 15's targets: 1,000,000 in under 5 s and 1 GB, 10,000,000 under 1.5 GB, on the README's 2-core machine). Runs `warpsim simulate` RUNS times; prints each run and the
# median. Each run is a fresh process (SimGrid allows one engine per process) and writes all outputs (-o, --timeline,
# --csv); the time is the whole command's: reading, predicting, replaying, writing.
#   scripts/bench-replay.sh [RUNS] [OPERATIONS] [NODE] [MODEL]   (defaults: 5, 100000, 2xh200-nvlink, the default model)
# MODEL `all`: every model of `warpsim models` in turn, one median line each.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
runs=${1:-5} operations=${2:-100000} node=${3:-2xh200-nvlink} model=${4:-}
scripts/build.sh warpsim make_replay_bench_trace >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build/tests/make_replay_bench_trace "$tmp/bench.wstrace" "$operations"
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
# Runs one model RUNS times (empty: the default model) and prints each run and the medians.
bench_model() {
  local model_option=() times=() memories=() line i
  [ -n "$1" ] && model_option=(--model "$1")
  for i in $(seq "$runs"); do
    line=$(build/sim/warpsim simulate "$tmp/bench.wstrace" --platform "$node" -o "$tmp/sim.wstrace" --timeline "$tmp/timeline.json" --csv "$tmp/kernels.csv" "${model_option[@]}" | grep 'took')
    echo "run $i:$line"
    times+=("$(echo "$line" | awk '{print $2}')")
    memories+=("$(echo "$line" | awk '{print $6}')")
  done
  local time_s memory_mib
  time_s=$(median "${times[@]}") memory_mib=$(median "${memories[@]}")
  echo "median over $runs runs: $time_s s, peak memory $memory_mib MiB ($operations operations, node $node, model ${1:-default}, $(nproc) cores)"
  awk -v ops="$operations" -v s="$time_s" -v mib="$memory_mib" \
    'BEGIN {printf "  %.0f operations/s, %.0f bytes/operation at the peak\n", ops / s, mib * 1048576 / ops}'
}
if [ "$model" = all ]; then
  for m in $(build/sim/warpsim models | cut -f1); do bench_model "$m"; done
else
  bench_model "$model"
fi
