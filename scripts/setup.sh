#!/usr/bin/env bash
# Installs every Debian package tfc needs (when missing) and configures the
# build in ./build (or $TFC_BUILD_DIR). Quiet and fast when all is in place.
#   scripts/setup.sh [extra cmake args...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TFC_BUILD_DIR:-$root/build}

pkgs=(build-essential cmake ninja-build ccache python3
      libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools libomp-22-dev
      libeigen3-dev libopenblas-dev libgtest-dev libgmock-dev libbenchmark-dev
      libdlpack-dev libdnnl-dev pkgconf python3-numpy zlib1g-dev
      dataset-fashion-mnist libopenmpi-dev openmpi-bin libgloo-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -f "$build/build.ninja" ] || [ $# -gt 0 ]; then
  cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_DIR=/usr/lib/llvm-22/lib/cmake/llvm \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    "$@" >/dev/null
fi
