#!/bin/sh
# Build dxbc-spirv and the driver with meson: build.sh SOURCE OUT.
#   SOURCE: dxbc-spirv's source tree (with submodules/spirv_headers).
#   OUT:    a folder for the build; the driver lands at OUT/dxbc-spirv-driver.
# Needs meson, ninja and g++ (Debian: meson ninja-build g++). A second run rebuilds only what
# changed.
set -eu
if [ $# -ne 2 ]; then
  echo "usage: build.sh DXBC_SPIRV_SOURCE OUT" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
stage="$out/stage"
mkdir -p "$stage/subprojects"
cp "$here/meson.build" "$here/driver.cpp" "$stage/"
ln -sfn "$src" "$stage/subprojects/dxbc-spirv"
if [ ! -f "$out/build/build.ninja" ]; then
  meson setup "$out/build" "$stage" >"$out/setup.log" 2>&1 || { cat "$out/setup.log" >&2; exit 1; }
fi
ninja -C "$out/build" >"$out/ninja.log" 2>&1 || { tail -50 "$out/ninja.log" >&2; exit 1; }
ln -sfn "$out/build/dxbc-spirv-driver" "$out/dxbc-spirv-driver"
