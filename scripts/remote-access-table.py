#!/usr/bin/env python3
"""Per-point table of the remote-access sweeps (workloads/remote_access): measured against simulated kernel time.

For each sweep recording (the host-memory sweeps remote_access_host_sweep/_occ50/_occ12 on one GPU, the peer sweep
remote_access_sweep on two), the merged trace is simulated on the recording GPU's node (default model unless --model)
and compared with the timeline trace launch by launch. Each launch gets its label (p, batch|spread, F) from the
workload's `timing` lines in <name>.timeline.log (the tracer's own lines may cut a label: a sweep runs 5 launches per
configuration, so a launch takes the label of its group of 5). Per point: the median of the 5 launches, measured
(CUPTI) and simulated, and the error of the simulated median. Per recording: points within 15%, mean absolute error,
worst point.

    scripts/remote-access-table.py [GPU_FOLDER ...] [--model NAME] [--warpsim BIN]
GPU_FOLDER: folders of workloads/traces (default: all four of NODES). Prints Markdown; the first line names the
traces' commit, the platforms used (WARPSIM_PLATFORMS, else the checkout's platforms/) and the binary.
"""
import argparse
import json
import os
import pathlib
import re
import statistics
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
NODES = {"H100-80GB-HBM3": "h100-pcie", "H200": "h200", "2xH100-80GB-HBM3": "2xh100-nvlink",
         "2xH200": "2xh200-nvlink"}
HOST_SWEEPS = ["remote_access_host_sweep", "remote_access_host_occ50", "remote_access_host_occ12",
               # remote blocks write (--direction write)
               "remote_access_host_write", "remote_access_host_write_occ50", "remote_access_host_write_occ12"]
WORKLOADS = {"H100-80GB-HBM3": HOST_SWEEPS, "H200": HOST_SWEEPS, "2xH100-80GB-HBM3": ["remote_access_sweep"],
             "2xH200": ["remote_access_sweep"]}
KERNEL = re.compile(r"remote_(read|write)_kernel")
LABEL = re.compile(r"remote_(?:read|write)_kernel\[p=(\d+),(batch|spread),f=(\d+)[^\]]*\] (\d+) \d+\.\d+$", re.M)
OCCUPANCY = re.compile(r"# occupancy: .* (\d+) of (\d+) warps")
LAUNCHES_PER_POINT = 5


def run(warpsim, *args):
    return subprocess.run([warpsim, *map(str, args)], check=True, capture_output=True, text=True).stdout


def labels(log):
    """(occupancy %, {group: (p, pattern, F)}) from the workload's output."""
    text = log.read_text(errors="replace")
    warps, total = map(int, OCCUPANCY.search(text).groups())
    groups = {}
    for p, pattern, flops, index in LABEL.findall(text):
        key = (int(p), pattern, int(flops))
        group = int(index) // LAUNCHES_PER_POINT
        if groups.setdefault(group, key) != key:
            raise SystemExit(f"{log}: launch {index} is {key}, its group {groups[group]}")
    return 100.0 * warps / total, groups


def points(args, gpu, name, tmp):
    """{(p, pattern, F): (measured ns, simulated ns)} medians, and the model's name."""
    folder = ROOT / "workloads/traces" / gpu
    occupancy, groups = labels(folder / f"{name}.timeline.log")
    sim = tmp / f"{gpu}-{name}.sim.wstrace"
    extra = ["--model", args.model] if args.model else []
    run(args.warpsim, "simulate", folder / f"{name}.merged.wstrace", "--platform", NODES[gpu], "-o", sim, *extra)
    result = json.loads(run(args.warpsim, "compare", folder / f"{name}.timeline.wstrace", sim, "--json"))
    if result["truncated"]:
        raise SystemExit(f"{gpu}/{name}: compare truncated its kernel list")
    launches = {}
    for kernel in sorted(result["kernels"], key=lambda k: k["index"]):
        if not KERNEL.search(kernel["name"]):
            continue
        key = groups[kernel["index"] // LAUNCHES_PER_POINT]
        launches.setdefault(key, []).append((kernel["a_ns"], kernel["b_ns"]))
    if any(len(v) != LAUNCHES_PER_POINT for v in launches.values()):
        raise SystemExit(f"{gpu}/{name}: a point without {LAUNCHES_PER_POINT} launches")
    medians = {key: (statistics.median(a for a, _ in v), statistics.median(b for _, b in v))
               for key, v in launches.items()}
    return occupancy, medians, result["b"]["model"]


def err(measured, simulated):
    return (simulated - measured) / measured * 100


def occupancy_label(occupancy, name):
    """The occupancy, and for the write sweep that its remote blocks write."""
    return f"{occupancy:g}%" + (" (writes)" if "_write" in name else "")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("gpus", nargs="*", default=list(WORKLOADS), help="folders of workloads/traces")
    parser.add_argument("--model", default="")
    parser.add_argument("--warpsim", default=str(ROOT / "build/sim/warpsim"))
    args = parser.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    platforms = os.environ.get("WARPSIM_PLATFORMS") or "platforms/ of the checkout"
    if platforms.startswith("platforms/") and subprocess.run(["git", "status", "--porcelain", "platforms"], cwd=ROOT,
                                                             capture_output=True, text=True).stdout:
        platforms += ", modified"
    print(f"Traces at commit {commit.strip()}, platforms from {platforms}, {run(args.warpsim, '--version').strip()}.\n")
    summary = []
    with tempfile.TemporaryDirectory() as tmp:
        for gpu in args.gpus:
            rows, model = [], None
            for name in WORKLOADS[gpu]:
                if not (ROOT / "workloads/traces" / gpu / f"{name}.merged.wstrace").exists():
                    continue
                occupancy, medians, model = points(args, gpu, name, pathlib.Path(tmp))
                rows.append((name, occupancy, medians))
            if not rows:
                continue
            print(f"**{gpu}** (`{NODES[gpu]}`, model {model}): measured / simulated microseconds, error\n")
            pcts = sorted({key[0] for _, _, m in rows for key in m})
            print("| occupancy | pattern | F | " + " | ".join(f"p={p}" for p in pcts) + " |")
            print("|---|---|---|" + "---|" * len(pcts))
            for name, occupancy, medians in rows:
                for pattern in ("batch", "spread"):
                    for flops in sorted({key[2] for key in medians}):
                        cells = []
                        for p in pcts:
                            if (p, pattern, flops) in medians:
                                a, b = medians[(p, pattern, flops)]
                                cells.append(f"{a / 1e3:.0f} / {b / 1e3:.0f} ({err(a, b):+.1f}%)")
                            else:
                                cells.append("-")
                        print(f"| {occupancy_label(occupancy, name)} | {pattern} | {flops} | " + " | ".join(cells) + " |")
                errors = {key: err(a, b) for key, (a, b) in medians.items()}
                worst = max(errors, key=lambda key: abs(errors[key]))
                within = sum(1 for e in errors.values() if abs(e) <= 15)
                mean = statistics.mean(abs(e) for e in errors.values())
                summary.append((gpu, name, occupancy_label(occupancy, name), f"{within}/{len(errors)}", f"{mean:.1f}%",
                                f"p={worst[0]},{worst[1]},f={worst[2]} {errors[worst]:+.1f}%"))
            print()
    print("| GPU | workload | occupancy | points within 15% | mean error | worst point |")
    print("|---|---|---|---|---|---|")
    for row in summary:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
