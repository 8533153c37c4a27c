#!/usr/bin/env python3
"""Golden accuracy test: fails when the default model's accuracy on the committed traces gets worse.

Runs scripts/validate.sh (the default model, every workload recorded with counters, on its own GPU's node and on the
other GPU's) with the given warpsim binary on two sets, the older workloads (workloads/traces) and the development
half of the validation suite (workloads/suite, scripts/suite-split.py), and reads its summary lines, the mean of the
per-workload kernel MAPE on the same GPU and across GPUs. Fails if any rises by more than 0.5 points over
tests/golden/accuracy-baseline.txt. A change that improves accuracy passes and prints the new figures: commit them as
the baseline, in the same commit. The blind half is not here: it is reported (scripts/accuracy-table.py), never a
target.

    tests/golden/accuracy_test.py --warpsim build/sim/warpsim
"""
import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
BASELINE = ROOT / "tests/golden/accuracy-baseline.txt"
TOLERANCE_POINTS = 0.5
SUMMARY = re.compile(r"^(same|cross) GPU\s*: mean of per-workload MAPE ([0-9.]+)%")


def read_baseline():
    """{'same': mean %, 'cross': mean %} from lines `same 18.6` / `cross 17.1` (comments start with #)."""
    baseline = {}
    for line in BASELINE.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            key, value = line.split()
            baseline[key] = float(value)
    return baseline


def validate(warpsim, args, prefix):
    """{PREFIX + 'same': mean %, PREFIX + 'cross': mean %} from validate.sh's summary lines."""
    env = dict(os.environ, WARPSIM_NO_BUILD="1", WARPSIM_BIN=str(pathlib.Path(warpsim).resolve()))
    result = subprocess.run([str(ROOT / "scripts/validate.sh"), *args], cwd=ROOT, env=env, capture_output=True,
                            text=True)
    if result.returncode != 0:
        sys.exit(f"scripts/validate.sh failed (exit {result.returncode}): {result.stderr[-600:]}")
    means = {prefix + m.group(1): float(m.group(2)) for m in map(SUMMARY.match, result.stdout.splitlines()) if m}
    if len(means) != 2:
        sys.exit(f"scripts/validate.sh printed no summary lines:\n{result.stdout[-600:]}")
    return means


def measure(warpsim):
    means = validate(warpsim, [], "")
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as dev:
        names = subprocess.run([str(ROOT / "scripts/suite-split.py"), "--half", "dev"], capture_output=True, text=True,
                               check=True).stdout
        dev.write(names)
        dev.flush()
        means.update(validate(warpsim, ["--traces", "workloads/suite/traces", "--programs", dev.name], "dev_"))
    return means


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warpsim", required=True)
    args = parser.parse_args()
    baseline, measured = read_baseline(), measure(args.warpsim)
    failed = False
    for key in baseline:
        limit = baseline[key] + TOLERANCE_POINTS
        verdict = "ok" if measured[key] <= limit else "WORSE"
        failed |= verdict != "ok"
        print(f"{key} GPU: mean MAPE {measured[key]:.1f}% (baseline {baseline[key]:.1f}%, limit {limit:.1f}%) {verdict}")
    if not failed and any(measured[k] < baseline[k] for k in baseline):
        print(f"better than the baseline: update {BASELINE.relative_to(ROOT)} in this commit")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
