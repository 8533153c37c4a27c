#!/usr/bin/env bash
# For every TRACES/<gpu>/<name>.timeline.wstrace that has counters-mode siblings (<name>.counters.wstrace,
# <name>.links.wstrace, <name>.tensor.wstrace, <name>.cache.wstrace) or a traffic-mode sibling (<name>.traffic.wstrace),
# writes <name>.merged.wstrace: real times and concurrency with per-kernel counters and traffic profiles, what the
# simulator reads. Run after scripts/build.sh.
#   scripts/merge-traces.sh [TRACES]   (default workloads/traces; the suite's: workloads/suite/traces)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
traces=${1:-workloads/traces}
case "$traces" in /*) cd "$traces" ;; *) cd "$root/$traces" ;; esac
for timeline in */*.timeline.wstrace; do
  base=${timeline%.timeline.wstrace}
  counters=()
  # cache last: its one-pass L2 and DRAM counts replace core's replayed ones (tracer/counters/counter_metrics.h).
  for group in counters links tensor cache traffic; do [ -f "$base.$group.wstrace" ] && counters+=("$base.$group.wstrace"); done
  [ ${#counters[@]} -gt 0 ] || continue
  "$root/build/sim/warpsim" merge "$timeline" "${counters[@]}" -o "$base.merged.wstrace"
done
