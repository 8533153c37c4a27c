#!/usr/bin/env bash
# Replay speed and peak memory on a generated trace of OPERATIONS kernels and copies over 2 GPUs and 8 streams
# (issue 15's targets: 1,000,000 in under 5 s and 1 GB, 10,000,000 under 1.5 GB, on the README's 2-core machine). Runs
# `warpsim simulate` RUNS times each way: writing the simulated trace (-o), then every output (-o, --timeline,
# --csv); prints each run and the medians. Each run is a fresh process (SimGrid allows one engine per process); the
# time is the whole command's: reading, predicting, replaying, writing.
#   scripts/bench-replay.sh [RUNS] [OPERATIONS] [NODE] [MODEL]   (defaults: 5, 100000, 2xh200-nvlink, the default model)
# MODEL `all`: every model of `warpsim models` in turn, one median line each way.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
runs=${1:-5} operations=${2:-100000} node=${3:-2xh200-nvlink} model=${4:-}
scripts/build.sh warpsim make_replay_bench_trace >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build/tests/make_replay_bench_trace "$tmp/bench.wstrace" "$operations"
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
# Runs one model RUNS times with the outputs given (empty model: the default) and prints each run and the medians.
bench_model() {
  local model=$1 outputs_name=$2
  shift 2
  local model_option=() times=() memories=() line i
  [ -n "$model" ] && model_option=(--model "$model")
  for i in $(seq "$runs"); do
    line=$(build/sim/warpsim simulate "$tmp/bench.wstrace" --platform "$node" "$@" "${model_option[@]}" | grep 'took')
    echo "run $i ($outputs_name):$line"
    times+=("$(echo "$line" | awk '{print $2}')")
    memories+=("$(echo "$line" | awk '{print $6}')")
  done
  local time_s memory_mib
  time_s=$(median "${times[@]}") memory_mib=$(median "${memories[@]}")
  echo "median over $runs runs, $outputs_name: $time_s s, peak memory $memory_mib MiB ($operations operations, node $node, model ${model:-default}, $(nproc) cores)"
  awk -v ops="$operations" -v s="$time_s" -v mib="$memory_mib" \
    'BEGIN {printf "  %.0f operations/s, %.0f bytes/operation at the peak\n", ops / s, mib * 1048576 / ops}'
}
# Both ways for one model.
bench_outputs() {
  bench_model "$1" "simulated trace" -o "$tmp/sim.wstrace"
  bench_model "$1" "every output" -o "$tmp/sim.wstrace" --timeline "$tmp/timeline.json" --csv "$tmp/kernels.csv"
}
if [ "$model" = all ]; then
  for m in $(build/sim/warpsim models | cut -f1); do bench_outputs "$m"; done
else
  bench_outputs "$model"
fi
