#!/usr/bin/env bash
# GPU checks and timings of our bundle adjusters in one go on the GPU machine (about 2-3
# minutes of an H100):
#   1. the GPU tests: GPU vs CPU solver (with and without position and focal priors), vs Ceres
#      on BAL, and determinism (the same problem solved twice, bytes compared:
#      BundleAdjusterGpu.RepeatedSolves*);
#   2. with integration_test in the bundle: Resume.KilledWhileMappingOnTheGpu* (a GPU mapping
#      killed and resumed gives the same model files, byte for byte);
#   3. ba_bench: Ceres vs CPU vs GPU time and final cost on BAL problem-49-7776-pre, generated
#      aerial scenes of local-BA size (20k-100k observations) and of 300k observations, and on
#      a fountain model if given (the mapper's final BA, and its local adjustments one by one);
#   4. with bin/ba_bench_before (main's ba_bench) in the bundle: its GPU rows on the same
#      problems, for the before/after of the deterministic reductions.
#
#   bench/ba_gpu_check.sh BUNDLE [FOUNTAIN_MODEL_DIR]
#
# Make BUNDLE here (paths inside the repository, BUNDLE listed in .git/info/exclude):
#   bash scripts/build.sh ba_gpu_test ba_bench integration_test sfm
#   cp /work/main/build/bin/ba_bench /tmp/ba_bench_before        # main's, optional
#   ../shared/tools/device-bundle.sh BUNDLE build/bin/ba_gpu_test build/bin/ba_bench \
#       build/bin/integration_test build/bin/sfm /tmp/ba_bench_before
#   mkdir -p BUNDLE/datasets/bal
#   cp ../shared/datasets/bal/problem-49-7776-pre.txt BUNDLE/datasets/bal/
#   cp -r OUT_OF_A_FOUNTAIN_RUN/model BUNDLE/fountain-model      # optional
# and run, carrying BUNDLE: bash bench/ba_gpu_check.sh BUNDLE [BUNDLE/fountain-model]
# Success: the tests print PASSED (none FAILED or SKIPPED for want of a GPU), and in the
# ba_bench tables every GPU row's vs_ceres is within +-1e-3.
set -euo pipefail
bundle=${1:?usage: ba_gpu_check.sh BUNDLE [FOUNTAIN_MODEL_DIR]}
fountain=${2:-}
bundle=$(cd "$bundle" && pwd)
# shellcheck disable=SC1091
source "$bundle/env.sh"
export PROJ_SHARED_DATASETS="$bundle/datasets"
export PROJ_BIN_DIR="$bundle/bin"
bal="$bundle/datasets/bal/problem-49-7776-pre.txt"
[ -f "$bal" ] || { echo "ba_gpu_check.sh: $bal is missing (copy it from ../shared/datasets/bal)" >&2; exit 2; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || true
echo "CPU cores: $(nproc)"

step() { echo; echo "=== $* ($(date +%T))"; }

step "GPU bundle adjuster tests"
run_tests() {  # BINARY FILTER: runs, prints the result lines, says whether all passed
  local log status
  log=$(mktemp)
  if PROJ_TEST_TMP=$(mktemp -d) "$1" --gtest_filter="$2" >"$log" 2>&1; then status=passed; else status=FAILED; fi
  grep -E '^\[ *(OK|FAILED|SKIPPED|PASSED|RUN) *\]|^cpu:|observations|killed|differs|Failure|Expected|Which is' "$log" || true
  echo "$(basename "$1") $2: $status"
}
run_tests "$bundle/bin/ba_gpu_test" 'BundleAdjusterGpu.*'
if [ -x "$bundle/bin/integration_test" ]; then
  step "Resume on the GPU (model bytes)"
  run_tests "$bundle/bin/integration_test" 'Resume.KilledWhileMappingOnTheGpu*'
fi

problems=(--bal "$bal" --aerial 20x2000 --aerial 60x6000 --aerial 100x10000 --aerial 300x30000)
model_args=()
[ -n "$fountain" ] && model_args=(--model "$fountain" --local-sweep)

step "ba_bench (this branch): Ceres, CPU and GPU"
"$bundle/bin/ba_bench" "${problems[@]}" "${model_args[@]}" --repeats 3 --cpu-repeats 1 --ceres-repeats 1

if [ -x "$bundle/bin/ba_bench_before" ]; then
  step "ba_bench_before (main): GPU rows only (float atomics)"
  "$bundle/bin/ba_bench_before" "${problems[@]}" ${fountain:+--model "$fountain"} --repeats 3 \
    --cpu-repeats 0 --no-ceres-above 0 | grep -E 'problem|lm-pcg-gpu|device'
fi
step "done"
