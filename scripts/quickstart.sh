#!/usr/bin/env bash
# The main job on the traces shipped with warpsim. Until the simulator lands (issue 4) this builds warpsim and
# inspects shipped traces: the synthetic sample, the same cut short as a killed recording leaves it, and two real
# recordings (an H100 matrix multiplication with its counters merged in; a stencil on two NVLink-linked H200).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/build.sh warpsim
for trace in tests/data/sample.wstrace tests/data/sample-truncated.wstrace \
  workloads/traces/H100-80GB-HBM3/matmul.merged.wstrace workloads/traces/2xH200/stencil3d_gpusm_z_r4.merged.wstrace; do
  echo "\$ warpsim inspect $trace"
  build/sim/warpsim inspect "$trace"
  echo
done
