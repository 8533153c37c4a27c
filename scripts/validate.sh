#!/usr/bin/env bash
# Simulates the shipped real traces and compares each simulation with a real recording: the accuracy table.
#   scripts/validate.sh [--model NAME[,NAME...]] [--traces DIR] [--programs FILE] [--all] [--keep DIR]
# For every workload recorded with counters (DIR/<gpu>/<workload>.merged.wstrace; DIR is workloads/traces unless
# --traces names another, e.g. workloads/suite/traces; --programs keeps only the names listed in FILE, one a line):
#   same GPU:  simulate on the recording GPU's node, compare with that recording (timeline trace: the real times);
#   cross GPU: simulate the H100 recording on the H200 node and compare with the H200 recording, and back; the same
#   for the two-GPU recordings (2xH100 on 2xh200-nvlink against the 2xH200 recording, and back). The 4xH100
#   recordings run on 4xh100-nvswitch only (no four-H200 recording to compare with).
# One model: a Markdown table per workload, then the mean and median of the per-workload MAPEs. Several models
# (--model roofline,wave or --model all): one summary row per model.
# --all also simulates every other shipped trace (timeline, counters, links) on its own node and on another one.
# Builds warpsim first (scripts/build.sh) unless WARPSIM_NO_BUILD is set; WARPSIM_BIN picks another binary.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
caller=$PWD
# A path given on the command line, relative to where the script was called from (it runs from the repository root).
from_caller() { case $1 in /*) echo "$1" ;; *) echo "$caller/$1" ;; esac; }
cd "$root"
models=wave-blocks all=0 keep="" traces=workloads/traces programs=""
while [ $# -gt 0 ]; do
  case $1 in
    --model) models=$2; shift 2 ;;
    --traces) traces=$(from_caller "$2"); shift 2 ;;
    --programs) programs=$(from_caller "$2"); shift 2 ;;
    --all) all=1; shift ;;
    --keep) keep=$(from_caller "$2"); shift 2 ;;
    *) echo "usage: scripts/validate.sh [--model NAME[,NAME...]|all] [--traces DIR] [--programs FILE] [--all]" \
         "[--keep DIR]" >&2; exit 2 ;;
  esac
done
[ -n "${WARPSIM_NO_BUILD:-}" ] || scripts/build.sh warpsim >/dev/null
warpsim=${WARPSIM_BIN:-build/sim/warpsim}
if [ "$models" = all ]; then
  models=$("$warpsim" models | cut -f1 | paste -sd,)
fi
out=${keep:-$(mktemp -d)}
mkdir -p "$out"
[ -n "$keep" ] || trap 'rm -rf "$out"' EXIT

own_node() {
  case $1 in H100-80GB-HBM3) echo h100-pcie ;; H200) echo h200 ;; 2xH200) echo 2xh200-nvlink ;;
    2xH100-80GB-HBM3) echo 2xh100-nvlink ;; 4xH100-80GB-HBM3) echo 4xh100-nvswitch ;; 4xH200) echo 4xh200-nvswitch ;;
  esac
}
cross_gpu() {
  case $1 in H100-80GB-HBM3) echo H200 ;; H200) echo H100-80GB-HBM3 ;; 2xH200) echo 2xH100-80GB-HBM3 ;;
    2xH100-80GB-HBM3) echo 2xH200 ;; 4xH200) echo 4xH100-80GB-HBM3 ;; 4xH100-80GB-HBM3) echo 4xH200 ;; *) echo "" ;; esac
}
other_node() { own_node "$(cross_gpu "$1")"; }

# simulate TRACE NODE MODEL OUT; the run's output goes to OUT.log
simulate() { "$warpsim" simulate "$1" --platform "$2" --model "$3" -o "$4" "${@:5}" >"$4.log" 2>&1 || { cat "$4.log" >&2; return 1; }; }
# compare REAL SIM -> "MAPE RATIO", or "- -" when they cannot be compared
compare() {
  "$warpsim" compare "$1" "$2" 2>/dev/null |
    awk '/^MAPE/ {m=$2} /^kernel time/ {r=$NF} END {if (m == "") print "- -"; else print m, r}' || echo "- -"
}
# stats VALUES... -> "MEAN MEDIAN COUNT MAX" of percentages
stats() {
  [ $# -eq 0 ] && { echo "- - 0 -"; return; }
  printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1; s+=$1} END {
    printf "%.1f%% %.1f%% %d %.1f%%\n", s/NR, (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2, NR, v[NR]}'
}

# validate_model MODEL VERBOSE: per-workload rows when VERBOSE=1; sets same_mapes and cross_mapes
validate_model() {
  local model=$1 verbose=$2
  same_mapes=() cross_mapes=()
  [ "$verbose" = 1 ] && echo "| workload | GPU | kernels | node | MAPE | sim/real kernel time | cross node | MAPE vs that GPU's recording | sim/real |" &&
    echo "|---|---|---|---|---|---|---|---|---|"
  for merged in "$traces"/*/*.merged.wstrace; do
    local gpu workload real node other cross sim sim_other mape ratio kernels cross_real cross_mape="-" cross_ratio="-"
    gpu=$(basename "$(dirname "$merged")") workload=$(basename "$merged" .merged.wstrace)
    [ -z "$programs" ] || grep -qx "$workload" "$programs" || continue
    real=${merged%.merged.wstrace}.timeline.wstrace
    node=$(own_node "$gpu") other=$(other_node "$gpu") cross=$(cross_gpu "$gpu")
    sim="$out/$model.$gpu.$workload.$node.wstrace" sim_other="$out/$model.$gpu.$workload.$other.wstrace"
    simulate "$merged" "$node" "$model" "$sim"
    [ -z "$other" ] || simulate "$merged" "$other" "$model" "$sim_other"
    read -r mape ratio < <(compare "$real" "$sim")
    kernels=$(awk '/^  kernels/ {gsub(",", "", $2); print $2}' "$sim.log")
    cross_real=$traces/$cross/$workload.timeline.wstrace
    if [ -n "$cross" ] && [ -n "$other" ] && [ -f "$cross_real" ]; then read -r cross_mape cross_ratio < <(compare "$cross_real" "$sim_other"); fi
    [ "$mape" != "-" ] && same_mapes+=("${mape%\%}")
    [ "$cross_mape" != "-" ] && cross_mapes+=("${cross_mape%\%}")
    [ "$verbose" = 1 ] && echo "| $workload | $gpu | $kernels | $node | $mape | $ratio | $other | $cross_mape | $cross_ratio |"
  done
  return 0
}

