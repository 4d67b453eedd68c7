#!/usr/bin/env bash
# Every GPU test of the project on the GPU machine, from a bundle made on the development
# machine (the GPU machine has neither the build tools nor the Debian libraries).
#
#   scripts/gpu_check.sh make BUNDLE   here: builds the GPU test binaries, the integration test
#                                      and sfm, and packs them (../shared/tools/device-bundle.sh,
#                                      executables xz-packed, ~35 MB) with the few dataset files
#                                      the GPU tests read (~24 MB: six fountain-P11 photos, a
#                                      drone photo, the BAL problem). BUNDLE must be ignored by
#                                      git (.device*/ is).
#   scripts/gpu_check.sh run BUNDLE [tests|sanitize|all]
#                                      there: "tests" runs every test of the GPU test binaries
#                                      and the integration tests that use the GPU; "sanitize"
#                                      runs scripts/gpu_sanitize.sh (memcheck and racecheck) on
#                                      the binaries; all = both [all].
# Success: "all passed" after every binary, no "SKIPPED" for want of a GPU, and gpu_sanitize's
# rows with 0 errors. Exit code 1 when anything failed.
set -uo pipefail
mode=${1:-} bundle=${2:-} what=${3:-all}
[ -n "$bundle" ] && { [ "$mode" = make ] || [ "$mode" = run ]; } ||
  { echo "usage: gpu_check.sh make BUNDLE | run BUNDLE [tests|sanitize|all]" >&2; exit 2; }
repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/packed_bundle.sh
source "$repo/scripts/packed_bundle.sh"
gpu_tests=(sift_gpu_test matching_gpu_test trilateral_gpu_test trilateral_level_test
           trilateral_detail_emulation_test klt_gpu_test ba_gpu_test gpu_fallback_test multi_gpu_test)

if [ "$mode" = make ]; then
  set -e
  cd "$repo"
  bash scripts/build.sh "${gpu_tests[@]}" integration_test sfm
  executables=()
  for name in "${gpu_tests[@]}" integration_test sfm; do executables+=("build/bin/$name"); done
  pack_bundle "$bundle" "${executables[@]}"
  # The files the GPU tests read (six fountain photos, one drone photo, the BAL problem): with
  # fewer, the SIFT and matching comparisons on real photos skip.
  mkdir -p "$bundle/datasets/bal" "$bundle/datasets/strecha/fountain-P11/images" \
           "$bundle/datasets/drone/brighton_beach/images"
  cp ../shared/datasets/bal/problem-49-7776-pre.txt "$bundle/datasets/bal/"
  cp ../shared/datasets/strecha/fountain-P11/images/000[0-5].jpg "$bundle/datasets/strecha/fountain-P11/images/"
  cp ../shared/datasets/drone/brighton_beach/images/DJI_0018.JPG "$bundle/datasets/drone/brighton_beach/images/"
  echo "$bundle: $(du -sh "$bundle" | cut -f1)"
  exit 0
fi

open_bundle "$bundle"
bundle=$(cd "$bundle" && pwd)
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || true
echo "CPU cores: $(nproc)"
failed=0

run_tests() {  # BINARY FILTER: the summary lines; whether all passed
  local log status
  log=$(mktemp)
  if PROJ_TEST_TMP=$(mktemp -d) "$1" --gtest_filter="$2" > "$log" 2>&1; then status="all passed"; else status=FAILED; failed=1; fi
  grep -E '^\[ *(FAILED|SKIPPED) *\]|^\[==========\] [0-9]+ tests|Failure|Expected|Which is' "$log" | head -40 || true
  echo "$(basename "$1") $2: $status"
}

if [ "$what" = tests ] || [ "$what" = all ]; then
  for name in "${gpu_tests[@]}"; do
    echo; echo "=== $name ($(date +%T))"
    run_tests "$bin/$name" '*'
  done
  echo; echo "=== integration tests on the GPU ($(date +%T))"
  run_tests "$bin/integration_test" '*Gpu*:*GPU*'
fi
if [ "$what" = sanitize ] || [ "$what" = all ]; then
  echo; echo "=== compute-sanitizer ($(date +%T))"
  SANITIZE_TIMEOUT=${SANITIZE_TIMEOUT:-150} bash "$repo/scripts/gpu_sanitize.sh" "$bin" || failed=1
fi
exit "$failed"
