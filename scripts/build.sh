#!/usr/bin/env bash
# Installs what is missing, configures build/ and builds the given targets (all by default).
#   scripts/build.sh [TARGET...]
# Extra CMake options can come through WARPSIM_CMAKE_ARGS, e.g. WARPSIM_CMAKE_ARGS="-DWARPSIM_WITH_SIMGRID=OFF".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/install-deps.sh
mkdir -p build
# shellcheck disable=SC2086  # WARPSIM_CMAKE_ARGS is a list of options
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPSIM_WERROR=ON ${WARPSIM_CMAKE_ARGS:-} >build/configure.log \
  || { cat build/configure.log; exit 1; }
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build build "${targets[@]}"
