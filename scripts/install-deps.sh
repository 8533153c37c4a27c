#!/usr/bin/env bash
# Installs the Debian 12 packages warpsim builds and tests with, only those missing.
# Idempotent: a machine that has them all runs no apt command at all.
# Run as root (CI and the README commands do); prints what it installs.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libprotobuf-dev protobuf-compiler
  libsimgrid-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev
  libzstd-dev  # compressed fatbin entries (trace/fatbin.cc)
  zlib1g-dev  # the traces' record checksums (trace/record_checksum.cc) where ISA-L is missing
  libisal-dev  # the same checksums, 10x faster
  libjemalloc-dev  # warpsim's malloc (sim/CMakeLists.txt)
  clang-14 libclang-rt-14-dev
  python3  # tests/golden and scripts/check-includes.py
  python3-protobuf  # the Python reader (python/warpsim_trace)
  parallel  # GNU parallel runs `warpsim sweep --emit-jobs` jobs in a test
  chromium  # headless, renders the `warpsim report` page in tests/browser/report_page_test.py
  fonts-liberation  # its text, in the screenshot docs/report.png
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: these Debian packages are missing and installing them needs root: ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
