#!/usr/bin/env bash
# Runs on a GPU machine: counts how often each instruction of a program's kernels runs (CUPTI's SASS metrics, through
# workloads/probe_sass_metrics' injection library), one run of the program per kernel function, since CUPTI counts one
# function a process. Writes OUT_DIR/<function>.txt (`count <function> <pc offset> <warp executions>` lines) and
# prints one line per function; `warpsim sass TRACE --cubin ... --counts OUT_DIR` then gives the program's traces the
# executed issue spacing (docs/recording.md). The program must run the same way each time (same input).
#   scripts/record-sass-counts.sh OUT_DIR PROGRAM [ARGS...]
# LIB (default: build-gpu/.../libprobe_sass_count_inject.so, built by scripts/gpu-build.sh) names the library.
set -uo pipefail
out=${1:?usage: record-sass-counts.sh OUT_DIR PROGRAM [ARGS...]}
shift
[ $# -gt 0 ] || { echo "usage: record-sass-counts.sh OUT_DIR PROGRAM [ARGS...]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
lib=${LIB:-$root/build-gpu/workloads/probe_sass_metrics/libprobe_sass_count_inject.so}
[ -f "$lib" ] || { echo "record-sass-counts: no injection library at $lib (scripts/gpu-build.sh builds it)" >&2; exit 1; }
mkdir -p "$out"
kernels=$(PROBE_SASS_LIST=1 CUDA_INJECTION64_PATH=$lib "$@" 2>&1 >/dev/null </dev/null | awk '/^launch /{print $2}')
[ -n "$kernels" ] || { echo "record-sass-counts: the program launched no kernel" >&2; exit 1; }
failed=0
for kernel in $kernels; do
  start=$SECONDS
  if PROBE_SASS_COUNTS="$out/$kernel.txt.partial" PROBE_SASS_FUNCTION=$kernel CUDA_INJECTION64_PATH=$lib "$@" \
      >/dev/null 2>&1 </dev/null && [ -s "$out/$kernel.txt.partial" ]; then
    mv "$out/$kernel.txt.partial" "$out/$kernel.txt"
    echo "$kernel: $(wc -l <"$out/$kernel.txt") instructions counted in $((SECONDS - start)) s"
  else
    rm -f "$out/$kernel.txt.partial"
    echo "$kernel: not counted (the program failed, or the kernel ran no instruction)" >&2
    failed=1
  fi
done
exit $failed
