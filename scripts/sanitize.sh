#!/usr/bin/env bash
# Builds tfc with AddressSanitizer + UBSan (+ LeakSanitizer at exit) in
# ./build-asan (or $TFC_ASAN_BUILD_DIR) and runs the whole suite there: every
# lit test and every GoogleTest binary. Too slow for CI on 2 cores (about an
# hour: docs/testing.md); run it before calling a reliability change done.
# Ends with "N passed, N failed, N skipped" like scripts/test.sh.
#   scripts/sanitize.sh [lit args, e.g. build-asan/test/Execution]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TFC_ASAN_BUILD_DIR:-$root/build-asan}
"$root/scripts/setup.sh" >/dev/null || exit 1   # packages only
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_DIR=/usr/lib/llvm-22/lib/cmake/llvm \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DTFC_SANITIZE=ON -DTFC_BUILD_BENCHMARKS=OFF >/dev/null || exit 1
fi
jobs=${TFC_JOBS:-$(nproc)}
cmake --build "$build" -j "$jobs" || { echo "0 passed, 1 failed"; exit 1; }
# Leaks are checked when each process exits; halt on the first report of any
# kind so that a report is a failed test, never a line lost in the output.
# allow_user_poisoning=0: LLVM's headers poison and unpoison BumpPtrAllocator
# slabs when compiled with ASan, but libLLVM/libMLIR themselves are not, so a
# slab poisoned by our code and carved up by theirs reads as poisoned (a
# false use-after-poison on MLIR types). Real heap errors are still found.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:abort_on_error=0:allow_user_poisoning=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("$build/test" "$build/test/Unit")
log=$(mktemp)
/usr/lib/llvm-22/bin/lit -sv -j "$jobs" "${targets[@]}" 2>&1 | tee "$log"
lit_rc=${PIPESTATUS[0]}
passed=$(grep -E '^ *(Passed|Expectedly Failed)' "$log" | awk -F: '{s+=$2} END {print s+0}')
failed=$(grep -E '^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed)' "$log" | awk -F: '{s+=$2} END {print s+0}')
skipped=$(grep -E '^ *(Unsupported|Skipped)' "$log" | awk -F: '{s+=$2} END {print s+0}')
reports=$(grep -cE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$log")
rm -f "$log"
if [ "$lit_rc" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "sanitizer reports: $reports"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$lit_rc" -eq 0 ] && [ "$reports" -eq 0 ]
