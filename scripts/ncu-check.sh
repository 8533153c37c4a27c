#!/usr/bin/env bash
# Runs on a GPU machine after scripts/gpu-build.sh: records PROGRAM in counters mode and runs it under ncu with the
# metrics scripts/compare-ncu.py knows, then compares them kernel by kernel. Writes NAME.events.jsonl, NAME.ncu.csv
# and NAME.compare.txt into OUTDIR.
#   scripts/ncu-check.sh OUTDIR NAME -- PROGRAM [ARGS...]
# ncu runs with --cache-control none, as the tracer does not flush caches between replay passes (CUPTI 13.0 offers no
# cache control to the range profiler).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
outdir=$1 name=$2
shift 2
[ "${1:-}" = "--" ] && shift
mkdir -p "$outdir"
metrics=$(python3 -c 'import importlib.util,sys
spec = importlib.util.spec_from_file_location("c", sys.argv[1]); m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m); print(",".join(m.METRICS))' "$root/scripts/compare-ncu.py")
"$root/build-gpu/sim/warpsim" record --mode counters -o "$outdir/$name.counters.wstrace" -- "$@" >/dev/null
"$root/build-gpu/sim/warpsim" inspect --events "$outdir/$name.counters.wstrace" >"$outdir/$name.events.jsonl"
rm -f "$outdir/$name.counters.wstrace"
ncu --clock-control none --cache-control none --csv --metrics "$metrics" "$@" >"$outdir/$name.ncu.csv" 2>/dev/null
python3 "$root/scripts/compare-ncu.py" "$outdir/$name.events.jsonl" "$outdir/$name.ncu.csv" >"$outdir/$name.compare.txt"
tail -1 "$outdir/$name.compare.txt"
