#!/usr/bin/env bash
# The main demo (run by scripts/demo.sh after the build): eager ops, a traced
# and compiled program with control flow, then a short Keras-style training
# run on Fashion-MNIST (examples/demo/demo.cpp).
set -euo pipefail
build=$1
"$build/bin/tfc-demo"
