#!/usr/bin/env bash
# Builds tfc and runs every test (lit + GoogleTest, through one lit run).
# Ends with one line "N passed, N failed". Exit status 0 only if all passed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TFC_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh" || exit 1
jobs=${TFC_JOBS:-$(nproc)}
cmake --build "$build" -j "$jobs" || { echo "0 passed, 1 failed"; exit 1; }
log=$(mktemp)
/usr/lib/llvm-22/bin/lit -sv -j "$jobs" "$build/test" "$build/test/Unit" 2>&1 | tee "$log"
lit_rc=${PIPESTATUS[0]}
passed=$(grep -E '^ *(Passed|Expectedly Failed)' "$log" | awk -F: '{s+=$2} END {print s+0}')
failed=$(grep -E '^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed)' "$log" | awk -F: '{s+=$2} END {print s+0}')
skipped=$(grep -E '^ *(Unsupported|Skipped)' "$log" | awk -F: '{s+=$2} END {print s+0}')
rm -f "$log"
if [ "$lit_rc" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$lit_rc" -eq 0 ]
