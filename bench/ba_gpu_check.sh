#!/usr/bin/env bash
# GPU checks and timings of our bundle adjusters in one go on the GPU machine (about 2-3
# minutes of an H100):
#   1. the GPU tests: GPU vs CPU solver (with and without position and focal priors), vs Ceres
#      on BAL, and determinism (the same problem solved twice, bytes compared:
#      BundleAdjusterGpu.RepeatedSolves*, BalLadybug49.RepeatedGpuSolves*);
#   2. Resume.KilledWhileMappingOnTheGpu*: a GPU mapping killed and resumed gives the same model
#      files, byte for byte;
#   3. ba_bench: Ceres vs CPU vs GPU time and final cost on BAL problem-49-7776-pre, generated
#      aerial scenes of local-BA size (20k-100k observations) and of 300k observations, and
#      fountain-P11 (the mapper's final BA, and its 11 local BAs one after the other) when the
#      bundle holds its model;
#   4. main's ba_bench on the same problems, GPU rows only: the before of this change.
#
# Here (the development machine): builds the targets and packs BUNDLE, about 30 MB (the
# executables xz-packed, the libraries as ../shared/tools/device-bundle.sh packs them, the BAL
# problem copied from ../shared/datasets/bal, the fountain model's .bin files if given, main's
# ba_bench from /work/main/build/bin or $BEFORE):
#   bench/ba_gpu_check.sh make BUNDLE [FOUNTAIN_MODEL_DIR]
# On the GPU machine (BUNDLE inside the repository, listed in .git/info/exclude, carried):
#   bench/ba_gpu_check.sh run BUNDLE
# Success: every test line OK (none FAILED, none SKIPPED for want of a GPU), "all passed" after
# each test binary, and in the ba_bench tables every lm-pcg-gpu row's vs_ceres within +-1e-3.
set -euo pipefail
mode=${1:-} bundle=${2:-}
[ -n "$bundle" ] && { [ "$mode" = make ] || [ "$mode" = run ]; } ||
  { echo "usage: ba_gpu_check.sh make BUNDLE [FOUNTAIN_MODEL_DIR] | run BUNDLE" >&2; exit 2; }
repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/packed_bundle.sh
source "$repo/scripts/packed_bundle.sh"

if [ "$mode" = make ]; then
  fountain=${3:-}
  before=${BEFORE:-/work/main/build/bin/ba_bench}
  cd "$repo"
  bash scripts/build.sh ba_gpu_test ba_bench integration_test sfm
  stage=$(mktemp -d)
  executables=(build/bin/ba_gpu_test build/bin/ba_bench build/bin/integration_test build/bin/sfm)
  if [ -x "$before" ]; then
    cp "$before" "$stage/ba_bench_before"
    executables+=("$stage/ba_bench_before")
  else
    echo "ba_gpu_check.sh: no $before (main's ba_bench): no before figures" >&2
  fi
  pack_bundle "$bundle" "${executables[@]}"
  rm -rf "$stage"
  mkdir -p "$bundle/datasets/bal"
  cp ../shared/datasets/bal/problem-49-7776-pre.txt "$bundle/datasets/bal/"
  if [ -n "$fountain" ]; then
    mkdir -p "$bundle/fountain-model"
    cp "$fountain"/cameras.bin "$fountain"/images.bin "$fountain"/points3D.bin "$bundle/fountain-model/"
  fi
  echo "$bundle: $(du -sh "$bundle" | cut -f1)"
  exit 0
fi

open_bundle "$bundle"
bundle=$(cd "$bundle" && pwd)
bal="$bundle/datasets/bal/problem-49-7776-pre.txt"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || true
echo "CPU cores: $(nproc)"

step() { echo; echo "=== $* ($(date +%T))"; }
run_tests() {  # BINARY FILTER: runs, prints the result lines, says whether all passed
  local log status
  log=$(mktemp)
  if PROJ_TEST_TMP=$(mktemp -d) "$1" --gtest_filter="$2" >"$log" 2>&1; then status="all passed"; else status=FAILED; fi
  grep -E '^\[ *(OK|FAILED|SKIPPED|PASSED) *\]|^cpu:|observations|killed|differs|Failure|Expected|Which is' "$log" || true
  echo "$(basename "$1") $2: $status"
}

step "GPU bundle adjuster tests"
run_tests "$bin/ba_gpu_test" 'BundleAdjusterGpu.*:BalLadybug49.*'
step "Resume on the GPU (model bytes)"
run_tests "$bin/integration_test" 'Resume.KilledWhileMappingOnTheGpu*'

problems=(--bal "$bal" --aerial 20x2000 --aerial 60x6000 --aerial 100x10000 --aerial 300x30000)
[ -d "$bundle/fountain-model" ] && problems+=(--model "$bundle/fountain-model")
step "ba_bench (this change): Ceres, CPU and GPU"
"$bin/ba_bench" "${problems[@]}" --local-sweep --repeats 3 --cpu-repeats 1 --ceres-repeats 1
step "ba_bench (this change), priors on every image: Ceres, CPU and GPU"
"$bin/ba_bench" --aerial 100x10000 --priors 0.05 --repeats 3

if [ -x "$bin/ba_bench_before" ]; then
  step "ba_bench_before (main): GPU rows only"
  "$bin/ba_bench_before" "${problems[@]}" --repeats 3 --cpu-repeats 0 --no-ceres-above 0 |
    grep -E "problem|lm-pcg-gpu|device" || true
fi
step "done"
