#!/usr/bin/env bash
# The packages work as installed: builds the .deb and the .tar.gz of BUILD_DIR with CPack, checks the .deb's
# dependencies, then unpacks each into a fresh folder and runs its warpsim from there (platforms found beside its
# bin/, WARPSIM_PLATFORMS unset) on a copy of the sample trace, and finds the bash completion.
#   package_test.sh BUILD_DIR SAMPLE_TRACE
set -euo pipefail
build=$1 sample=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cpack --config "$build/CPackConfig.cmake" -G "DEB;TGZ" -B "$work/packages" >/dev/null
deb=$(ls "$work"/packages/warpsim_*.deb)
tgz=$(ls "$work"/packages/warpsim-*.tar.gz)
depends=$(dpkg-deb -f "$deb" Depends)
case "$depends" in
  *libsimgrid3.32*libprotobuf32*) ;;
  *) echo "FAIL: $deb depends on '$depends', not on SimGrid and protobuf"; exit 1 ;;
esac
unset WARPSIM_PLATFORMS
check_tree() {  # ROOT: a prefix holding bin/warpsim
  local root=$1
  cp "$sample" "$root/sample.wstrace"
  (cd "$root" && ./bin/warpsim simulate sample.wstrace --platform 2xh200-nvlink -o sim.wstrace >/dev/null 2>&1 \
    && ./bin/warpsim inspect --verify sim.wstrace >/dev/null) || { echo "FAIL: the warpsim of $root did not simulate"; exit 1; }
  grep -q "complete -o filenames -F _warpsim warpsim" "$root/share/bash-completion/completions/warpsim" \
    || { echo "FAIL: no bash completion in $root"; exit 1; }
}
mkdir "$work/deb" "$work/tgz"
dpkg-deb -x "$deb" "$work/deb"
check_tree "$work/deb/usr"
tar -xzf "$tgz" -C "$work/tgz"
check_tree "$(ls -d "$work"/tgz/warpsim-*)/usr"  # the archive holds usr/, as the .deb
echo "packages OK: $(basename "$deb") ($(du -h "$deb" | cut -f1)), $(basename "$tgz")"
