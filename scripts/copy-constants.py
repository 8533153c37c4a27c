#!/usr/bin/env python3
"""Copy and memset constants for a node file, from ws_microbench_copy recorded in timeline mode.

    warpsim record --mode timeline -o sweep.wstrace -- ws_microbench_copy --step 2 --repeat 5
    warpsim record --mode timeline -o fresh.wstrace -- ws_microbench_copy --step 2 --repeat 5 --fresh-pageable 1
    scripts/copy-constants.py [--warpsim BIN] sweep.wstrace [more runs ...] --fresh fresh.wstrace [more runs ...]

Every value is a CUPTI duration (what the GPU reports, the same clock as a recorded program's copies), pooled over
the runs given, by a fixed rule:
  *_fixed_ns                      median duration of the 4-byte operation;
  memset / device_copy rate       bytes over the median duration at the largest size (past L2, so DRAM-bound);
  pageable_first_chunk_*_bytes    the largest size whose pageable median is within 10% of the pinned median there
                                  (below it the driver may take other paths: a 64 KiB copy to the device is slower);
  pageable_copy_to_*_gb_per_s     median over sizes >= 64 MiB of each size's rate (bytes / median duration): past
                                  the CPU's last-level cache, which the repeated copies of a smaller buffer hit.
                                  To the device: from the --fresh runs, where each copy reads pages the CPU has just
                                  written, as a program copies the input it has just made. To the host: from the reused
                                  buffer, whose pages are mapped; into pages never touched, every page faults in the
                                  driver's copy out of the staging buffer (about 1.2 GB/s measured), which programs that
                                  allocate and fill their result buffers do not see.
Prints the textproto lines for the node's host block and the GPU's memory block.
"""
import argparse
import collections
import json
import pathlib
import statistics
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
LARGE = 64 << 20  # past the CPU's last-level cache: a repeated copy of a smaller buffer reads it from there


def durations(warpsim, traces):
    """(operation, bytes) -> median ns; operations: HtoD_pinned, HtoD_pageable, DtoH_pinned, DtoH_pageable, DtoD, memset."""
    found = collections.defaultdict(list)
    for trace in traces:
        events = subprocess.run([warpsim, "inspect", trace, "--events"], check=True, capture_output=True, text=True)
        for line in events.stdout.splitlines():
            event = json.loads(line)
            if "memcpy" in event:
                op = event["memcpy"]
                kind = {"HTOD": "HtoD", "DTOH": "DtoH", "DTOD": "DtoD"}.get(op.get("kind"))
                if kind is None:
                    continue
                host = op.get("src_memory" if kind == "HtoD" else "dst_memory", "")
                if kind != "DtoD":
                    kind += "_pageable" if host == "MEMORY_KIND_PAGEABLE" else "_pinned"
            elif "memset" in event:
                op, kind = event["memset"], "memset"
            else:
                continue
            found[(kind, int(op.get("bytes", 0)))].append(int(op["end_ns"]) - int(op["start_ns"]))
    return {key: statistics.median(values) for key, values in found.items()}


def sizes(medians, kind):
    return sorted(size for k, size in medians if k == kind)


def first_chunk(medians, direction):
    """Largest size at which a pageable copy is within 10% of the pinned one."""
    chunk = 0
    for size in sizes(medians, f"{direction}_pageable"):
        pinned = medians.get((f"{direction}_pinned", size))
        if pinned is not None and abs(medians[(f"{direction}_pageable", size)] - pinned) <= 0.1 * pinned:
            chunk = size
    return chunk


def staging_gb_per_s(medians, direction):
    kind = f"{direction}_pageable"
    return statistics.median(size / medians[(kind, size)] for size in sizes(medians, kind) if size >= LARGE)


def largest_rate(medians, kind):
    size = sizes(medians, kind)[-1]
    return size / medians[(kind, size)], size


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("traces", nargs="+")
    parser.add_argument("--fresh", nargs="+", required=True, help="runs with --fresh-pageable 1")
    parser.add_argument("--warpsim", default=str(ROOT / "build/sim/warpsim"))
    args = parser.parse_args()
    medians = durations(args.warpsim, args.traces)
    fresh = durations(args.warpsim, args.fresh)
    runs = f"{len(args.traces)} + {len(args.fresh)} fresh run(s)"
    source = f"scripts/copy-constants.py, {runs} of ws_microbench_copy --step 2"
    print(f"# host {{ ... }}  ({source})")
    print(f"copy_to_device_fixed_ns: {medians[('HtoD_pinned', 4)]:.0f}")
    print(f"copy_to_host_fixed_ns: {medians[('DtoH_pinned', 4)]:.0f}")
    print(f"memset_fixed_ns: {medians[('memset', 4)]:.0f}")
    print(f"device_copy_fixed_ns: {medians[('DtoD', 4)]:.0f}")
    print(f"pageable_copy_to_device_gb_per_s: {staging_gb_per_s(fresh, 'HtoD'):.2f}")
    print(f"pageable_copy_to_host_gb_per_s: {staging_gb_per_s(medians, 'DtoH'):.2f}")
    print(f"pageable_first_chunk_to_device_bytes: {first_chunk(medians, 'HtoD')}")
    print(f"pageable_first_chunk_to_host_bytes: {first_chunk(medians, 'DtoH')}")
    print("# memory { ... } of the GPU")
    for kind, field in (("memset", "memset_bandwidth_gb_per_s"), ("DtoD", "device_copy_bandwidth_gb_per_s")):
        rate, size = largest_rate(medians, kind)
        print(f"{field}: {rate:.0f}  # at {size >> 20} MiB")


if __name__ == "__main__":
    main()
