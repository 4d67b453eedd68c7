#!/usr/bin/env bash
# compute-sanitizer memcheck and racecheck over the GPU test binaries (needs a GPU).
#
#   scripts/gpu_sanitize.sh BIN_DIR [BINARY...]
#
# BIN_DIR holds the test binaries (build/bin, or a device bundle's bin/); the default list
# is every GPU test. Prints one markdown row per binary and tool with the error count
# (hazards for racecheck) and the run's state, and exits 1 when any error was found.
#   TOOLS="memcheck racecheck"   the sanitizer tools run
#   SANITIZE_TIMEOUT=60          seconds per binary and tool (slow under the sanitizer;
#                                a timed-out run still reports the errors seen so far)
#   GTEST_FILTER=...             narrows the tests of every binary
#   COMPUTE_SANITIZER=path       the sanitizer, when not on PATH or in the CUDA toolkit
#   SANITIZE_LOGS=dir            keeps each run's full output there
set -uo pipefail
bin_dir=${1:?usage: gpu_sanitize.sh BIN_DIR [BINARY...]}; shift
binaries=("$@")
# (trilateral_detail_emulation_test runs device code on the host: nothing to instrument.)
[ ${#binaries[@]} -gt 0 ] || binaries=(sift_gpu_test matching_gpu_test trilateral_gpu_test
  trilateral_level_test klt_gpu_test ba_gpu_test)
tools=${TOOLS:-memcheck racecheck}
timeout_s=${SANITIZE_TIMEOUT:-60}
logs=${SANITIZE_LOGS:-$(mktemp -d)}
mkdir -p "$logs"

sanitizer=${COMPUTE_SANITIZER:-}
for candidate in "$sanitizer" "$(command -v compute-sanitizer || true)" \
    /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda/compute-sanitizer/compute-sanitizer; do
  if [ -n "$candidate" ] && [ -x "$candidate" ]; then sanitizer=$candidate; break; fi
done
[ -x "$sanitizer" ] || { echo "gpu_sanitize: compute-sanitizer not found (set COMPUTE_SANITIZER)" >&2; exit 2; }
echo "sanitizer: $sanitizer ($("$sanitizer" --version | tail -1))"

filter=()
[ -n "${GTEST_FILTER:-}" ] && filter=(--gtest_filter="$GTEST_FILTER")
found=0
echo "| binary | tool | errors | tests | state |"
echo "|---|---|---|---|---|"
for binary in "${binaries[@]}"; do
  exe=$bin_dir/$binary
  if [ ! -x "$exe" ]; then echo "| $binary | - | - | - | missing |"; continue; fi
  for tool in $tools; do
    log=$logs/$binary.$tool.log
    options=(--tool "$tool" --print-limit 20)
    [ "$tool" = memcheck ] && options+=(--leak-check full)
    timeout --signal=INT "$timeout_s" "$sanitizer" "${options[@]}" "$exe" "${filter[@]}" > "$log" 2>&1
    code=$?
    state="exit $code"
    [ $code -eq 124 ] && state="timed out after ${timeout_s}s (errors so far)"
    if grep -q "terminated before first instrumented API call" "$log"; then
      echo "| $binary | $tool | - | - | no CUDA call to check |"
      continue
    fi
    errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$log" | tail -1)
    if [ "$tool" = racecheck ]; then
      hazards=$(sed -n 's/.*RACECHECK SUMMARY: \([0-9]*\) hazard.*/\1/p' "$log" | tail -1)
      [ -n "$hazards" ] && errors=$(( ${errors:-0} + hazards ))
    fi
    # Errors printed before a time-out, when no summary was reached.
    [ -z "$errors" ] && errors=$(grep -c "^========= \(Invalid\|Program hit\|Error\|Race\|Warning\)" "$log")
    tests=$(sed -n 's/.*\[  PASSED  \] \([0-9]*\) test.*/\1 passed/p' "$log" | tail -1)
    skipped=$(sed -n 's/.*\[  SKIPPED \] \([0-9]*\) test.*/, \1 skipped/p' "$log" | tail -1)
    failed=$(sed -n 's/.*\[  FAILED  \] \([0-9]*\) test.*/, \1 failed/p' "$log" | tail -1)
    echo "| $binary | $tool | $errors | ${tests:-?}$skipped$failed | $state |"
    [ "$errors" != 0 ] && found=1
  done
done
echo "full logs: $logs"
exit $found
