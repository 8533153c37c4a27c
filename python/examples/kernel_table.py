#!/usr/bin/env python3
"""Prints the kernels of a trace, longest total time first: launches, total and mean time per kernel name.

  PYTHONPATH=python:build/python python3 python/examples/kernel_table.py TRACE [--top N]
"""
import argparse
import collections
import sys

import warpsim_trace


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trace")
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args()
    try:
        trace = warpsim_trace.read(args.trace)
    except (OSError, warpsim_trace.TraceError) as error:
        sys.exit(f"error: {error}")
    if trace.truncated:
        print(f"warning: {trace.truncated}", file=sys.stderr)
    totals = collections.defaultdict(lambda: [0, 0])  # name -> [launches, total ns]
    for event in trace.events:
        if event.HasField("kernel"):
            totals[event.kernel.name][0] += 1
            totals[event.kernel.name][1] += event.kernel.end_ns - event.kernel.start_ns
    print(f"{'total ms':>10} {'launches':>9} {'mean us':>10}  kernel")
    for name, (launches, total_ns) in sorted(totals.items(), key=lambda item: -item[1][1])[:args.top]:
        print(f"{total_ns / 1e6:10.3f} {launches:9d} {total_ns / launches / 1e3:10.3f}  {name}")


if __name__ == "__main__":
    main()
