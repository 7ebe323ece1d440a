#!/usr/bin/env bash
# Installs the Debian 12 packages rlx needs, skipping those already present.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache clang
  llvm-19-dev llvm-19-tools
  libgtest-dev libgmock-dev libbenchmark-dev
  libfmt-dev libcli11-dev nlohmann-json3-dev
  libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata  # ONNX frontend (ModelProto via protobuf) and its conformance tests
  python3  # the demo writes its inputs and checks its outputs with it (standard library only)
  python3-onnx  # tools/ort/inspect_onnx.py: op-type inventory of the real ONNX models
  libdnnl-dev libopenblas-dev  # library dispatch (dispatch-library, src/runtime/contrib/dnnl); CMake option RLX_USE_DNNL
)

# The real-model checks (tests/models, bench/ocr_vs_ort.sh; CMake option RLX_MODEL_TESTS) run ONNX
# Runtime through Node and install the models with npm. Node and npm may come from elsewhere than
# Debian (a newer nodejs ships its own npm), so Debian's are installed only where none is on PATH.
if [ "${RLX_MODEL_DEPS:-0}" = "1" ]; then
  if ! command -v node >/dev/null 2>&1; then packages+=(nodejs); fi
  if ! command -v npm >/dev/null 2>&1; then packages+=(npm); fi
fi

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "rlx: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
