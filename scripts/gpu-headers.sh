#!/usr/bin/env bash
# Copies the header-only libraries the warpsim CLI needs (CLI11, nlohmann-json, fmt) and zstd.h (the tracer decodes
# compressed fatbins with the GPU machine's libzstd.so.1) from this machine's Debian
# packages into .gpu-deps/include (git-ignored), for a build on a GPU machine that lacks them: carry `.gpu-deps` and
# configure there with -DCMAKE_INCLUDE_PATH=$PWD/.gpu-deps/include -DWARPSIM_WITH_SIMGRID=OFF.
# Nothing is committed: the copies come from the packages installed by scripts/install-deps.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
rm -rf "$root/.gpu-deps"
mkdir -p "$root/.gpu-deps/include"
cp -r /usr/include/CLI /usr/include/nlohmann /usr/include/fmt /usr/include/zstd.h "$root/.gpu-deps/include/"
echo "gpu-headers: $(du -sh "$root/.gpu-deps" | cut -f1) in .gpu-deps/include"
