#!/usr/bin/env bash
# compute-sanitizer memcheck and racecheck over the GPU test binaries (needs a GPU).
#
#   scripts/gpu_sanitize.sh BIN_DIR [BINARY[:GTEST_FILTER]...]
#
# BIN_DIR holds the test binaries (build/bin, or a device bundle's bin/). Without BINARY
# arguments, every GPU test binary runs with its sanitizer selection below: the tests that
# launch every kernel of cuda/ at least once on small inputs (and still check the results),
# so that both tools finish on all binaries in about 4 minutes of an H100. Prints one
# markdown row per binary and tool with the error count (hazards for racecheck), the tests
# passed and the run's state, and exits 1 when any error was found or a run did not finish.
#   TOOLS="memcheck racecheck"   the sanitizer tools run
#   SANITIZE_TIMEOUT=90          seconds per binary and tool (a timed-out run still reports
#                                the errors seen so far, and fails the script)
#   GTEST_FILTER=...             replaces every binary's selection ('*' runs all tests)
#   PROJ_SHARED_DATASETS=dir     the datasets: the SIFT selection reads
#                                strecha/fountain-P11/images/0000.jpg and 0001.jpg
#   COMPUTE_SANITIZER=path       the sanitizer, when not on PATH or in the CUDA toolkit
#   SANITIZE_LOGS=dir            keeps each run's full output there
#
# Which selected test launches which kernel (cuda/*):
#  sift_gpu_test         ByteAndFloatInputsAgreeOnSmallCrop (320x240; upsampled, not, and the
#                        trilateral scale space): PrepareInput (bytes, floats, both branches),
#                        Blur (the radii of the default sigmas and both first blurs),
#                        Decimate, Difference, Detect, Orientation, Descriptor, CUB sort,
#                        OrderTies (sift_order.cu);
#                        MatchesCpuOnStrechaCrop: the same against the CPU SIFT (640x480).
#  matching_gpu_test     RecoversAPermutation (3000 x 3000): Normalize, BestTwo, Finalize.
#  trilateral_gpu_test   SmallImageRunsEveryKernelAndMatchesCpu (64x48) and the 8x8 worked
#                        example: Gradients, RangeInit/Reduce/Finish, GradientFilter,
#                        StackLevel, RegionFromStack, RegionRing, ZeroCounts, LevelKeys,
#                        DetailPublished, DetailOptimized<exact, fast> (warp and thread
#                        paths), DetailDiskThread<exact, fast>, CUB sort;
#                        ConstantImageAndGuard: the constant-image branches.
#  trilateral_level_test all (150x110): the SIFT scale-space hook (RegionRing, detail).
#  klt_gpu_test          SmallSequenceRunsEveryKernelAtBothWindowSizes (256x192, 7 frames):
#                        EightBitToLevel, PyramidDown, PaintMask, MinEigen, Candidates, Rank,
#                        SuppressionRound, KeptFlags, WriteCorners, LucasKanade<21, 31>,
#                        KeepFlags, ScatterKept, CUB sort and scan;
#                        AffineRefinementMatchesCpuUnderZoom (640x480, 12 frames): the drift
#                        correction's affine refinement (klt_affine_refine.cu).
#  ba_gpu_test           MatchesCpuOnSyntheticSceneForEachLoss (10 images, 3 losses) and
#                        LocalConfigWithConstantsMatchesCpu: every kernel of cuda/ba;
#                        PriorsOnALocalConfigMatchCpu: the position and focal prior terms.
# (trilateral_detail_emulation_test runs device code on the host: nothing to instrument.)
set -uo pipefail
bin_dir=${1:?usage: gpu_sanitize.sh BIN_DIR [BINARY[:GTEST_FILTER]...]}; shift
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(
  "sift_gpu_test:SiftGpu.ByteAndFloatInputsAgreeOnSmallCrop:SiftGpu.MatchesCpuOnStrechaCrop"
  "matching_gpu_test:DescriptorMatcherGpu.RecoversAPermutation:DescriptorMatcherGpu.RejectsUnknownSets"
  "trilateral_gpu_test:TrilateralGpu.WorkedExampleMatchesCpu:TrilateralGpu.SmallImageRunsEveryKernelAndMatchesCpu:TrilateralGpu.ConstantImageAndGuard"
  "trilateral_level_test:*"
  "klt_gpu_test:KltGpuTracker.SmallSequenceRunsEveryKernelAtBothWindowSizes:KltGpuTracker.AffineRefinementMatchesCpuUnderZoom"
  "ba_gpu_test:BundleAdjusterGpu.MatchesCpuOnSyntheticSceneForEachLoss:BundleAdjusterGpu.LocalConfigWithConstantsMatchesCpu:BundleAdjusterGpu.PriorsOnALocalConfigMatchCpu")
tools=${TOOLS:-memcheck racecheck}
timeout_s=${SANITIZE_TIMEOUT:-90}
logs=${SANITIZE_LOGS:-$(mktemp -d)}
mkdir -p "$logs"

sanitizer=${COMPUTE_SANITIZER:-}
for candidate in "$sanitizer" "$(command -v compute-sanitizer || true)" \
    /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda/compute-sanitizer/compute-sanitizer; do
  if [ -n "$candidate" ] && [ -x "$candidate" ]; then sanitizer=$candidate; break; fi
done
[ -x "$sanitizer" ] || { echo "gpu_sanitize: compute-sanitizer not found (set COMPUTE_SANITIZER)" >&2; exit 2; }
echo "sanitizer: $sanitizer ($("$sanitizer" --version | tail -1))"

found=0
echo "| binary | tool | errors | tests | state | seconds |"
echo "|---|---|---|---|---|---|"
for run in "${runs[@]}"; do
  binary=${run%%:*}
  selection=*
  [ "$binary" != "$run" ] && selection=${run#*:}
  selection=${GTEST_FILTER:-$selection}
  exe=$bin_dir/$binary
  if [ ! -x "$exe" ]; then echo "| $binary | - | - | - | missing |  |"; found=1; continue; fi
  for tool in $tools; do
    log=$logs/$binary.$tool.log
    options=(--tool "$tool" --print-limit 20)
    [ "$tool" = memcheck ] && options+=(--leak-check full)
    start=$SECONDS
    timeout --signal=INT "$timeout_s" "$sanitizer" "${options[@]}" "$exe" \
      --gtest_filter="$selection" > "$log" 2>&1
    code=$?
    seconds=$((SECONDS - start))
    state="exit $code"
    if [ $code -eq 124 ]; then state="timed out after ${timeout_s}s (errors so far)"; found=1; fi
    if grep -q "terminated before first instrumented API call" "$log"; then
      echo "| $binary | $tool | - | - | no CUDA call to check | $seconds |"
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
    echo "| $binary | $tool | $errors | ${tests:-?}$skipped$failed | $state | $seconds |"
    [ "$errors" != 0 ] && found=1
    [ $code -ne 0 ] && found=1
  done
done
echo "full logs: $logs"
exit $found
