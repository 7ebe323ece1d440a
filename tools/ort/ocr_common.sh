# shellcheck shell=bash disable=SC2034  # sourced: the variables are used by the scripts that source it
# Shared by tests/models/run_ocr_models.sh and bench/ocr_vs_ort.sh (source it; bash).
# Defines the three OCR models, the inputs each is run on, and helpers to find the tools.
#
# After ocr_setup WORKDIR:
#   OCR_MODEL[det|rec|cls]   path of the .onnx file (installed by scripts/fetch_models.sh)
#   OCR_INPUTS[det|rec|cls]  space-separated input names; the files are WORKDIR/inputs/NAME.npy
#   OCR_ORT_RUN, OCR_COMPARE the Node tools; RLX_BIN the rlx binary
# Every model has one input, named x, and one output.

OCR_TOOLS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OCR_REPO_ROOT="$(cd "$OCR_TOOLS_DIR/../.." && pwd)"
OCR_ORT_RUN="$OCR_TOOLS_DIR/ort_run.js"
OCR_COMPARE="$OCR_TOOLS_DIR/compare.js"
OCR_KINDS=(det rec cls)
declare -A OCR_MODEL
declare -A OCR_INPUTS
# det: height and width multiples of 32 (320x320, 640x640, 480x800), noise and text-like images;
# rec: height 48, widths 160/320/640 at batch 1 and 8 (text-like) and one noise image;
# cls: 48x192 (what PaddleOCR feeds it) at batch 1 and 8 (half turned 180 degrees), and 48x320
#      at batch 4 for a third size.
OCR_INPUTS[det]="det_text_320x320 det_noise_320x320 det_text_640x640 det_noise_640x640 det_text_480x800 det_noise_480x800"
OCR_INPUTS[rec]="rec_text_b1_w160 rec_text_b1_w320 rec_text_b1_w640 rec_text_b8_w160 rec_text_b8_w320 rec_text_b8_w640 rec_noise_b1_w320"
OCR_INPUTS[cls]="cls_text_b1 cls_text_b8 cls_text_b4_w320 cls_noise_b1"

ocr_die() {
  echo "$(basename "$0"): $*" >&2
  exit 1
}

# Finds rlx: $RLX_BIN, else build/bin/rlx under ${RLX_BUILD_DIR:-build}, else rlx on PATH.
ocr_find_rlx() {
  if [ -n "${RLX_BIN:-}" ]; then
    [ -x "$RLX_BIN" ] || ocr_die "RLX_BIN=$RLX_BIN is not an executable"
    return
  fi
  local built="$OCR_REPO_ROOT/${RLX_BUILD_DIR:-build}/bin/rlx"
  if [ -x "$built" ]; then
    RLX_BIN="$built"
  elif command -v rlx >/dev/null 2>&1; then
    RLX_BIN="$(command -v rlx)"
  else
    ocr_die "no rlx binary (build it, or set RLX_BIN)"
  fi
}

# Installs (if needed) the models and ONNX Runtime, and writes the inputs into $1/inputs.
ocr_setup() {
  local work="$1"
  command -v node >/dev/null 2>&1 || ocr_die "node is required (RLX_MODEL_DEPS=1 scripts/install_deps.sh)"
  local line
  while IFS= read -r line; do
    case "$line" in
      det=*|rec=*|cls=*) OCR_MODEL[${line%%=*}]="${line#*=}" ;;
    esac
  done < <("$OCR_REPO_ROOT/scripts/fetch_models.sh" --quiet) || ocr_die "scripts/fetch_models.sh failed"
  local kind
  for kind in "${OCR_KINDS[@]}"; do
    [ -f "${OCR_MODEL[$kind]:-}" ] || ocr_die "scripts/fetch_models.sh gave no $kind model"
  done
  mkdir -p "$work/inputs"
  # The inputs are deterministic: write them once per work folder and version of make_inputs.py.
  local stamp
  stamp="$work/inputs/.complete-$(cksum < "$OCR_TOOLS_DIR/make_inputs.py" | cut -d' ' -f1)"
  if [ ! -f "$stamp" ]; then
    rm -f "$work/inputs"/.complete-*
    python3 "$OCR_TOOLS_DIR/make_inputs.py" "$work/inputs" >/dev/null || ocr_die "make_inputs.py failed"
    touch "$stamp"
  fi
}

# Seconds since the epoch, with nanoseconds.
ocr_now() { date +%s.%N; }
# Elapsed seconds from $1 to $2, 2 decimals.
ocr_elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
