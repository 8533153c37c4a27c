#!/usr/bin/env python3
"""The L2's hot-spot rate for a GPU file, from ws_microbench_l2_hotspot recorded with counters and the cache group.

    scripts/hot-slice-rate.py [--warpsim BIN] --slices N merged.wstrace
    scripts/hot-slice-rate.py [--warpsim BIN] --check GPU.textproto merged.wstrace

With --check the slice count comes from the GPU file, and the script fails unless the file's
memory.l2_hot_slice_sectors_per_cycle is what the recording gives (to its three decimals): a test keeps the shipped
files and traces in step.

Shipped recordings: workloads/microbench_l2_hotspot/traces/<gpu>/microbench_l2_hotspot.merged.wstrace (timeline,
counters and cache, merged). N is the GPU's L2 slice count, lts__t_sectors.sum / lts__t_sectors.avg under ncu
(workloads/microbench_l2_hotspot/ncu-*.txt: 80 on H100, 94 on H200).

When many warps store to one word, every store goes to the slice that holds it and they serialise there. For each
pattern of the microbenchmark it prints the busiest slice's sectors beyond the mean slice's (lts__t_sectors.max less
lts__t_bytes / 32 / N: what the hot spot added) per SM clock of the kernel's CUPTI duration, median over launches.
The GPU file's memory.l2_hot_slice_sectors_per_cycle is `same_word_u32`'s (the other hot patterns for comparison;
`spread_once` and `spread` have no hot spot, their excess is the slices' imbalance).
"""
import argparse
import collections
import json
import pathlib
import re
import statistics
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
# The store kernel's template argument (workloads/microbench_l2_hotspot: enum Pattern, in its order).
PATTERNS = ["same_word_u32", "same_word_u8", "same_line", "spread_once", "spread"]
STORE_KERNEL = re.compile(r"5storeILNS_7PatternE(\d)EEE")
SECTOR_BYTES = 32


def run_json(warpsim, *args):
    return subprocess.run([warpsim, *args], check=True, capture_output=True, text=True).stdout


def hot_rates(warpsim, trace, slices):
    """pattern -> the busiest slice's sectors beyond the mean slice's per SM clock, one value per launch."""
    clock = json.loads(run_json(warpsim, "inspect", trace, "--json"))["devices"][0]["sm_clock_khz"] * 1e3
    rates = collections.defaultdict(list)
    for line in run_json(warpsim, "inspect", trace, "--events").splitlines():
        kernel = json.loads(line).get("kernel")
        match = STORE_KERNEL.search(kernel["name"]) if kernel else None
        memory = kernel.get("counters", {}).get("memory", {}) if match else {}
        if "l2_sectors_busiest_slice" not in memory:
            continue
        beyond = int(memory["l2_sectors_busiest_slice"]) - int(memory.get("l2_bytes", 0)) / SECTOR_BYTES / slices
        cycles = (int(kernel["end_ns"]) - int(kernel["start_ns"])) * 1e-9 * clock
        rates[PATTERNS[int(match.group(1))]].append(beyond / cycles)
    return rates


def gpu_file_value(path, field):
    """A scalar field of a GPU file (text format, one field a line), as written."""
    match = re.search(rf"^\s*{field}:\s*([0-9.eE+-]+)", pathlib.Path(path).read_text(), re.M)
    if not match:
        raise SystemExit(f"{path}: no {field}")
    return float(match.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trace", help="ws_microbench_l2_hotspot recorded (timeline, counters, cache), merged")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--slices", type=int, help="the GPU's L2 slices")
    source.add_argument("--check", metavar="GPU_FILE", help="take the slices from this GPU file and check its rate")
    parser.add_argument("--warpsim", default=str(ROOT / "build/sim/warpsim"))
    args = parser.parse_args()
    slices = int(gpu_file_value(args.check, "l2_slices")) if args.check else args.slices
    if slices <= 0:
        raise SystemExit(f"L2 slices {slices}: must be positive")
    rates = hot_rates(args.warpsim, args.trace, slices)
    if "same_word_u32" not in rates:
        raise SystemExit(f"{args.trace}: no same_word_u32 launch with the busiest slice's sectors "
                         "(ws_microbench_l2_hotspot recorded with the cache group?)")
    for pattern in PATTERNS:
        if pattern in rates:
            print(f"{pattern:16s} {statistics.median(rates[pattern]):.3f} sectors per SM clock beyond the mean slice "
                  f"({len(rates[pattern])} launches: {min(rates[pattern]):.3f}-{max(rates[pattern]):.3f})")
    derived = round(statistics.median(rates["same_word_u32"]), 3)
    print(f"  l2_slices: {slices}  l2_hot_slice_sectors_per_cycle: {derived:.3f}")
    if args.check:
        written = gpu_file_value(args.check, "l2_hot_slice_sectors_per_cycle")
        if abs(written - derived) > 5e-4:
            raise SystemExit(f"{args.check}: l2_hot_slice_sectors_per_cycle {written} but {args.trace} gives {derived:.3f}")
        print(f"{args.check}: l2_hot_slice_sectors_per_cycle {written} matches")


if __name__ == "__main__":
    main()
