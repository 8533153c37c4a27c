#!/usr/bin/env bash
# Fuzzes with libFuzzer, ASan and UBSan, SECONDS each (default 60): the trace reader (and the inspect summary), the
# platform loader (node files, GPU files and --set assignments; tests/fuzz/platform_fuzzer.cc) and compare (two
# traces and its reports; tests/fuzz/compare_fuzzer.cc).
#   scripts/fuzz.sh [SECONDS]
# Builds with clang++-14 in build-fuzz/, seeds the corpora (fuzz-corpus/, fuzz-corpus-platform/ and
# fuzz-corpus-compare/, kept between runs) from tests/fuzz/corpus/ (the minimized corpora of the 10-minute runs,
# committed), tests/data/ and platforms/, and exits non-zero if a fuzzer finds a crash (the input is saved as crash-*
# in the repository root). To refresh the committed corpora after a long run:
#   build-fuzz/tests/fuzz/NAME_fuzzer -merge=1 tests/fuzz/corpus/NAME fuzz-corpus[-NAME]
set -euo pipefail
seconds=${1:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/install-deps.sh
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
  -DWARPSIM_FUZZ=ON -DWARPSIM_BUILD_TESTS=OFF -DWARPSIM_WITH_SIMGRID=OFF -DWARPSIM_WITH_CUDA=OFF >/dev/null
cmake --build build-fuzz --target trace_reader_fuzzer platform_fuzzer compare_fuzzer
mkdir -p fuzz-corpus fuzz-corpus-platform fuzz-corpus-compare
cp -n tests/fuzz/corpus/trace_reader/* fuzz-corpus/
cp -n tests/fuzz/corpus/platform/* fuzz-corpus-platform/
cp -n tests/fuzz/corpus/compare/* fuzz-corpus-compare/
cp -n tests/data/*.wstrace fuzz-corpus/
# The compare fuzzer cuts its input at "|||" into trace A and trace B (no cut: the input against itself).
cp -n tests/data/sample.wstrace fuzz-corpus-compare/seed-self
{ cat tests/data/sample.wstrace; printf '|||'; cat tests/data/sample-truncated.wstrace; } >fuzz-corpus-compare/seed-pair
# The platform fuzzer's first byte picks what the rest is: 0 a node file, 1 a GPU file (named FUZZ), 2 --set lines.
{ printf '\000'; cat platforms/nodes/2xh100-nvlink.textproto; } >fuzz-corpus-platform/seed-node
{ printf '\001'; sed 's/^name: .*/name: "FUZZ"/' platforms/gpus/H200-SXM-141GB.textproto; } >fuzz-corpus-platform/seed-gpu
printf '\002gpu.sm_count=66\ngpu.memory.dram_bandwidth_gb_per_s=2000\nnode.gpus.pcie.lanes=8\n' >fuzz-corpus-platform/seed-set
build-fuzz/tests/fuzz/trace_reader_fuzzer fuzz-corpus -max_total_time="$seconds" -max_len=16384 -timeout=10 \
  -rss_limit_mb=2048 -print_final_stats=1 2>&1 | tail -n 12
build-fuzz/tests/fuzz/platform_fuzzer fuzz-corpus-platform -max_total_time="$seconds" -max_len=16384 -timeout=10 \
  -rss_limit_mb=2048 -print_final_stats=1 2>&1 | tail -n 12
build-fuzz/tests/fuzz/compare_fuzzer fuzz-corpus-compare -max_total_time="$seconds" -max_len=65536 -timeout=10 \
  -rss_limit_mb=2048 -print_final_stats=1 2>&1 | tail -n 12
