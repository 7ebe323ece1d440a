#!/usr/bin/env bash
# rlx against ONNX Runtime on PaddleOCR's three models (see tests/models/run_ocr_models.sh for the
# models and inputs). Each model is compiled once by `rlx build` (its compile time is reported)
# and run at every benchmark size by `rlx run --bench N` with RLX_NUM_THREADS=2 and by
# tools/ort/ort_run.js --bench N (2 intra-op threads, graph optimization level "all"). Prints two
# markdown tables: compile time per model (rlx build against ONNX Runtime's session creation,
# which includes its graph optimizations), and median latency per size with the ratio ORT/rlx
# (above 1: rlx is faster).
#
# Usage: bench/ocr_vs_ort.sh [--rlx PATH] [--runs N] [--work DIR] [--ort-only] [--only det|rec|cls]
#   --runs N     timed runs per size and runtime (default 20, after 3 warm-up runs)
#   --ort-only   time ONNX Runtime only (the rlx columns read "-")
# Benchmarks measure; this script fails only when a tool cannot run at all. An rlx build or run
# that fails is shown in the table as "failed" (its log is kept under the work folder).
set -uo pipefail

# shellcheck source=tools/ort/ocr_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../tools/ort/ocr_common.sh"

runs=20
work=""
ort_only=0
only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --rlx) RLX_BIN="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --ort-only) ort_only=1; shift ;;
    --only) only="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d'; exit 0 ;;
    *) ocr_die "unknown argument '$1' (see --help)" ;;
  esac
done
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || ocr_die "--runs needs a positive integer"
if [ "$ort_only" -eq 0 ]; then ocr_find_rlx; fi
if [ -z "$work" ]; then
  work="$(mktemp -d "${TMPDIR:-/tmp}/rlx-ocr-bench.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
fi
ocr_setup "$work"
mkdir -p "$work/bench"
load_start="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"

# The sizes benchmarked: text-like inputs (latency does not depend on the pixel values).
declare -A BENCH_INPUTS=(
  [det]="det_text_320x320 det_text_640x640 det_text_480x800"
  [rec]="rec_text_b1_w160 rec_text_b1_w320 rec_text_b1_w640 rec_text_b8_w160 rec_text_b8_w320 rec_text_b8_w640"
  [cls]="cls_text_b1 cls_text_b8 cls_text_b4_w320"
)

shape_of() {  # the shape of an input .npy, as 1x3x48x320
  node -e 'const {readNpy}=require(process.argv[1]); process.stdout.write(readNpy(process.argv[2]).shape.join("x"))' \
    "$OCR_TOOLS_DIR/npy.js" "$1"
}

us_to_ms() {  # microseconds as printed by rlx run --bench -> milliseconds, or "failed" if none
  awk -v u="$1" 'BEGIN { if (u == "") printf "failed"; else printf "%.3f", u / 1000 }'
}

ratio() {  # ORT / rlx, 2 decimals, or "-"
  if [[ "$1" =~ ^[0-9.]+$ && "$2" =~ ^[0-9.]+$ ]]; then
    awk -v o="$1" -v r="$2" 'BEGIN { if (r > 0) printf "%.2f", o / r; else printf "-" }'
  else
    echo "-"
  fi
}

compile_rows=()
latency_rows=()
for kind in "${OCR_KINDS[@]}"; do
  if [ -n "$only" ] && [ "$only" != "$kind" ]; then continue; fi
  model="${OCR_MODEL[$kind]}"
  so="$work/bench/$kind.so"
  rlx_compile="-"
  rlx_ok=0
  if [ "$ort_only" -eq 0 ]; then
    start="$(ocr_now)"
    if "$RLX_BIN" build "$model" -o "$so" > "$work/bench/$kind.build.log" 2>&1; then
      rlx_compile="$(ocr_elapsed "$start" "$(ocr_now)") s"
      rlx_ok=1
    else
      rlx_compile="failed"
      echo "ocr_vs_ort: rlx build of $kind failed (log: $work/bench/$kind.build.log):" >&2
      tail -n 5 "$work/bench/$kind.build.log" >&2
    fi
  fi
  ort_create="-"
  for name in ${BENCH_INPUTS[$kind]}; do
    input="$work/inputs/$name.npy"
    log="$work/bench/$name.ort.log"
    node "$OCR_ORT_RUN" "$model" --input "x=$input" --threads 2 --bench "$runs" --warmup 3 > "$log" 2>&1 ||
      ocr_die "ONNX Runtime failed on $kind $name: $(tail -n 3 "$log")"
    ort_ms="$(sed -n 's/^bench: median_ms=\([0-9.]*\).*/\1/p' "$log")"
    ort_min="$(sed -n 's/^bench: .* min_ms=\([0-9.]*\).*/\1/p' "$log")"
    if [ "$ort_create" = "-" ]; then
      ort_create="$(sed -n 's/^session_create_ms=\([0-9.]*\)/\1/p' "$log") ms"
    fi
    rlx_ms="-"
    rlx_min="-"
    if [ "$rlx_ok" -eq 1 ]; then
      log="$work/bench/$name.rlx.log"
      if RLX_NUM_THREADS=2 "$RLX_BIN" run "$so" --input "x=$input" --bench "$runs" > "$log" 2>&1; then
        # rlx prints: bench: N runs of 'main', median X us (min .. us, max .. us)
        rlx_ms="$(us_to_ms "$(sed -n 's/^bench: .* median \([0-9.e+]*\) us.*/\1/p' "$log")")"
        rlx_min="$(us_to_ms "$(sed -n 's/^bench: .* (min \([0-9.e+]*\) us.*/\1/p' "$log")")"
      else
        rlx_ms="failed"
        rlx_min="failed"
        echo "ocr_vs_ort: rlx run of $kind $name failed (log: $log)" >&2
      fi
    fi
    latency_rows+=("| $kind | $(shape_of "$input") | $rlx_ms | $ort_ms | $(ratio "$ort_ms" "$rlx_ms") |\
 $rlx_min | $ort_min | $(ratio "$ort_min" "$rlx_min") |")
    echo "ocr_vs_ort: $kind $name: rlx $rlx_ms ms, ORT $ort_ms ms" >&2
  done
  compile_rows+=("| $kind | $(basename "$model") | $rlx_compile | $ort_create |")
done

echo "Machine: $(nproc) CPUs, load average $load_start at the start and" \
  "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?') at the end (1, 5, 15 min)"
echo
echo "Compile time (once per model, symbolic dims; ONNX Runtime: session creation with all graph optimizations)"
echo
echo "| model | file | rlx build | ORT session create |"
echo "| --- | --- | ---: | ---: |"
printf '%s\n' "${compile_rows[@]}"
echo
echo "Latency over $runs runs (median and minimum), 2 threads (RLX_NUM_THREADS=2; ORT intra-op threads 2, graph optimization all)"
echo
echo "| model | input (NCHW) | rlx median ms | ORT median ms | ORT/rlx | rlx min ms | ORT min ms | ORT/rlx (min) |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
printf '%s\n' "${latency_rows[@]}"
