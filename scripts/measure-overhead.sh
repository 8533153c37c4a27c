#!/usr/bin/env bash
# Runs on a GPU machine after scripts/gpu-build.sh: wall time of a workload with many launches, untraced and traced
# (timeline mode), alternating, RUNS times each; prints every run and the medians and their ratio.
#   scripts/measure-overhead.sh [RUNS] [-- WORKLOAD ARGS...]   (default: 11 runs of 2000 back-to-back empty kernels)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
runs=${1:-11}
shift || true
[ "${1:-}" = "--" ] && shift
if [ $# -eq 0 ]; then
  set -- build-gpu/workloads/microbench_launch/ws_microbench_launch --mode back-to-back --count 2000
fi
tmp=$(mktemp -d)
wall_us() { local s; s=$(date +%s%N); "$@" >/dev/null 2>&1; echo $(( ($(date +%s%N) - s) / 1000 )); }
plain=(); traced=()
"$@" >/dev/null 2>&1  # warm-up: driver and module loading, page cache
for i in $(seq "$runs"); do
  plain+=("$(wall_us "$@")")
  traced+=("$(wall_us build-gpu/sim/warpsim record -o "$tmp/overhead.wstrace" -- "$@")")
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
echo "command: $*"
echo "untraced us: ${plain[*]}"
echo "traced   us: ${traced[*]}"
mp=$(median "${plain[@]}"); mt=$(median "${traced[@]}")
awk -v p="$mp" -v t="$mt" 'BEGIN {printf "median untraced %.1f ms, traced %.1f ms, ratio %.3f\n", p/1000, t/1000, t/p}'
build-gpu/sim/warpsim inspect "$tmp/overhead.wstrace" | sed -n '/^events/,/^kernels/p'
rm -rf "$tmp"
