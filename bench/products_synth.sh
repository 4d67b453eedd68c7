#!/usr/bin/env bash
# Benchmark (not a test): the map products of a synthetic drone flight against its truth
# (issue 25). Renders a flight of N images with its true surface model and orthophoto
# (`sfm synth --flight --truth-rasters`), runs `sfm reconstruct --products` on it, and measures
# OUT_DIR/run/dsm.tif and OUT_DIR/run/orthophoto.tif with bench/products_synth_eval.py (DSM
# |height - true| median and p90 in metres and GSDs, as placed and after the best shift;
# orthophoto position error of true-texture patches found in ours, in pixels).
# With ORTHO_ON_TRUTH=1 it also renders the orthophoto alone on the TRUE surface model
# (bench/orthophoto_on_truth on `sfm undistort`'s images of the same model) and measures that.
#   bench/products_synth.sh [OUT_DIR] [ARGS for sfm reconstruct...]
#   e.g. bench/products_synth.sh /tmp/products_synth --device gpu
# Default OUT_DIR: /tmp/bench_products_synth. Environment:
#   SFM=PATH            the sfm program (default build/bin/sfm); orthophoto_on_truth is taken
#                       from the same folder
#   NUM_IMAGES=N        images of the flight (default 150)
#   SYNTH_ARGS="..."    more options of `sfm synth --flight` (e.g. "--width 960 --height 720")
#   SKIP_RECONSTRUCT=1  measure OUT_DIR/run as it is
#   ORTHO_ON_TRUTH=1    also the orthophoto on the true surface (OUT_DIR/on_truth)
# Needs /usr/bin/python3 with numpy, scipy and GDAL's bindings (Debian: python3-numpy,
# python3-scipy, python3-gdal; installed here when missing). Writes OUT_DIR/products.json (and on_truth.json).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
# The evaluation's Python packages, where Debian's apt is (not on the GPU machine: evaluate there
# with SKIP_RECONSTRUCT=1 on a copy of the outputs).
if command -v dpkg-query >/dev/null; then
  bash "$here/scripts/apt_install.sh" python3-numpy python3-scipy python3-gdal
fi
out=/tmp/bench_products_synth
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then out=$1; shift; fi
sfm=${SFM:-$here/build/bin/sfm}
python=/usr/bin/python3
# shellcheck source=bench/sfm_reconstruct.sh
source "$here/bench/sfm_reconstruct.sh"
bin=$(dirname "$sfm")
[ -x "$sfm" ] || { echo "bench: no $sfm (build sfm, or set SFM)" >&2; exit 2; }
flight=$out/flight
run=$out/run
mkdir -p "$out"

synth_args="--num-images ${NUM_IMAGES:-150} ${SYNTH_ARGS:-}"
if [ ! -f "$flight/truth/truth.json" ] || [ "$(cat "$flight/synth_args.txt" 2>/dev/null)" != "$synth_args" ]; then
  rm -rf "$flight"
  # shellcheck disable=SC2086  # synth_args is a list of options
  "$sfm" synth "$flight" --flight --truth-rasters $synth_args >/dev/null
  echo "$synth_args" > "$flight/synth_args.txt"
fi

if [ "${SKIP_RECONSTRUCT:-0}" != 1 ]; then
  rm -rf "$run"
  seconds=$(timed_reconstruct "$sfm" "$out/run.log" "$flight/images" -o "$run" --products "$@")
  echo "sfm reconstruct --products $*: $seconds s"
fi
echo "== products of the reconstruction ($run)"
"$python" "$here/bench/products_synth_eval.py" "$run" "$flight" --json "$out/products.json" || true

if [ "${ORTHO_ON_TRUTH:-0}" = 1 ]; then
  [ -x "$bin/orthophoto_on_truth" ] || { echo "bench: no $bin/orthophoto_on_truth (build the benchmarks)" >&2; exit 2; }
  undistorted=$out/undistorted
  [ -d "$undistorted/sparse" ] || "$sfm" undistort "$run/model" -o "$undistorted" --image-path "$flight/images" -q
  "$bin/orthophoto_on_truth" --model "$undistorted/sparse" --images "$undistorted/images" \
    --flight "$flight" -o "$out/on_truth"
  "$python" "$here/bench/rasters_to_geotiff.py" "$out/on_truth"
  echo "== the orthophoto alone, on the true surface model ($out/on_truth)"
  "$python" "$here/bench/products_synth_eval.py" "$out/on_truth" "$flight" --json "$out/on_truth.json"
fi
