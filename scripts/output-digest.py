#!/usr/bin/env python3
"""Digests of what warpsim writes for every shipped trace, to show a restructuring changed no output.

    scripts/output-digest.py [--warpsim BIN] [--quick] [--out DIR] > before.txt   # at the commit before
    scripts/output-digest.py [--warpsim BIN] [--quick] [--out DIR] > after.txt    # after; then: diff the two

For every trace under workloads/traces/<machine>/ (not its subfolders), on its machine's node:
  *.merged.wstrace    `simulate` with every model (or the default one with --quick): the output trace, --timeline
                      JSON and --csv; then `compare` (text and --json) of the recording with it;
  *.timeline.wstrace  `simulate --reuse-kernel-times`, the same outputs, plus `timeline` of the recording.
One line per output: sha256, then what made it. Outputs name their inputs (the simulated trace's header, compare's
text), so every run reads the traces at the same relative paths and writes to the same folder (--out, relative to
the repository root; default build/output-digest).
"""
import argparse
import concurrent.futures
import hashlib
import os
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
NODES = {"H100-80GB-HBM3": "h100-pcie", "H200": "h200", "2xH200": "2xh200-nvlink", "2xH100-80GB-HBM3": "2xh100-nvlink",
         "4xH100-80GB-HBM3": "4xh100-nvswitch"}


def digest(path):
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


def run(warpsim, *args):
    result = subprocess.run([warpsim, *args], cwd=ROOT, capture_output=True)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(args)}: exit {result.returncode}: {result.stderr.decode()[-400:]}")
    return result.stdout


def simulate_and_compare(warpsim, trace, node, label, extra, tmp):
    """Lines for one simulation of `trace` (relative to ROOT)."""
    out = tmp / label.replace("/", "_").replace(" ", "_")
    run(warpsim, "simulate", trace, "--platform", node, "-o", f"{out.relative_to(ROOT)}.wstrace", "--timeline",
        f"{out.relative_to(ROOT)}.json", "--csv", f"{out.relative_to(ROOT)}.csv", *extra)
    lines = [f"{digest(f'{out}.{kind}')}  {label} {kind}" for kind in ("wstrace", "json", "csv")]
    text = run(warpsim, "compare", trace, f"{out.relative_to(ROOT)}.wstrace")
    as_json = run(warpsim, "compare", trace, f"{out.relative_to(ROOT)}.wstrace", "--json")
    lines.append(f"{hashlib.sha256(text).hexdigest()}  {label} compare")
    lines.append(f"{hashlib.sha256(as_json).hexdigest()}  {label} compare --json")
    return lines


def jobs(warpsim, models, tmp):
    for machine, node in NODES.items():
        for trace in sorted((ROOT / "workloads/traces" / machine).glob("*.wstrace")):
            relative = str(trace.relative_to(ROOT))
            if trace.name.endswith(".merged.wstrace"):
                for model in models:
                    extra = ["--model", model] if model else []
                    label = f"{relative} {model or 'default'}"
                    yield (simulate_and_compare, warpsim, relative, node, label, extra, tmp)
            elif trace.name.endswith(".timeline.wstrace"):
                reuse = ["--reuse-kernel-times"]
                yield (simulate_and_compare, warpsim, relative, node, f"{relative} reuse", reuse, tmp)
                yield (timeline_of, warpsim, relative, tmp)


def timeline_of(warpsim, trace, tmp):
    out = tmp / (trace.replace("/", "_") + ".timeline.json")
    run(warpsim, "timeline", trace, "-o", str(out.relative_to(ROOT)))
    return [f"{digest(out)}  {trace} timeline"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warpsim", default=str(ROOT / "build/sim/warpsim"))
    parser.add_argument("--quick", action="store_true", help="only the default model")
    parser.add_argument("--out", default="build/output-digest", help="folder for the outputs, relative to the root")
    args = parser.parse_args()
    warpsim = str(pathlib.Path(args.warpsim).resolve())
    models = [None] if args.quick else [line.split()[0] for line in run(warpsim, "models").decode().splitlines()]
    tmp = ROOT / args.out
    tmp.mkdir(parents=True, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:
        futures = []
        for function, *job_args in jobs(warpsim, models, tmp):
            futures.append(pool.submit(function, *job_args))
        for future in futures:
            print("\n".join(future.result()))


if __name__ == "__main__":
    main()
