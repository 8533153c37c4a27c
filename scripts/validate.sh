#!/usr/bin/env bash
# Simulates the shipped real traces and compares each simulation with a real recording: the accuracy table.
#   scripts/validate.sh [--model NAME] [--all] [--keep DIR]
# For every workload recorded with counters (workloads/traces/<gpu>/<workload>.merged.wstrace):
#   same GPU:  simulate on the recording GPU's node, compare with that recording (timeline trace: the real times);
#   cross GPU: simulate the H100 recording on the H200 node and compare with the H200 recording, and back.
#   Two-GPU recordings run on 2xh200-nvlink (same) and, as a what-if without a recording to compare, 4xh200-pcie.
# --all also simulates every other shipped trace (timeline, counters, links) on its own node and on another one.
# Builds warpsim first (scripts/build.sh). Prints a Markdown table, then the mean and median MAPE per column.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
model=roofline all=0 keep=""
while [ $# -gt 0 ]; do
  case $1 in
    --model) model=$2; shift 2 ;;
    --all) all=1; shift ;;
    --keep) keep=$2; shift 2 ;;
    *) echo "usage: scripts/validate.sh [--model NAME] [--all] [--keep DIR]" >&2; exit 2 ;;
  esac
done
[ -n "${WARPSIM_NO_BUILD:-}" ] || scripts/build.sh warpsim >/dev/null
warpsim=${WARPSIM_BIN:-build/sim/warpsim}
out=${keep:-$(mktemp -d)}
mkdir -p "$out"
[ -n "$keep" ] || trap 'rm -rf "$out"' EXIT

own_node() { case $1 in H100-80GB-HBM3) echo h100-pcie ;; H200) echo h200 ;; 2xH200) echo 2xh200-nvlink ;; esac; }
cross_gpu() { case $1 in H100-80GB-HBM3) echo H200 ;; H200) echo H100-80GB-HBM3 ;; *) echo "" ;; esac; }
other_node() { case $1 in H100-80GB-HBM3) echo h200 ;; H200) echo h100-pcie ;; 2xH200) echo 4xh200-pcie ;; esac; }

# simulate TRACE NODE OUT -> prints the simulated trace's path; the run's stderr goes to OUT.log
simulate() { "$warpsim" simulate "$1" --platform "$2" --model "$model" -o "$3" >"$3.log" 2>&1 || { cat "$3.log" >&2; return 1; }; }
# compare REAL SIM -> "MAPE RATIO", or "- -" when they cannot be compared
compare() {
  "$warpsim" compare "$1" "$2" 2>/dev/null |
    awk '/^MAPE/ {m=$2} /^kernel time/ {r=$NF} END {if (m == "") print "- -"; else print m, r}' || echo "- -"
}

same_mapes=() cross_mapes=()
echo "| workload | GPU | kernels | node | MAPE | sim/real kernel time | cross node | MAPE vs that GPU's recording | sim/real |"
echo "|---|---|---|---|---|---|---|---|---|"
for merged in workloads/traces/*/*.merged.wstrace; do
  gpu=$(basename "$(dirname "$merged")") workload=$(basename "$merged" .merged.wstrace)
  real=${merged%.merged.wstrace}.timeline.wstrace
  node=$(own_node "$gpu") other=$(other_node "$gpu") cross=$(cross_gpu "$gpu")
  sim="$out/$gpu.$workload.$node.wstrace" sim_other="$out/$gpu.$workload.$other.wstrace"
  simulate "$merged" "$node" "$sim"
  simulate "$merged" "$other" "$sim_other"
  read -r mape ratio < <(compare "$real" "$sim")
  kernels=$(awk '/^  kernels/ {gsub(",", "", $2); print $2}' "$sim.log")
  cross_real=workloads/traces/$cross/$workload.timeline.wstrace
  cross_mape="-" cross_ratio="-"
  if [ -n "$cross" ] && [ -f "$cross_real" ]; then read -r cross_mape cross_ratio < <(compare "$cross_real" "$sim_other"); fi
  [ "$mape" != "-" ] && same_mapes+=("${mape%\%}")
  [ "$cross_mape" != "-" ] && cross_mapes+=("${cross_mape%\%}")
  echo "| $workload | $gpu | $kernels | $node | $mape | $ratio | $other | $cross_mape | $cross_ratio |"
done

summary() {  # LABEL VALUES...
  local label=$1; shift
  [ $# -eq 0 ] && { echo "$label: none"; return; }
  printf '%s\n' "$@" | sort -g | awk -v l="$label" '{v[NR]=$1; s+=$1} END {
    med = (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2
    printf "%s: mean of per-workload MAPE %.1f%%, median %.1f%% over %d workloads\n", l, s/NR, med, NR}'
}
echo
echo "model $model"
summary "same GPU  " "${same_mapes[@]}"
summary "cross GPU " "${cross_mapes[@]}"

if [ "$all" = 1 ]; then
  count=0
  for trace in workloads/traces/*/*.wstrace; do
    gpu=$(basename "$(dirname "$trace")")
    for node in "$(own_node "$gpu")" "$(other_node "$gpu")"; do
      simulate "$trace" "$node" "$out/all.wstrace" && count=$((count + 1))
    done
  done
  echo "every shipped trace: $count simulations ran (each trace on its own node and one other)"
fi
