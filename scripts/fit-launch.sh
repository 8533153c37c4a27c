#!/usr/bin/env bash
# Fits the wave model's launch regression (paper 001: t = x0 + grid blocks * x1 per block size) on the shipped launch
# microbenchmark traces and prints the launch_fits lines of each GPU file, with the comment the file carries.
#   scripts/fit-launch.sh [BUILD_DIR]     (default: build; builds the fit_launch tool there)
# The fit itself is tests/tools/fit_launch.cc on sim/models/wave/launch_fit.h (median of each configuration's
# launches, then ordinary least squares over the grid sizes, one line per block size).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${1:-build}
[ -f "$build/build.ninja" ] || scripts/build.sh fit_launch >/dev/null
cmake --build "$build" --target fit_launch >/dev/null
tool=$build/tests/sim/models/wave/fit_launch
day=$(date -u +%F)
for pair in H100-SXM5-80GB:H100-80GB-HBM3 H200-SXM-141GB:H200; do
  gpu=${pair%%:*} trace=workloads/traces/${pair#*:}/microbench_launch.timeline.wstrace
  echo "# platforms/gpus/$gpu.textproto"
  echo "# MEASURED: fitted by scripts/fit-launch.sh (tests/tools/fit_launch.cc) on $day from"
  echo "# $trace (empty_kernel): median of each"
  echo "# (block, grid) configuration's launches, ordinary least squares over its grid sizes; rms residual over every launch."
  "$tool" "$trace"
  echo
done
