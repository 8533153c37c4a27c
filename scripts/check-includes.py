#!/usr/bin/env python3
"""Include-direction check: fails when an #include points against the data flow (docs/architecture.md).

Every source file belongs to the component of the longest folder prefix in COMPONENTS; each `#include "..."` is
resolved to a file of the repository (the including file's folder first, then its own component, then any unique
match; generated *.pb.h files belong to proto) and must land in the same component or in one the including component
may use (MAY_USE). SimGrid headers may be included only by the replay, CUDA and CUPTI headers only by the tracer.
Tests, tools, benchmarks and workloads are not checked: they may include anything.

    scripts/check-includes.py          # exit 1 and one line per backward include, FILE:LINE: ...
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE_FOLDERS = ("proto", "trace", "tracer", "sim")
SUFFIXES = {".h", ".hpp", ".cc", ".cpp", ".cu"}

# Folder -> component. The longest matching prefix wins.
COMPONENTS = {
    "proto": "proto",
    "trace": "trace",
    "tracer": "tracer",
    "sim/common": "common",
    "sim/platform": "platform",
    "sim/models/core": "models-core",
    "sim/models": "models-registry",
    "sim/models/roofline": "model",
    "sim/models/wave": "model",
    "sim/models/petri": "model",
    "sim/models/mwp": "model",
    "sim/replay": "replay",
    "sim/calibrate": "calibrate",
    "sim/report/analysis": "report-analysis",
    "sim/report/outputs": "report-outputs",
    "sim/report": "report",
    "sim/cli": "cli",
}

# Component -> the components it may include (besides itself). A model never includes another model: "model" may
# not use "model" except within its own folder (checked separately).
MAY_USE = {
    "proto": set(),
    "common": set(),
    "trace": {"proto"},
    "tracer": {"trace", "proto"},
    "platform": {"proto"},
    "models-core": {"proto", "common"},
    "model": {"models-core", "proto"},
    "models-registry": {"model", "models-core", "proto"},
    "replay": {"models-registry", "models-core", "platform", "trace", "proto"},
    "calibrate": {"model", "models-core", "platform", "trace", "proto", "common"},  # the launch fit is the wave model's
    "report-analysis": {"trace", "proto", "common"},
    "report-outputs": {"report-analysis", "trace", "proto"},
    "report": {"report-analysis", "report-outputs", "trace", "proto", "common"},
    "cli": {"replay", "calibrate", "report", "report-analysis", "report-outputs", "models-registry", "models-core", "model",
            "platform", "trace", "proto"},
}
SIMGRID_USERS = {"replay"}
CUDA_USERS = {"tracer"}  # CUPTI and the CUDA runtime/driver headers
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def folder_of(path):
    return path.parent.relative_to(ROOT).as_posix()


def component_of(relative_folder):
    best = None
    for prefix in COMPONENTS:
        if relative_folder == prefix or relative_folder.startswith(prefix + "/"):
            if best is None or len(prefix) > len(best):
                best = prefix
    return best


def source_files():
    for top in SOURCE_FOLDERS:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in SUFFIXES and path.is_file():
                yield path


def resolver(files):
    by_name = {}
    for path in files:
        by_name.setdefault(path.name, []).append(path)

    def resolve(including, target):
        """The repository file `#include "target"` in `including` means, or None (generated, system or outside)."""
        candidates = [p for p in by_name.get(pathlib.PurePosixPath(target).name, [])
                      if p.as_posix().endswith("/" + target)]
        beside = including.parent / target
        if beside in candidates:
            return beside
        own = [p for p in candidates if component_of(folder_of(p)) == component_of(folder_of(including))]
        if len(own) == 1:
            return own[0]
        return candidates[0] if len(candidates) == 1 else None

    return resolve


def model_folder(folder):
    """sim/models/<name> for a file anywhere under a model's folder."""
    parts = folder.split("/")
    return "/".join(parts[:3])


def problems():
    files = list(source_files())
    resolve = resolver(files)
    for path in files:
        prefix = component_of(folder_of(path))
        if prefix is None:
            continue
        component = COMPONENTS[prefix]
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            where = f"{path.relative_to(ROOT)}:{number}"
            kind, target = match.groups()
            if kind == "<":
                if target.startswith("simgrid/") and component not in SIMGRID_USERS:
                    yield f"{where}: {component} includes SimGrid ({target}); only the replay may"
                if re.match(r"(cupti|cuda|cuda_runtime|nvperf)[_a-z0-9]*\.h$", target) and component not in CUDA_USERS:
                    yield f"{where}: {component} includes CUDA ({target}); only the tracer may"
                continue
            if target.endswith(".pb.h"):
                included, included_component = None, "proto"
            else:
                included = resolve(path, target)
                if included is None:
                    continue
                included_prefix = component_of(folder_of(included))
                if included_prefix is None:
                    yield f"{where}: includes {target}, outside the checked components"
                    continue
                included_component = COMPONENTS[included_prefix]
            if included_component == component:
                other_model = model_folder(folder_of(included)) != model_folder(folder_of(path)) if included else False
                if component == "model" and other_model:
                    yield f"{where}: model includes another model's {included.relative_to(ROOT)}"
                continue
            if included_component not in MAY_USE[component]:
                yield f"{where}: {component} may not include {included_component} ({target})"


def main():
    found = list(problems())
    for problem in found:
        print(problem)
    print(f"check-includes: {len(found)} backward include(s)" if found
          else "check-includes: every include points forward")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
