#!/usr/bin/env python3
"""Compares the counters of a warpsim counters-mode trace with ncu's for the same program.

  compare-ncu.py EVENTS.jsonl NCU.csv [--markdown]

EVENTS.jsonl: `warpsim inspect --events TRACE`. NCU.csv: the stdout of `ncu --clock-control none --csv --metrics ...
PROGRAM` (non-CSV lines are skipped). Kernels are matched by launch order (trace: by correlation id; ncu: by ID) and
their names checked. Prints, per kernel and metric, both values and the relative difference, then the largest.
"""
import csv
import json
import sys

# ncu metric -> path in the trace's KernelCounters (proto field names).
METRICS = {
    "smsp__inst_executed.sum": ("warp_instructions", "total"),
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": ("thread_instructions", "ffma"),
    "smsp__sass_thread_inst_executed_op_integer_pred_on.sum": ("thread_instructions", "integer"),
    "smsp__sass_inst_executed_op_global_ld.sum": ("warp_instructions", "global_ld"),
    "smsp__sass_inst_executed_op_shared_ld.sum": ("warp_instructions", "shared_ld"),
    "l1tex__t_bytes.sum": ("memory", "l1_bytes"),
    "lts__t_bytes.sum": ("memory", "l2_bytes"),
    "dram__bytes_read.sum": ("memory", "dram_read_bytes"),
    "dram__bytes_write.sum": ("memory", "dram_write_bytes"),
    "sm__warps_active.avg.pct_of_peak_sustained_active": ("achieved_occupancy_pct",),
    "sm__ctas_launched.sum": ("ctas_launched",),
}
UNITS = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "Tbyte": 1e12}


def trace_kernels(path):
    kernels = [json.loads(line)["kernel"] for line in open(path) if line.startswith('{"kernel"')]
    return sorted((k for k in kernels if "counters" in k), key=lambda k: k["correlation_id"])


def ncu_kernels(path):
    rows = csv.reader(line for line in open(path) if line.startswith('"'))
    header = next(rows)
    col = {name: i for i, name in enumerate(header)}
    kernels = {}
    for row in rows:
        kernel = kernels.setdefault(int(row[col["ID"]]), {"name": row[col["Kernel Name"]], "metrics": {}})
        value = float(row[col["Metric Value"]].replace(",", "")) * UNITS.get(row[col["Metric Unit"]], 1)
        kernel["metrics"][row[col["Metric Name"]]] = value
    return [kernels[i] for i in sorted(kernels)]


def lookup(counters, path):
    for key in path:
        counters = counters.get(key, {}) if isinstance(counters, dict) else {}
    return counters if isinstance(counters, (int, float)) else None


def main():
    ours, theirs = trace_kernels(sys.argv[1]), ncu_kernels(sys.argv[2])
    if len(ours) != len(theirs):
        sys.exit(f"{len(ours)} kernels with counters in the trace, {len(theirs)} in ncu's output")
    worst = (0.0, "")
    for index, (k, n) in enumerate(zip(ours, theirs)):
        short = n["name"].split("(")[0].split("::")[-1]
        if short not in k["name"]:
            sys.exit(f"kernel {index}: trace {k['name']} vs ncu {n['name']}")
        for metric, path in METRICS.items():
            mine, ref = lookup(k["counters"], path), n["metrics"].get(metric)
            if mine is None or ref is None:
                continue
            diff = abs(mine - ref) / ref if ref else (0.0 if mine == 0 else float("inf"))
            print(f"{index:4d} {short:32.32s} {metric:52s} {mine:16.6g} {ref:16.6g} {100 * diff:7.3f}%")
            worst = max(worst, (diff, f"{short} {metric}"))
    print(f"largest difference: {100 * worst[0]:.3f}% ({worst[1]}) over {len(ours)} kernels")


if __name__ == "__main__":
    main()
