#!/usr/bin/env bash
# Copies the header-only libraries the warpsim CLI needs (CLI11, nlohmann-json, fmt) from this machine's Debian
# packages into .gpu-deps/include (git-ignored), for a build on a GPU machine that lacks them: carry `.gpu-deps` and
# configure there with -DCMAKE_INCLUDE_PATH=$PWD/.gpu-deps/include -DWARPSIM_WITH_SIMGRID=OFF.
# Nothing is committed: the copies come from the packages installed by scripts/install-deps.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
rm -rf "$root/.gpu-deps"
mkdir -p "$root/.gpu-deps/include"
cp -r /usr/include/CLI /usr/include/nlohmann /usr/include/fmt "$root/.gpu-deps/include/"
echo "gpu-headers: $(du -sh "$root/.gpu-deps" | cut -f1) in .gpu-deps/include"
