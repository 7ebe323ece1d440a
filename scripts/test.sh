#!/usr/bin/env bash
# Installs what is missing, builds rlx, and runs every test:
#   1. the normal build (build/): all tests with ctest;
#   2. a sanitizer build (build-asan/, AddressSanitizer + UBSan): unit tests.
# Set RLX_SKIP_SANITIZERS=1 to run only the first.
# Passing tests are listed in build*/ctest.log; failures and the summary
# line are printed.
set -uo pipefail
cd "$(dirname "$0")/.."
jobs="${RLX_JOBS:-$(nproc)}"

run_ctest() {
  local dir=$1
  shift
  (cd "$dir" && ctest -j "$jobs" --output-on-failure --timeout 600 "$@") > "$dir/ctest.log" 2>&1
  local rc=$?
  grep -v -E "^ *[0-9]+/[0-9]+ Test +#[0-9]+: .* Passed" "$dir/ctest.log" | grep -v -E "^Test project|^ +Start +[0-9]+: " | sed '/^$/N;/^\n$/D'
  return $rc
}

echo "== build (build/)"
RLX_BUILD_DIR=build ./scripts/build.sh || exit 1
echo "== tests (build/)"
run_ctest build
status=$?

if [ "${RLX_SKIP_SANITIZERS:-0}" != "1" ]; then
  echo "== build (build-asan/, AddressSanitizer + UndefinedBehaviorSanitizer)"
  RLX_BUILD_DIR=build-asan ./scripts/build.sh -DRLX_SANITIZE=ON -DRLX_BUILD_BENCH=OFF || exit 1
  echo "== unit tests under sanitizers (build-asan/)"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 run_ctest build-asan -L unit
  asan_status=$?
  if [ "$asan_status" -ne 0 ]; then status=$asan_status; fi
fi
exit "$status"
