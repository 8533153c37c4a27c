#!/usr/bin/env python3
"""A GPU file's memory.dram_concurrency grid, from ws_microbench_dram_inflight recorded in timeline mode.

    warpsim record --mode timeline -o t.wstrace -- ws_microbench_dram_inflight
    scripts/dram-concurrency.py [--warpsim BIN] t.wstrace t.log
    scripts/dram-concurrency.py t.wstrace t.log --bandwidth-ratio B --latency-ratio L   # another GPU's, derived
    scripts/dram-concurrency.py --field peer_concurrency p.wstrace p.log   # recorded with --peer 1 (2 GPUs)

Shipped recording: workloads/microbench_dram_inflight/traces/<gpu>/microbench_dram_inflight.timeline.{wstrace,log}.

Each kernel of the microbenchmark streams one 256 MiB array (the log's `floats_per_array`) with W warps on every SM,
each keeping U one-line loads in flight (template argument kInFlight), reading only or copying into a second array
(kCopy). The rate is the array's bytes over the median CUPTI duration of the kernel's launches: one grid point.

A GPU that was not measured can take another's grid under one assumption, stated where it is used: its DRAM is B
times as wide (the streaming read rates' ratio) with L times the unloaded latency (the pointer chases' ratio), and a
load waits as long at the same share of the bandwidth. Then with n loads in flight it reaches B times the measured
GPU's rate at n / (B x L): every row's warps are multiplied by B x L and every rate by B.
"""
import argparse
import collections
import json
import pathlib
import re
import statistics
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
STREAM_KERNEL = re.compile(r"streamILi(\d+)ELb([01])E")


def events(warpsim, trace):
    out = subprocess.run([warpsim, "inspect", trace, "--events"], check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def array_bytes(log):
    for line in pathlib.Path(log).read_text().splitlines():
        fields = line.split()
        if fields[:1] == ["device"] and "floats_per_array" in fields:
            return int(fields[fields.index("floats_per_array") + 1]) * 4
    raise SystemExit(f"{log}: no 'device ... floats_per_array N' line")


def grid_points(warpsim, trace, bytes_per_array):
    """{(copy, warps per SM, loads per warp): read GB/s}."""
    durations = collections.defaultdict(list)
    sms = None
    for event in events(warpsim, trace):
        kernel = event.get("kernel")
        if not kernel:
            continue
        match = STREAM_KERNEL.search(kernel["name"])
        if not match:
            continue
        if sms is None:
            summary = subprocess.run([warpsim, "inspect", trace, "--json"], check=True, capture_output=True,
                                     text=True).stdout
            sms = json.loads(summary)["devices"][0]["sm_count"]
        warps = kernel["grid"]["x"] * kernel["block"]["x"] // 32 // sms
        key = (match.group(2) == "1", warps, int(match.group(1)))
        durations[key].append(kernel["end_ns"] - kernel["start_ns"])
    if not durations:
        raise SystemExit(f"{trace}: no ws_microbench_dram_inflight stream kernels")
    return {key: bytes_per_array / statistics.median(ns) for key, ns in durations.items()}


def textproto(points, field, bandwidth_ratio, latency_ratio):
    warps = sorted({w for _, w, _ in points})
    loads = sorted({u for _, _, u in points})
    lines = [f"  {field} {{", f"    loads_per_warp: [{', '.join(str(u) for u in loads)}]"]
    for w in warps:
        def rates(copy):
            return ", ".join(f"{points[(copy, w, u)] * bandwidth_ratio:.1f}" for u in loads)
        lines.append(f"    rows {{ warps_per_sm: {w * bandwidth_ratio * latency_ratio:.4g} "
                     f"read_gb_per_s: [{rates(False)}] copy_read_gb_per_s: [{rates(True)}] }}")
    lines.append("  }")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trace", help="timeline trace of ws_microbench_dram_inflight")
    parser.add_argument("log", help="the program's output while traced (the log beside the trace)")
    parser.add_argument("--warpsim", default=str(ROOT / "build/sim/warpsim"))
    parser.add_argument("--bandwidth-ratio", type=float, default=1.0, help="B: other GPU's streaming rate / this one's")
    parser.add_argument("--latency-ratio", type=float, default=1.0, help="L: other GPU's DRAM latency / this one's")
    parser.add_argument("--field", default="dram_concurrency", choices=["dram_concurrency", "peer_concurrency"],
                        help="the MemorySpec field to print: peer_concurrency for a --peer 1 recording")
    args = parser.parse_args()
    points = grid_points(args.warpsim, args.trace, array_bytes(args.log))
    print(textproto(points, args.field, args.bandwidth_ratio, args.latency_ratio))


if __name__ == "__main__":
    main()
