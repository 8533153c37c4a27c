#!/usr/bin/env python3
"""The shared-dispatch constants of the wave models (sim/models/wave/warp_time.h) from this microbenchmark's results.

    workloads/microbench_pipes/fit.py [results/results-H100.txt] [results/ncu-H100.csv]

For every loop body: its cycles per sub-partition (the results file's first run), its issue slots (ncu's
smsp__issue_active share of those cycles), LSU, L1 data-stage, ALU and FP64 cycles (their busy shares), its XU cycles
(8 a MUFU) and its FMA-pipe cycles as the models count them from the instructions (FFMA and FADD one cycle, IMAD two,
IMAD.WIDE four). The
model: the p-norm of the issue slots (plus x cycles per IMAD.WIDE), the LSU's and the FMA pipes' cycles, and at least
the L1 data stage's. Prints the mean and extreme errors over a grid of p and x, best first, and the max rule's.
The `imad_wide` bodies without loads are left out: their 64-bit recurrence is latency-bound, not pipe-bound.
"""
import csv
import itertools
import pathlib
import sys

HERE = pathlib.Path(__file__).parent
# A warp instruction's cycles on its pipe, from the H100 platform file's lanes per sub-partition: the ALU (int32,
# 16), FP64 (16) and XU (sfu, 4); the bodies alu, dfma and mufu run at them (2.3, 2.3 and 8.1 cycles).
ALU_CYCLES, FP64_CYCLES, XU_CYCLES = 2, 2, 8
BUSY = {
    "smsp__issue_active.avg.pct_of_peak_sustained_elapsed": "issue",
    "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_elapsed": "lsu",
    "l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed": "l1",
    "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_elapsed": "alu",
    "sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_elapsed": "fp64",
}


def bodies(results_path):
    """name -> (loads, imads, wides, ffmas, fadds, load bytes, alus, dfmas, mufus, cycles), from the first run."""
    found = {}
    for line in open(results_path):
        fields = line.split()
        if fields and fields[0] == "pipes" and fields[1] not in found:
            counts = [int(f) for f in fields[2:-2]]
            found[fields[1]] = tuple(counts + [0] * (9 - len(counts))) + (float(fields[-1]),)
    return found


def busy_shares(ncu_path):
    """(load bytes, loads, imads, wides, ffmas, alus, dfmas, mufus) -> {issue, lsu, l1: busy share}, first launch."""
    shares = {}
    rows = csv.DictReader(line for line in open(ncu_path) if line.startswith('"'))
    for row in rows:
        if row["Metric Name"] not in BUSY or "pipe_mix<" not in row["Kernel Name"]:
            continue
        args = [a.strip() for a in row["Kernel Name"].split("pipe_mix<")[1].split(">")[0].split(",")]
        counts = [int(a) for a in args[1:]]
        key = (8 if args[0] == "float2" else 4,) + tuple(counts + [0] * (7 - len(counts)))
        value = row["Metric Value"]
        if value != "n/a":
            shares.setdefault(key, {}).setdefault(BUSY[row["Metric Name"]], float(value) / 100)
    return shares


def points(results_path, ncu_path):
    shares = busy_shares(ncu_path)
    for name, counts in bodies(results_path).items():
        loads, imads, wides, ffmas, fadds, load_bytes, alus, dfmas, mufus, cycles = counts
        if loads == 0 and wides > 0:
            continue
        busy = shares[(load_bytes, loads, imads, wides, ffmas, alus, dfmas, mufus)]
        fma = ffmas + fadds + 2 * imads + 4 * wides
        # The ALU and FP64 pipes' busy cycles where recorded (the ALU's hold the loop's and addresses' integer
        # work too, as the pipe counters the models read do), else the bodies' own instructions.
        alu = busy["alu"] * cycles if "alu" in busy else ALU_CYCLES * alus
        fp64 = busy["fp64"] * cycles if "fp64" in busy else FP64_CYCLES * dfmas
        others = [alu, fp64, XU_CYCLES * mufus]
        yield name, cycles, wides, {k: busy[k] * cycles for k in ("issue", "lsu", "l1")}, fma, others


def predict(point, p, x, others_share=True):
    _, _, wides, busy, fma, others = point
    dispatch = [busy["issue"] + x * wides, busy["lsu"], fma] + (others if others_share else [])
    shared = max(dispatch) if p is None else sum(d**p for d in dispatch) ** (1 / p)
    return max([shared, busy["l1"]] + others)


def summary(pts, p, x, others_share=True):
    errors = [predict(pt, p, x, others_share) / pt[1] - 1 for pt in pts]
    return sum(abs(e) for e in errors) / len(errors), max(errors), min(errors)


def main():
    results = sys.argv[1] if len(sys.argv) > 1 else HERE / "results" / "results-H100.txt"
    ncu = sys.argv[2] if len(sys.argv) > 2 else HERE / "results" / "ncu-H100.csv"
    pts = list(points(results, ncu))
    print(f"{len(pts)} bodies")
    for others_share in (True, False):
        print("ALU, FP64 and XU in the p-norm" if others_share else "ALU, FP64 and XU as maxima of their own")
        grid = [(summary(pts, p, x, others_share), p, x)
                for p, x in itertools.product([3, 3.5, 4, 4.5, 5, 6, 8], [0, 1, 1.5, 2, 2.5, 3])]
        grid.sort()
        for (mean, high, low), p, x in grid[:4]:
            print(f"  p {p:<4} x {x:<4} mean |error| {mean * 100:4.1f}%  largest {high * 100:+5.1f}%  "
                  f"{low * 100:+5.1f}%")
    mean, high, low = summary(pts, None, 0)
    print(f"max rule        mean |error| {mean * 100:4.1f}%  largest {high * 100:+5.1f}%  {low * 100:+5.1f}%")


if __name__ == "__main__":
    main()