IFS=, read -r -a model_list <<<"$models"
if [ ${#model_list[@]} -eq 1 ]; then
  validate_model "${model_list[0]}" 1
  read -r same_mean same_median same_n same_max < <(stats "${same_mapes[@]}")
  read -r cross_mean cross_median cross_n cross_max < <(stats "${cross_mapes[@]}")
  echo
  echo "model ${model_list[0]}"
  echo "same GPU  : mean of per-workload MAPE $same_mean, median $same_median over $same_n workloads, max $same_max"
  echo "cross GPU : mean of per-workload MAPE $cross_mean, median $cross_median over $cross_n workloads, max $cross_max"
else
  echo "| model | same GPU: mean MAPE | median | max | workloads | cross GPU: mean MAPE | median | max | workloads |"
  echo "|---|---|---|---|---|---|---|---|---|"
  for model in "${model_list[@]}"; do
    validate_model "$model" 0
    read -r same_mean same_median same_n same_max < <(stats "${same_mapes[@]}")
    read -r cross_mean cross_median cross_n cross_max < <(stats "${cross_mapes[@]}")
    echo "| $model | $same_mean | $same_median | $same_max | $same_n | $cross_mean | $cross_median | $cross_max | $cross_n |"
  done
fi

if [ "$all" = 1 ]; then
  count=0
  for trace in "$traces"/*/*.wstrace; do
    gpu=$(basename "$(dirname "$trace")")
    for node in $(own_node "$gpu") $(other_node "$gpu"); do
      # Timeline-only recordings have no counters: --allow-estimates, for this is a check that every trace runs.
      simulate "$trace" "$node" "${model_list[0]}" "$out/all.wstrace" --allow-estimates && count=$((count + 1))
    done
  done
  echo "every shipped trace: $count simulations ran (each trace on its own node and one other)"
fi
