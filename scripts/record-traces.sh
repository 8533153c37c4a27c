#!/usr/bin/env bash
# Runs on a GPU machine: builds warpsim, the tracer and the workloads (scripts/gpu-build.sh), then records every
# workload of a manifest (workloads/manifest.txt unless --manifest names another, e.g. workloads/suite/manifest.txt)
# that fits the visible GPUs, in the given modes, into OUT_DIR/<gpu-label>/:
#   <name>.<mode>.wstrace   the trace
#   <name>.<mode>.log       the workload's own output (its event-timed kernel times and its check line)
# and prints one summary line per recording. A failing workload is reported and the others still run.
#   scripts/record-traces.sh [--manifest FILE] [--no-build] OUT_DIR [MODES] [NAME_REGEX]
# MODES: any of "timeline", "counters" (instruction mix and L1/L2/DRAM traffic), "traffic" (PM sampling: when in each
# kernel its remote and DRAM bytes moved), "links" (counters mode, NVLink and PCIe bytes), "tensor" (counters mode,
# tensor-core operations by type), "cache" (counters mode, DRAM bytes and L2 misses in one pass, as the program left
# the L2), e.g. "timeline counters cache".
set -uo pipefail
manifest=workloads/manifest.txt build=1
while [ $# -gt 0 ]; do
  case $1 in
    --manifest) manifest=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    *) break ;;
  esac
done
out=${1:?usage: record-traces.sh [--manifest FILE] [--no-build] OUT_DIR [MODES] [NAME_REGEX]}
modes=${2:-timeline}
filter=${3:-.}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [ "$build" = 1 ]; then scripts/gpu-build.sh >"$out.build.log" 2>&1 || { tail -40 "$out.build.log"; exit 1; }; fi

gpus=$(nvidia-smi --list-gpus | wc -l)
label=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr -cs 'A-Za-z0-9' '-' | sed 's/-$//;s/^NVIDIA-//')
[ "$gpus" -gt 1 ] && label="${gpus}x${label}"
dir="$out/$label"
mkdir -p "$dir"
warpsim=build-gpu/sim/warpsim
status=0
while read -r name need args; do
  case "$name" in ''|'#'*) continue ;; esac
  [[ "$name" =~ $filter ]] || continue
  if [ "$need" -gt "$gpus" ]; then echo "skip     $name (needs $need GPUs)"; continue; fi
  exe=$(set -- $args; echo "$1")
  exe_path=$(find build-gpu/workloads -type f -name "$exe" | head -1)
  for mode in $modes; do
    trace="$dir/$name.$mode.wstrace"
    start=$(date +%s%N)
    # shellcheck disable=SC2086  # the manifest's arguments are words
    case "$mode" in
      links) how=(--mode counters --metrics links) ;;
      tensor) how=(--mode counters --metrics tensor) ;;
      cache) how=(--mode counters --metrics cache) ;;
      *) how=(--mode "$mode") ;;
    esac
    timeout --kill-after=10 "${WARPSIM_RECORD_TIMEOUT:-1800}" $warpsim record "${how[@]}" -o "$trace" -- "$exe_path" ${args#"$exe"} \
      >"$dir/$name.$mode.log" 2>&1
    rc=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    check=$(grep -c '^check .* PASS' "$dir/$name.$mode.log")
    fail=$(grep -c '^check .* FAIL' "$dir/$name.$mode.log")
    printf '%-8s %-36s rc=%-3s checks-pass=%s fail=%s %7sms %s\n' "$mode" "$name" "$rc" "$check" "$fail" "$ms" \
      "$(du -h "$trace" 2>/dev/null | cut -f1)"
    [ "$rc" -eq 0 ] || status=1
  done
done < "$manifest"
exit $status
