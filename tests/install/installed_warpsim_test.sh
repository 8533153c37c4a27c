#!/usr/bin/env bash
# An installed warpsim works without its build or source tree: installs BUILD_DIR into a fresh prefix, then runs the
# installed binary from outside both trees, with WARPSIM_PLATFORMS unset, on a copy of the sample trace.
#   installed_warpsim_test.sh BUILD_DIR SAMPLE_TRACE
set -euo pipefail
build=$1 sample=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
cp "$sample" "$prefix/sample.wstrace"
cd "$prefix"
unset WARPSIM_PLATFORMS
# The platforms come from PREFIX/share/warpsim/platforms: the unknown-node message names the folder looked in.
message=$("$prefix/bin/warpsim" simulate sample.wstrace --platform no-such-node 2>&1 || true)
case "$message" in
  *"$prefix/share/warpsim/platforms/nodes/no-such-node.textproto"*) ;;
  *) echo "FAIL: the installed warpsim did not look in $prefix/share/warpsim/platforms: $message"; exit 1 ;;
esac
"$prefix/bin/warpsim" simulate sample.wstrace --platform 2xh200-nvlink -o sim.wstrace >/dev/null 2>&1
"$prefix/bin/warpsim" inspect --verify sim.wstrace
test -f "$prefix/share/warpsim/schemas/simulate.schema.json"
test -f "$prefix/share/warpsim/proto/trace.proto"
echo "installed warpsim OK in $prefix"
