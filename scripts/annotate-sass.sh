#!/usr/bin/env bash
# Puts the SASS summary that today's tracer records (trace/sass_summary.h), and each kernel's load sharing from its
# PTX (trace/ptx_loads.h; the tracer does not record it), and the executed fields from the workload's instruction
# counts where sass-counts/NAME holds them (workloads/probe_sass_metrics), on traces recorded before one of its
# fields existed: builds each workload's cubin here with nvcc (the compiler is deterministic: same source, nvcc and
# flags give the same code, and `warpsim sass` checks that the fields the trace has agree), annotates every trace of
# the workload in TRACES, then merges again. Needs the CUDA toolkit, not a GPU. Run after scripts/build.sh.
#   scripts/annotate-sass.sh MANIFEST TRACES   e.g. workloads/suite/manifest.txt workloads/suite/traces
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
manifest=${1:?usage: annotate-sass.sh MANIFEST TRACES} traces=${2:?usage: annotate-sass.sh MANIFEST TRACES}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
warpsim=build/sim/warpsim
cubins=$(mktemp -d)
trap 'rm -rf "$cubins"' EXIT

# The sources of a workload's executable ws_X: workloads/suite/*/X.cu, or every .cu of workloads/X/.
sources_of() {
  local stem=${1#ws_}
  compgen -G "workloads/suite/*/$stem.cu" || compgen -G "workloads/$stem/*.cu" || true
}

# One cubin and one PTX file per source, as workloads/CMakeLists.txt builds them (sm_90, C++17, -lineinfo,
# RelWithDebInfo's NDEBUG).
awk '!/^#/ && NF {print $3}' "$manifest" | sort -u | while read -r exe; do
  for source in $(sources_of "$exe"); do echo "$source"; done
done | sort -u | xargs -P "$(nproc)" -I{} sh -c \
  "'$nvcc' -cubin -arch=sm_90 -std=c++17 -lineinfo -DNDEBUG -Iworkloads/common -o '$cubins'/\$(echo {} | tr / _).cubin {} &&
   '$nvcc' -ptx -arch=sm_90 -std=c++17 -DNDEBUG -Iworkloads/common -o '$cubins'/\$(echo {} | tr / _).ptx {}"

while read -r name _ exe _; do
  case "$name" in ''|'#'*) continue ;; esac
  cubin_args=()
  for source in $(sources_of "$exe"); do
    cubin="$cubins/$(echo "$source" | tr / _).cubin"
    grep -qa '\.text\.' "$cubin" && cubin_args+=(--cubin "$cubin" --ptx "${cubin%.cubin}.ptx")  # a host-only source has no kernel code
  done
  [ ${#cubin_args[@]} -gt 0 ] || continue  # every kernel from a library (cuBLAS): nothing to annotate
  # The workload's instruction counts where they were recorded (sass-counts/NAME beside the manifest): the same on
  # every GPU, so each GPU's traces get them.
  counts="$(dirname "$manifest")/sass-counts/$name"
  [ -d "$counts" ] && cubin_args+=(--counts "$counts")
  for trace in "$traces"/*/"$name".{timeline,counters,links,tensor,cache}.wstrace; do
    [ -f "$trace" ] || continue
    "$warpsim" sass "$trace" "${cubin_args[@]}" -o "$trace.annotated"
    mv "$trace.annotated" "$trace"
  done
done < "$manifest"
scripts/merge-traces.sh "$traces" >/dev/null
