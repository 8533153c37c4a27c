#!/usr/bin/env bash
# Builds what runs on a GPU machine (CUDA, protobuf and CMake there; no SimGrid, no apt): warpsim without the replay,
# and, once they exist, the tracer and the workloads. Run scripts/gpu-headers.sh on the developer machine first and
# carry `.gpu-deps` with the working tree. Builds into build-gpu/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
include_path=()
[ -d .gpu-deps/include ] && include_path=(-DCMAKE_INCLUDE_PATH="$root/.gpu-deps/include")
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S . -B build-gpu "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPSIM_WITH_SIMGRID=OFF \
  -DWARPSIM_WITH_CUDA=ON -DWARPSIM_BUILD_TESTS=OFF "${include_path[@]}" "$@"
cmake --build build-gpu --parallel "$(nproc)"
