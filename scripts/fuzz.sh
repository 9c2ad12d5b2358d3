#!/usr/bin/env bash
# Bounded fuzzing of tfc (docs/testing.md): the mutation campaign against
# tfc-opt and tfc-run (crashes, exit codes, interpreter/JIT one-sided
# results), the API cases (tfc-apifuzz: eager vs compiled vs
# reduce_retracing on random, often invalid, op calls) and the differential testers (interpreter vs JIT on random
# programs; eager vs compiled gradients vs finite differences).
#   scripts/fuzz.sh [SECONDS per campaign, default 300] [SEED, default 1]
# A short run of each is part of the normal test suite (test/Fuzz).
# Uses ./build (or $TFC_BUILD_DIR); for the sanitizer build pass
# TFC_BUILD_DIR=build-asan after scripts/sanitize.sh built it.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TFC_BUILD_DIR:-$root/build}
secs=${1:-300}
seed=${2:-1}
status=0
python3 "$root/tools/tfc-fuzz/tfc-mutate.py" --bin "$build/bin" \
  --tests "$root/test" --opt 1000000 --run 1000000 --time-budget "$secs" \
  --seed "$seed" --out "$build/fuzz-findings" || status=1
# The differential testers take a program count; a few hundred programs
# take a few minutes.
"$build/bin/tfc-apifuzz" --count=$((secs * 10)) --seed="$seed" || status=1
"$build/bin/tfc-difftest" --count=$((secs * 2)) --seed="$seed" || status=1
"$build/bin/tfc-difftest-grad" --count="$secs" --seed="$seed" || status=1
exit $status
