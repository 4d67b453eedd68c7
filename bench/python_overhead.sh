#!/usr/bin/env bash
# The cost of running the pipeline from Python (issue 28): `sfm reconstruct` against
# gpusfm.reconstruct with the same options on the same photos, alternated, each run into a
# fresh output folder and database (so both do all the work), RUNS times each; prints every
# wall time, the medians and the overhead, and checks that both register the same images and
# points (the summaries' first line).
#   bench/python_overhead.sh [IMAGES] [RUNS] [BUILD]
# Defaults: ../shared/datasets/strecha/fountain-P11/images, 3 runs, build/. Options: --device
# cpu and whatever SFM_ARGS (environment) adds, e.g. SFM_ARGS="--max-image-size 1600".
set -euo pipefail
cd "$(dirname "$0")/.."
images=${1:-../shared/datasets/strecha/fountain-P11/images}
runs=${2:-3}
build=${3:-build}
# The Python the module was built for (CMake caches it as Python3_EXECUTABLE or, found by
# FindPython3 itself, _Python3_EXECUTABLE).
python=$(sed -n 's/^_\{0,1\}Python3_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt" | head -n 1)
python=${python:-/usr/bin/python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
read -r -a extra <<< "${SFM_ARGS:-}"

seconds_since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f\n", b - a }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

cli_times=()
python_times=()
for run in $(seq "$runs"); do
  start=$(date +%s.%N)
  "$build/bin/sfm" reconstruct "$images" -o "$work/cli$run" --device cpu "${extra[@]}" \
    > "$work/cli$run.out" 2> "$work/cli$run.log"
  cli_times+=("$(seconds_since "$start")")
  start=$(date +%s.%N)
  PYTHONPATH="$build/python" "$python" - "$images" "$work/python$run" "${extra[@]}" \
    > "$work/python$run.out" 2> "$work/python$run.log" <<'PY'
import sys
import gpusfm
images, output, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
# SFM_ARGS as keyword arguments: --max-image-size 1600 -> max_image_size="1600".
options = {}
for i, word in enumerate(extra):
    if word.startswith("--"):
        value = extra[i + 1] if i + 1 < len(extra) and not extra[i + 1].startswith("--") else True
        options[word[2:].replace("-", "_")] = value
print(gpusfm.reconstruct(images, output, device="cpu", **options).summary)
PY
  python_times+=("$(seconds_since "$start")")
  echo "run $run: sfm ${cli_times[-1]} s, python ${python_times[-1]} s" >&2
  cli_line=$(head -n 1 "$work/cli$run.out")
  python_line=$(head -n 1 "$work/python$run.out")
  if [[ "$cli_line" != "$python_line" ]]; then
    echo "python_overhead: different results: sfm '$cli_line', python '$python_line'" >&2
    exit 1
  fi
done
cli=$(printf '%s\n' "${cli_times[@]}" | median)
py=$(printf '%s\n' "${python_times[@]}" | median)
echo "result: $(head -n 1 "$work/cli1.out")"
echo "sfm reconstruct: ${cli_times[*]} s (median $cli s)"
echo "gpusfm.reconstruct: ${python_times[*]} s (median $py s)"
awk -v a="$cli" -v b="$py" 'BEGIN { printf "overhead of Python: %+.1f%% (median over median)\n", 100 * (b - a) / a }'
