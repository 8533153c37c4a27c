#!/usr/bin/env python3
"""Multi-GPU predictions from two-GPU recordings (`warpsim scale`, SPMD pairs), and their check against N-GPU runs.

For every two-GPU workload of workloads/traces/2xH100-80GB-HBM3/ (remote_access_sweep excepted: one GPU reads its
peer, no SPMD program), for N in --gpus (default 4 8) and each N-GPU node of --nodes: the recording scaled to N GPUs
(`warpsim scale --gpus N --host H`, H auto unless --host says otherwise), simulated
  model: the merged trace with the default model (predictive),
  reuse: the timeline trace with --reuse-kernel-times (the 2-GPU run's kernel times: what is left is scaling),
and per simulation the whole-program span, the SPMD span (first start to last end of the kernels GPU 1 runs: the
program's multi-GPU loop) and the kernel time summed over the GPUs. With --measured DIR (a folder of N-GPU timeline traces named
<workload>_<N>gpu.timeline.wstrace, the same programs with the decomposed axis N/2 times longer so that every GPU
keeps the 2-GPU run's share), each row also gets the measured values and the errors. --recordings DIR takes the
two-GPU recordings from another folder (e.g. workloads/traces/2xH200); with --gpus 2 the "scaled" trace is the
recording itself, and a measured trace without the _2gpu suffix (<workload>.timeline.wstrace) is taken as the
2-GPU run: e.g. the 2xH100 recordings predicting the 2xH200 ones, --gpus 2 --nodes 2xh200-nvlink --measured
workloads/traces/2xH200.

    scripts/scaling-table.py [--gpus 4 8] [--nodes 4xh100-nvswitch,8xh100-nvswitch,...] [--host auto|shared|own]
                             [--recordings DIR] [--measured DIR] [--warpsim BIN]
Prints Markdown; the first line names the commit of the traces and the binary's version.
"""
import argparse
import json
import pathlib
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
RECORDINGS = ROOT / "workloads/traces/2xH100-80GB-HBM3"
SKIPPED = {"remote_access_sweep"}


def run(warpsim, *args):
    return subprocess.run([warpsim, *map(str, args)], check=True, capture_output=True, text=True).stdout


def spans(warpsim, trace):
    """(whole-program span, SPMD span, kernel time over all GPUs), in ms. The SPMD span runs from the first start to
    the last end, on any GPU, of the kernels GPU 1 runs: in these programs GPU 1 runs only the multi-GPU loop, while
    GPU 0 also computes the check (in a scaled trace every pair's first GPU does)."""
    ends, kernels = [], []
    for line in run(warpsim, "inspect", trace, "--events").splitlines():
        event = json.loads(line)
        for kind in ("kernel", "memcpy", "memset", "api_call"):
            if kind in event and int(event[kind].get("end_ns", 0)) > 0:
                ends.append((int(event[kind]["start_ns"]), int(event[kind]["end_ns"])))
        if "kernel" in event and int(event["kernel"].get("end_ns", 0)) > 0:
            k = event["kernel"]
            kernels.append((k["name"], int(k.get("device_id", 0)), int(k["start_ns"]), int(k["end_ns"])))
    loop_names = {name for name, device, _, _ in kernels if device == 1}
    spmd = [(s, e) for name, _, s, e in kernels if name in loop_names]
    span = max(e for _, e in ends) - min(s for s, _ in ends)
    spmd_span = max(e for _, e in spmd) - min(s for s, _ in spmd) if spmd else 0
    return span / 1e6, spmd_span / 1e6, sum(e - s for _, _, s, e in kernels) / 1e6


def err(predicted, measured):
    return f"{(predicted - measured) / measured * 100:+.1f}%" if measured else "-"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gpus", type=int, nargs="+", default=[4, 8])
    parser.add_argument("--nodes", default="4xh100-nvswitch,4xh200-nvswitch,8xh100-nvswitch,8xh200-nvswitch",
                        help="node names or node files (a file's name must start with NxGPU, e.g. 4xh100-...)")
    parser.add_argument("--host", default="auto", choices=["auto", "shared", "own"])
    parser.add_argument("--recordings", type=pathlib.Path, default=RECORDINGS)
    parser.add_argument("--measured", type=pathlib.Path)
    parser.add_argument("--warpsim", default=str(ROOT / "build/sim/warpsim"))
    args = parser.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    print(f"Traces and scaling at commit {commit.strip()}, {run(args.warpsim, '--version').strip()}, host threads "
          f"{args.host}.\n")
    header = "| workload | GPUs | node | model: span ms | SPMD span ms | kernel ms | reuse: span ms | SPMD span ms |"
    rule = "|---|---|---|---|---|---|---|---|"
    if args.measured:
        header += " measured: span ms | SPMD span ms | kernel ms | model span err | model SPMD span err | kernel err | reuse SPMD span err |"
        rule += "---|---|---|---|---|---|---|"
    print(header)
    print(rule)
    nodes = args.nodes.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for merged in sorted(args.recordings.glob("*.merged.wstrace")):
            name = merged.name.removesuffix(".merged.wstrace")
            if name in SKIPPED:
                continue
            timeline = args.recordings / f"{name}.timeline.wstrace"
            for gpus in args.gpus:
                scaled_model, scaled_reuse = tmp / f"{name}.{gpus}.m.wstrace", tmp / f"{name}.{gpus}.t.wstrace"
                run(args.warpsim, "scale", merged, "--gpus", gpus, "--host", args.host, "-o", scaled_model)
                run(args.warpsim, "scale", timeline, "--gpus", gpus, "--host", args.host, "-o", scaled_reuse)
                for node in (n for n in nodes if pathlib.Path(n).name.startswith(f"{gpus}x")):
                    label = pathlib.Path(node).name
                    model_out, reuse_out = tmp / f"{name}.{label}.m.sim", tmp / f"{name}.{label}.t.sim"
                    run(args.warpsim, "simulate", scaled_model, "--platform", node, "-o", model_out)
                    run(args.warpsim, "simulate", scaled_reuse, "--platform", node, "--reuse-kernel-times", "-o",
                        reuse_out)
                    m_span, m_gpu, m_kernel = spans(args.warpsim, model_out)
                    r_span, r_gpu, _ = spans(args.warpsim, reuse_out)
                    row = [name, str(gpus), label, f"{m_span:.1f}", f"{m_gpu:.2f}", f"{m_kernel:.2f}", f"{r_span:.1f}",
                           f"{r_gpu:.2f}"]
                    real = args.measured / f"{name}_{gpus}gpu.timeline.wstrace" if args.measured else None
                    if real is not None and gpus == 2 and not real.exists():
                        real = args.measured / f"{name}.timeline.wstrace"
                    if real is not None:
                        if real.exists():
                            s, g, k = spans(args.warpsim, real)
                            row += [f"{s:.1f}", f"{g:.2f}", f"{k:.2f}", err(m_span, s), err(m_gpu, g), err(m_kernel, k),
                                    err(r_gpu, g)]
                        else:
                            row += ["-"] * 7
                    print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
