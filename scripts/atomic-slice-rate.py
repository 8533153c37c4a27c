#!/usr/bin/env python3
"""The L2 slice's atomic rate for a GPU file, from ws_microbench_atomics recorded in timeline and counters mode.

    warpsim record --mode timeline -o t.wstrace -- ws_microbench_atomics --repeat 3
    warpsim record --mode counters -o c.wstrace -- ws_microbench_atomics --repeat 3
    scripts/atomic-slice-rate.py [--warpsim BIN] t.wstrace c.wstrace

Shipped recordings: workloads/microbench_atomics/traces/<gpu>/microbench_atomics.{timeline,counters}.wstrace.

A global atomic (ATOM or RED) executes in the L2 slice that holds its address, one sector operation at a time. For
each global pattern of the microbenchmark it prints the busiest slice's atomic sectors (lts__t_sectors_op_{atom,red}
.max, trace fields l2_*_sectors_busiest_slice) per SM clock of the kernel's CUPTI duration, median over launches.
The GPU file's memory.l2_slice_atomics_per_cycle is `same_address.red`: all adds go to one word, so one slice does
all the work by construction, back to back (the other patterns spread over slices, where "busiest" depends on the
address hash, and random_lines waits on DRAM).
"""
import argparse
import collections
import json
import pathlib
import re
import statistics
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
# The kernel's template arguments <pattern, atom> (workloads/microbench_atomics: enum GlobalPattern, in its order).
PATTERNS = ["same_address", "same_line", "lines_64", "lines_4096", "random_lines", "same_address_uniform"]
GLOBAL_KERNEL = re.compile(r"global_atomicsILi(\d)ELb([01])E")


def events(warpsim, trace):
    out = subprocess.run([warpsim, "inspect", trace, "--events"], check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def sm_clock_hz(warpsim, trace):
    summary = subprocess.run([warpsim, "inspect", trace, "--json"], check=True, capture_output=True, text=True).stdout
    return json.loads(summary)["devices"][0]["sm_clock_khz"] * 1e3


def slice_rates(warpsim, trace):
    """'<pattern>.<red|atom>' -> busiest-slice atomic sectors per SM clock, one value per launch."""
    clock = sm_clock_hz(warpsim, trace)
    rates = collections.defaultdict(list)
    for event in events(warpsim, trace):
        kernel = event.get("kernel")
        match = GLOBAL_KERNEL.search(kernel["name"]) if kernel else None
        if not match or "counters" not in kernel:
            continue
        memory = kernel["counters"]["memory"]
        busiest = int(memory.get("l2_red_sectors_busiest_slice", 0)) + int(memory.get("l2_atom_sectors_busiest_slice", 0))
        cycles = (int(kernel["end_ns"]) - int(kernel["start_ns"])) * 1e-9 * clock
        label = f"{PATTERNS[int(match.group(1))]}.{'atom' if match.group(2) == '1' else 'red'}"
        rates[label].append(busiest / cycles)
    return rates


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("timeline", help="ws_microbench_atomics recorded in timeline mode")
    parser.add_argument("counters", help="the same program recorded in counters mode")
    parser.add_argument("--warpsim", default=str(ROOT / "build/sim/warpsim"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        merged = f"{tmp}/merged.wstrace"
        subprocess.run([args.warpsim, "merge", args.timeline, args.counters, "-o", merged], check=True,
                       stdout=subprocess.DEVNULL)
        rates = slice_rates(args.warpsim, merged)
    if "same_address.red" not in rates:
        raise SystemExit(f"{args.counters}: no same_address.red launch with counters (ws_microbench_atomics?)")
    for label in sorted(rates):
        print(f"{label:28s} {statistics.median(rates[label]):.3f} sectors per SM clock on the busiest slice "
              f"({len(rates[label])} launches)")
    print(f"  l2_slice_atomics_per_cycle: {statistics.median(rates['same_address.red']):.3f}")


if __name__ == "__main__":
    main()
