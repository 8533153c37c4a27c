#!/usr/bin/env python3
"""The accuracy table (README.md and docs/accuracy.md; scripts/accuracy-chart.py draws it), from the committed traces: every SM model on three sets of programs.

  older workloads    workloads/traces (the papers' workloads: their errors shaped the models; not blind)
  suite, dev half    workloads/suite/traces, the programs scripts/suite-split.py puts in the development half
  suite, blind half  the same for the blind half: reported, never tuned on

For each set and model it runs scripts/validate.sh and prints the mean of the per-program kernel MAPE on the same
GPU (each recording simulated on its own GPU's node) and across GPUs (the H100 recording on the H200 node against the
H200 recording, and back), with the worst program's MAPE in brackets.

    scripts/accuracy-table.py [--model NAME[,NAME...]|all]   (WARPSIM_BIN / WARPSIM_NO_BUILD as for validate.sh)
    scripts/accuracy-table.py --gpu-file H200-SXM-141GB=H200-calibrated.textproto ...   (the same with another GPU file)

--gpu-file NAME=FILE runs on a copy of platforms/ whose gpus/NAME.textproto is FILE renamed NAME (e.g. a file written
by `warpsim calibrate`), so that every node naming NAME uses it.
"""
import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SUITE_TRACES = "workloads/suite/traces"
# validate.sh's summary line for one model: "same GPU  : mean of per-workload MAPE 9.7%, median 7.3% over 38 workloads,
# max 29.8%".
SINGLE_SUMMARY = re.compile(r"^(same|cross) GPU\s*: mean of per-workload MAPE ([0-9.]+)%, .* over (\d+) workloads, "
                            r"max ([0-9.]+)%")


def validate(models, extra_args):
    """{model: (same mean, same max, same n, cross mean, cross max, cross n)} from validate.sh's summary rows."""
    result = subprocess.run([str(ROOT / "scripts/validate.sh"), "--model", models, *extra_args], cwd=ROOT,
                            capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"scripts/validate.sh {' '.join(extra_args)} failed: {result.stderr[-600:]}")
    rows, single = {}, {}
    for line in result.stdout.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 9 and cells[0] in models.split(","):  # not a one-model run's per-workload rows
            rows[cells[0]] = (cells[1], cells[3], cells[4], cells[5], cells[7], cells[8])
        # One model: validate.sh prints its summary lines instead of the comparison table.
        if match := SINGLE_SUMMARY.match(line):
            single[match.group(1)] = (f"{match.group(2)}%", f"{match.group(4)}%", match.group(3))
    if "same" in single and "cross" in single and "," not in models:
        rows[models] = single["same"] + single["cross"]
    return rows


def use_gpu_files(replacements, scratch):
    """A copy of platforms/ under `scratch` with each gpus/NAME.textproto replaced by FILE (renamed NAME)."""
    root = pathlib.Path(scratch, "platforms")
    shutil.copytree(ROOT / "platforms", root)
    for replacement in replacements:
        name, _, file = replacement.partition("=")
        target = root / "gpus" / f"{name}.textproto"
        if not target.exists() or not file:
            sys.exit(f"--gpu-file {replacement}: expected SHIPPED_NAME=FILE (no platforms/gpus/{name}.textproto)")
        text = pathlib.Path(file).read_text()
        target.write_text(re.sub(r'^name: "[^"]*"', f'name: "{name}"', text, count=1, flags=re.M))
    os.environ["WARPSIM_PLATFORMS"] = str(root)


def cell(mean, worst, count):
    return "-" if count == "0" else f"{mean} ({worst}, n={count})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="all")
    parser.add_argument("--gpu-file", action="append", default=[], metavar="NAME=FILE")
    args = parser.parse_args()
    os.environ.setdefault("WARPSIM_BIN", str(ROOT / "build/sim/warpsim"))
    if not os.environ.get("WARPSIM_NO_BUILD"):
        subprocess.run([str(ROOT / "scripts/build.sh"), "warpsim"], cwd=ROOT, check=True, capture_output=True)
        os.environ["WARPSIM_NO_BUILD"] = "1"
    models = args.model
    if models == "all":
        listing = subprocess.run([os.environ["WARPSIM_BIN"], "models"], capture_output=True, text=True, check=True)
        models = ",".join(line.split("\t")[0] for line in listing.stdout.splitlines() if line.strip())
    sets = [("older workloads", [])]
    with tempfile.TemporaryDirectory() as scratch:
        if args.gpu_file:
            use_gpu_files(args.gpu_file, scratch)
        for half in ("dev", "blind"):
            names = subprocess.run([str(ROOT / "scripts/suite-split.py"), "--half", half], capture_output=True,
                                   text=True, check=True).stdout
            listing = pathlib.Path(scratch, half)
            listing.write_text(names)
            sets.append((f"suite, {half} half", ["--traces", SUITE_TRACES, "--programs", str(listing)]))
        results = [(title, validate(models, extra)) for title, extra in sets]
    header = "| model |" + "".join(f" {title}: same GPU | {title}: cross GPU |" for title, _ in results)
    print(header)
    print("|---|" + "---|---|" * len(results))
    for model in models.split(","):
        row = f"| {model} |"
        for _, rows in results:
            same_mean, same_max, same_n, cross_mean, cross_max, cross_n = rows.get(model, ("-", "-", "0") * 2)
            row += f" {cell(same_mean, same_max, same_n)} | {cell(cross_mean, cross_max, cross_n)} |"
        print(row)
    print("\nEach cell: mean of the per-program kernel MAPE (worst program, programs compared).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
