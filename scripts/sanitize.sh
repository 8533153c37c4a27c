#!/usr/bin/env bash
# Builds the unit tests with AddressSanitizer and UndefinedBehaviorSanitizer (gcc) in build-asan/ and runs them: any
# memory error, leak or undefined behaviour fails the run. The SimGrid replay and `simulate` included (its processes are
# coroutines on the engine's own stack: sim/replay/maestro_process.h).
#   scripts/sanitize.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/install-deps.sh
sanitizers="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPSIM_WITH_SIMGRID=ON \
  -DWARPSIM_WITH_CUDA=OFF -DCMAKE_CXX_FLAGS="$sanitizers" -DCMAKE_EXE_LINKER_FLAGS="$sanitizers" >/dev/null
cmake --build build-asan
cd build-asan
# Left out: TraceLarge measures peak RSS, which ASan's quarantine of freed memory inflates (402 MiB for a 160 MiB
# trace); the golden accuracy and hot-slice scripts simulate every shipped trace (minutes under ASan).
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure --parallel "$(nproc)" -E "golden_accuracy|hot_slice_rate|TraceLarge"
