#!/usr/bin/env bash
# Installs what is missing, builds rlx, then:
#  1. runs the bundled example through `rlx opt`: parse TVMScript, deduce
#     symbolic shapes, clean up the graph, print the module;
#  2. compiles an MLP with a symbolic batch size once with `rlx build`
#     (default pipeline, VM bytecode, LLVM kernels, one .so) and runs it with
#     `rlx run` at two batch sizes, checking the results against a reference.
# examples/mlp.py uses R.matmul / R.add, which need the legalize-ops pass;
# until it is registered the call_tir version examples/mlp_tir.py is built.
set -euo pipefail
cd "$(dirname "$0")/.."
RLX_BUILD_DIR=build ./scripts/build.sh
rlx=./build/bin/rlx

example=examples/mlp.py
passes=normalize,canonicalize-bindings,dead-code-elimination
echo "== rlx opt $example --passes=$passes"
"$rlx" opt "$example" --passes="$passes"

model=examples/mlp_tir.py
if "$rlx" opt --list-passes | grep -q '^  legalize-ops '; then model=examples/mlp.py; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "== rlx build $model -o mlp.so"
"$rlx" build "$model" -o "$work/mlp.so"
for n in 2 5; do
  echo "== rlx run mlp.so with batch size $n"
  python3 scripts/mlp_demo_data.py write "$work" "$n"
  "$rlx" run "$work/mlp.so" --input x="$work/x.npy" --input w1="$work/w1.npy" --input b1="$work/b1.npy" \
    --input w2="$work/w2.npy" --output "$work/y.npy"
  python3 scripts/mlp_demo_data.py check "$work" "$n"
done
