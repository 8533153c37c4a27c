#!/usr/bin/env bash
# Prints the Markdown table of workloads/traces/ (workload, GPU, mode, kernels, copies, size, date) from
# `warpsim inspect --json` of every committed trace. Run after scripts/build.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root/workloads/traces"
echo "| workload | GPU | mode | kernels | copies (HtoD/DtoH/DtoD/PtoP) | kernel time | size | recorded |"
echo "|---|---|---|---|---|---|---|---|"
for trace in */*.wstrace; do
  gpu=${trace%%/*}
  base=$(basename "$trace" .wstrace)
  "$root/build/sim/warpsim" inspect --json "$trace" | python3 -c '
import json, sys, datetime
s = json.load(sys.stdin)
name, mode = sys.argv[1].rsplit(".", 1)
c = s["copies"]
copies = "/".join(str(c[k]) for k in ("HtoD", "DtoH", "DtoD", "PtoP"))
day = datetime.datetime.utcfromtimestamp(s["start_time_unix_ns"] / 1e9).strftime("%Y-%m-%d")
ms = s["kernel_time_ns"] / 1e6
kib = int(sys.argv[3]) // 1024
print(f"| {name} | {sys.argv[2]} | {mode} | {s['"'"'kernels'"'"']} | {copies} | {ms:.3f} ms | {kib} KiB | {day} |")' \
    "$base" "$gpu" "$(stat -c %s "$trace")"
done
