#!/usr/bin/env python3
"""Where a kernel's warps spend their lives, from `ncu --csv --page raw` output: per kernel (the middle launch of each
name), the cycles per warp of each stall reason (the reason's warps per issue-active cycle x instructions per warp; the
reasons add up to the warp's life), with the six largest printed.

    scripts/ncu-stalls.py FILE.csv ...

The ncu run needs smsp__warps_launched.sum, smsp__inst_executed.sum and the
smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio metrics (workloads/suite/results/ has a recording).
"""
import collections
import csv
import io
import sys

REASONS = ("barrier branch_resolving dispatch_stall drain imc_miss lg_throttle long_scoreboard math_pipe_throttle "
           "membar mio_throttle misc no_instruction not_selected selected short_scoreboard sleeping tex_throttle "
           "wait").split()


def kernels(path):
    """{kernel name: its rows} in launch order, from ncu's CSV (its own log lines skipped)."""
    with open(path, errors="replace") as f:
        rows = list(csv.reader(io.StringIO("".join(line for line in f if line.startswith('"')))))
    header, data = rows[0], rows[2:]  # the second row holds the units
    by_name = collections.OrderedDict()
    for row in data:
        record = dict(zip(header, row))
        by_name.setdefault(record["Kernel Name"], []).append(record)
    return by_name


def number(record, metric):
    text = record.get(metric, "").replace(",", "")
    return float(text) if text else 0.0


def main():
    for path in sys.argv[1:]:
        for name, launches in kernels(path).items():
            r = launches[len(launches) // 2]
            warps = number(r, "smsp__warps_launched.sum")
            per_warp = number(r, "smsp__inst_executed.sum") / warps if warps else 0
            cycles = {reason: number(r, f"smsp__average_warps_issue_stalled_{reason}_per_issue_active.ratio") * per_warp
                      for reason in REASONS}
            print(f"{name[:60]}: {len(launches)} launches, {number(r, 'gpu__time_duration.sum') / 1e3:.1f} us, "
                  f"{warps:.0f} warps of {per_warp:.0f} instructions, life {sum(cycles.values()):.0f} cycles")
            top = sorted(cycles.items(), key=lambda kv: -kv[1])[:6]
            print("    " + "  ".join(f"{reason} {value:.0f}" for reason, value in top))


if __name__ == "__main__":
    main()
