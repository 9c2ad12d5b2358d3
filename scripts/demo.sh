#!/usr/bin/env bash
# Builds tfc and runs the main demo.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TFC_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
cmake --build "$build" -j "${TFC_JOBS:-$(nproc)}" --target tfc-demo-deps >/dev/null
"$root/examples/demo.sh" "$build"
