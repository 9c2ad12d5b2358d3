#!/usr/bin/env bash
# The main demo (run by scripts/demo.sh after the build): a traced, compiled
# program with control flow (Collatz with while_loop/cond), its tfc IR, and
# an LSTM cell step eager versus compiled.
set -euo pipefail
build=$1
"$build/bin/tfc-demo"
