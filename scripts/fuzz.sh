#!/usr/bin/env bash
# Fuzzes the trace reader (and the inspect summary) with libFuzzer, ASan and UBSan for SECONDS (default 60).
#   scripts/fuzz.sh [SECONDS]
# Builds with clang++-14 in build-fuzz/, seeds the corpus (fuzz-corpus/, kept between runs) from tests/data/, and
# exits non-zero if the fuzzer finds a crash (the input is saved as crash-* in the repository root).
set -euo pipefail
seconds=${1:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/install-deps.sh
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
  -DWARPSIM_FUZZ=ON -DWARPSIM_BUILD_TESTS=OFF -DWARPSIM_WITH_SIMGRID=OFF -DWARPSIM_WITH_CUDA=OFF >/dev/null
cmake --build build-fuzz --target trace_reader_fuzzer
mkdir -p fuzz-corpus
cp -n tests/data/*.wstrace fuzz-corpus/
build-fuzz/tests/fuzz/trace_reader_fuzzer fuzz-corpus -max_total_time="$seconds" -max_len=16384 -timeout=10 \
  -rss_limit_mb=2048 -print_final_stats=1 2>&1 | tail -n 12
