#!/usr/bin/env bash
# Installs what is missing, builds rlx, and runs the bundled example through
# `rlx opt`: parse TVMScript, deduce symbolic shapes, clean up the graph,
# print the module.
set -euo pipefail
cd "$(dirname "$0")/.."
RLX_BUILD_DIR=build ./scripts/build.sh
example=examples/mlp.py
passes=normalize,canonicalize-bindings,dead-code-elimination
echo "== rlx opt $example --passes=$passes"
./build/bin/rlx opt "$example" --passes="$passes"
