#!/usr/bin/env bash
# Sets up (Debian packages), builds everything and runs the whole test suite. Exit status: CTest's.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/build.sh
cd build
ctest --output-on-failure --parallel "$(nproc)"
