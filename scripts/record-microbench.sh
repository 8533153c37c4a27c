#!/usr/bin/env bash
# Runs on a GPU machine: builds what runs there (scripts/gpu-build.sh), then for each named microbenchmark
# (workloads/NAME, executable ws_NAME) runs it twice and records it with `warpsim record` in the timeline, counters
# and cache modes, into OUT_DIR/NAME/:
#   results-<gpu-label>.txt                      both runs' output (their own CUDA-event times and check lines)
#   traces/<gpu-label>/NAME.<mode>.wstrace         the recordings (merge them at home: scripts/merge-traces.sh)
#   traces/<gpu-label>/NAME.<mode>.log             the program's output while recorded
# With --only-gpu REGEX it does nothing (exit 0) unless the GPU's name matches: for a machine kind that may come with
# another GPU than the one a measurement is missing on (an `nvidia-h200` call that gets an H100).
# The device tool returns a limited number of files: pack OUT_DIR (tar) into $OUT.
#   scripts/record-microbench.sh [--only-gpu REGEX] [--no-build] OUT_DIR NAME...   e.g. /tmp/mb microbench_fp16
set -uo pipefail
only_gpu='' build=1
while [ $# -gt 0 ]; do
  case $1 in
    --only-gpu) only_gpu=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    *) break ;;
  esac
done
out=${1:?usage: record-microbench.sh [--only-gpu REGEX] [--no-build] OUT_DIR NAME...}
shift
[ $# -gt 0 ] || { echo "record-microbench: no microbenchmark named" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
if [ -n "$only_gpu" ] && ! [[ "$gpu" =~ $only_gpu ]]; then
  echo "record-microbench: GPU is '$gpu', not /$only_gpu/: nothing to do"
  exit 0
fi
label=$(echo "$gpu" | tr -cs 'A-Za-z0-9' '-' | sed 's/-$//;s/^NVIDIA-//')
mkdir -p "$out"
if [ "$build" = 1 ]; then scripts/gpu-build.sh >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }; fi

warpsim=build-gpu/sim/warpsim
status=0
for name in "$@"; do
  exe=$(find build-gpu/workloads -type f -name "ws_$name" | head -1)
  if [ -z "$exe" ]; then echo "record-microbench: no ws_$name in build-gpu/workloads" >&2; status=1; continue; fi
  dir="$out/$name"
  mkdir -p "$dir/traces/$label"
  for run in 1 2; do "$exe" >>"$dir/results-$label.txt" 2>&1 || status=1; done
  for mode in timeline counters cache; do
    case $mode in
      cache) how=(--mode counters --metrics cache) ;;
      *) how=(--mode "$mode") ;;
    esac
    base="$dir/traces/$label/$name.$mode"
    timeout --kill-after=10 "${WARPSIM_RECORD_TIMEOUT:-600}" "$warpsim" record "${how[@]}" -o "$base.wstrace" -- "$exe" \
      >"$base.log" 2>&1
    rc=$?
    printf '%-8s %-28s rc=%-3s checks-pass=%s\n' "$mode" "$name" "$rc" "$(grep -c '^check .* PASS' "$base.log")"
    [ "$rc" -eq 0 ] || status=1
  done
done
exit $status
