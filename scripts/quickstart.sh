#!/usr/bin/env bash
# The main job on the traces shipped with warpsim. Until the simulator lands (issue 4) this builds warpsim and
# inspects the shipped sample traces: a complete one, and one cut short as a killed recording leaves it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/build.sh warpsim
for trace in tests/data/sample.wstrace tests/data/sample-truncated.wstrace; do
  echo "\$ warpsim inspect $trace"
  build/sim/warpsim inspect "$trace"
  echo
done
