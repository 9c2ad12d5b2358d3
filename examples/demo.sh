#!/usr/bin/env bash
# The main demo (run by scripts/demo.sh after the build): tfc-opt parses a
# tfc program, canonicalizes it (folding x + 0) and round-trips it.
set -euo pipefail
build=$1
here=$(cd "$(dirname "$0")" && pwd)
echo "== examples/canonicalize.mlir, as written =="
cat "$here/canonicalize.mlir"
echo "== after tfc-opt --canonicalize =="
"$build/bin/tfc-opt" --canonicalize "$here/canonicalize.mlir"
