#!/usr/bin/env python3
"""Whole-program timelines: how long the simulated run is next to the recorded one, per re-recorded trace.

For every timeline trace with API calls (workloads/traces/<gpu>/<name>.timeline.wstrace, and its
<name>.merged.wstrace for the model), on the recording GPU's node:
  reuse: `simulate --reuse-kernel-times` (kernels keep their recorded durations, NOT predictive): span error, and
         how many copies and memsets land within 10% of their recorded duration;
  model: `simulate` with the default model on the merged trace: span error next to the kernel-sum error.
Prints a Markdown table. Usage: scripts/span-table.py [WARPSIM_BINARY] [--gpu FOLDER ...]  (default build/sim/warpsim;
--gpu keeps only those folders of workloads/traces, in the order given; default all of NODES)
"""
import argparse
import json
import pathlib
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
NODES = {"H100-80GB-HBM3": "h100-pcie", "H200": "h200", "2xH100-80GB-HBM3": "2xh100-nvlink",
         "2xH200": "2xh200-nvlink", "4xH100-80GB-HBM3": "4xh100-nvswitch", "4xH200": "4xh200-nvswitch"}
PARSER = argparse.ArgumentParser()
PARSER.add_argument("warpsim", nargs="?", default=str(ROOT / "build/sim/warpsim"))
PARSER.add_argument("--gpu", action="append", choices=list(NODES), help="a folder of workloads/traces (repeatable)")
ARGS = PARSER.parse_args()
WARPSIM = ARGS.warpsim


def run(*args):
    return subprocess.run([WARPSIM, *args], check=True, capture_output=True, text=True).stdout


def has_api_calls(trace):
    return json.loads(run("inspect", str(trace), "--json")).get("api_calls", 0) > 0


def transfers(trace):
    """(kind, correlation id, ordinal) -> duration in ns, for every copy and memset."""
    result, seen = {}, {}
    for line in run("inspect", str(trace), "--events").splitlines():
        event = json.loads(line)
        for kind in ("memcpy", "memset"):
            if kind in event:
                op = event[kind]
                key = (kind, int(op.get("correlation_id", 0)))
                seen[key] = seen.get(key, 0) + 1
                result[key + (seen[key],)] = int(op.get("end_ns", 0)) - int(op.get("start_ns", 0))
    return result


def simulate(trace, node, out, *extra):
    run("simulate", str(trace), "--platform", node, "-o", str(out), *extra)
    return json.loads(run("compare", str(trace), str(out), "--json"))


def pct(a, b):
    return (b - a) / a * 100 if a else float("nan")


def row(gpu, timeline, tmp):
    node = NODES[gpu]
    name = timeline.name.removesuffix(".timeline.wstrace")
    reuse_out = tmp / f"{gpu}-{name}.reuse.wstrace"
    reuse = simulate(timeline, node, reuse_out, "--reuse-kernel-times")
    real_ops, sim_ops = transfers(timeline), transfers(reuse_out)
    within = sum(1 for k, d in real_ops.items() if k in sim_ops and abs(sim_ops[k] - d) <= 0.1 * d)
    cells = [name, gpu, f"{reuse['span_ns']['a'] / 1e6:.2f}", f"{reuse['span_error_pct']:+.1f}%",
             f"{within}/{len(real_ops)}"]
    merged = timeline.with_name(f"{name}.merged.wstrace")
    if merged.exists():
        model = simulate(merged, node, tmp / f"{gpu}-{name}.model.wstrace")
        # compare the simulation with the timeline recording (the merged trace has the same times)
        kernel = model["kernel_time_ns"]
        cells += [f"{model['span_error_pct']:+.1f}%", f"{pct(kernel['a'], kernel['b']):+.1f}%"]
    else:
        cells += ["-", "-"]
    return cells


def main():
    print("| workload | GPU | recorded span ms | span error, recorded kernel times | copies+memsets within 10% "
          "| span error, default model | kernel-sum error, default model |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for gpu in ARGS.gpu or NODES:
            for timeline in sorted((ROOT / "workloads/traces" / gpu).glob("*.timeline.wstrace")):
                if has_api_calls(timeline):
                    print("| " + " | ".join(row(gpu, timeline, pathlib.Path(tmp))) + " |", flush=True)


if __name__ == "__main__":
    main()
