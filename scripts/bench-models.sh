#!/usr/bin/env bash
# SM-model speed (Google Benchmark, tests/bench/petri_bench.cc): the Petri-net engine's firing rate (target >= 10
# million transitions per second) and the time `petri` needs for a kernel of 65,536 blocks (target < 1 s).
#   scripts/bench-models.sh [GOOGLE-BENCHMARK FLAGS...]     (default: 5 repetitions, medians only)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/build.sh petri_bench >/dev/null
if [ $# -eq 0 ]; then set -- --benchmark_repetitions=5 --benchmark_report_aggregates_only=true; fi
build/tests/petri_bench "$@" 2>&1 | grep -v '^\*\*\*'
