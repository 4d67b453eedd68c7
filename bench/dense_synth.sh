#!/usr/bin/env bash
# Benchmark (not a test): dense reconstruction of the synthetic scene against its true depth
# (issue 24). Renders the scene once per OUT_DIR (`sfm synth OUT_DIR/scene`: images, true
# cameras, true depth maps), runs `sfm reconstruct OUT_DIR/scene/images -o OUT_DIR/run --dense
# [ARGS...]`, then measures, as bench/RESULTS-dense.md describes:
#   dense_depth_accuracy truth   the photometric and the geometric depth maps (accuracy within
#                                1%, completeness on textured pixels), per image and overall;
#   dense_cloud_accuracy synth   the fused cloud (dense/points.ply) against the true surface.
# Both put our model in the truth's frame by sfm evaluate's alignment (OUT_DIR/run/model).
#   bench/dense_synth.sh [OUT_DIR] [ARGS for sfm reconstruct...]
#   e.g. SFM=build/bin/sfm bench/dense_synth.sh /tmp/dense_synth --device cpu --dense-max-image-size 640
# Default OUT_DIR: /tmp/bench_dense_synth. Environment:
#   SFM=PATH            the sfm program (default build/bin/sfm); dense_depth_accuracy and
#                       dense_cloud_accuracy are taken from the same folder
#   SYNTH_ARGS="..."    options of `sfm synth` (default none: 12 views of 1280x960)
#   SKIP_RECONSTRUCT=1  measure OUT_DIR/run as it is
# Needs bash, awk and the three programs only (no node, no python). Prints the tables and
# writes OUT_DIR/summary.json (the tools' JSON, with the run's wall time).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=/tmp/bench_dense_synth
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then out=$1; shift; fi
sfm=${SFM:-$here/build/bin/sfm}
# shellcheck source=bench/sfm_reconstruct.sh
source "$here/bench/sfm_reconstruct.sh"
bin=$(dirname "$sfm")
for program in "$sfm" "$bin/dense_depth_accuracy" "$bin/dense_cloud_accuracy"; do
  [ -x "$program" ] || { echo "bench: no $program (build sfm and the benchmarks, or set SFM)" >&2; exit 2; }
done
scene=$out/scene
run=$out/run
mkdir -p "$out"

synth_args=${SYNTH_ARGS:-}
if [ ! -d "$scene/depth" ] || [ "$(cat "$scene/synth_args.txt" 2>/dev/null)" != "$synth_args" ]; then
  rm -rf "$scene"
  # shellcheck disable=SC2086  # SYNTH_ARGS is a list of options
  "$sfm" synth "$scene" $synth_args >/dev/null
  echo "$synth_args" > "$scene/synth_args.txt"
fi

seconds=null
if [ "${SKIP_RECONSTRUCT:-0}" != 1 ]; then
  rm -rf "$run"
  seconds=$(timed_reconstruct "$sfm" "$out/run.log" "$scene/images" -o "$run" --dense "$@")
  echo "sfm reconstruct --dense $*: $seconds s"
fi
depth_maps=$run/dense/stereo/depth_maps
[ -d "$depth_maps" ] || { echo "bench: no depth maps in $depth_maps" >&2; exit 1; }

truth_args=(--images "$scene/images" --model "$run/model" --gt "$scene/gt_dense_cameras")
results=()
for kind in photometric geometric; do
  if ls "$depth_maps"/*."$kind".bin >/dev/null 2>&1; then
    echo "== $kind depth maps"
    "$bin/dense_depth_accuracy" truth "$scene/depth" "$depth_maps" --kind "$kind" "${truth_args[@]}" \
      --json "$out/depth_$kind.json"
    results+=("depth_$kind")
  fi
done
if [ -f "$run/dense/points.ply" ]; then
  echo "== fused cloud"
  "$bin/dense_cloud_accuracy" synth "$run/dense/points.ply" --true-depth "$scene/depth" \
    --gt "$scene/gt_dense_cameras" --model "$run/model" --images "$scene/images" --json "$out/cloud.json"
  results+=(cloud)
fi

{
  printf '{\n"reconstruct_args": "%s",\n"seconds": %s' "$*" "$seconds"
  for name in "${results[@]}"; do
    printf ',\n"%s": ' "$name"
    cat "$out/$name.json"
  done
  printf '}\n'
} > "$out/summary.json"
echo "summary: $out/summary.json"
