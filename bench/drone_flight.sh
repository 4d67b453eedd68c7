#!/usr/bin/env bash
# Benchmark (not a test): renders a synthetic drone survey with GPS in the EXIF and
# reconstructs it with the spatial matcher, then evaluates against the ground truth.
#   bench/drone_flight.sh [NUM_IMAGES] [OUT_DIR] [DEVICE] [WIDTH] [HEIGHT]
# Defaults: 150 images, /tmp/bench_flight, auto, 1280 x 960. Prints the render time per image
# (from the synth log), the selected pairs, stage times and the pose errors.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
count=${1:-150}
out=${2:-/tmp/bench_flight}
device=${3:-auto}
width=${4:-1280}
height=${5:-960}
sfm=$here/build/bin/sfm
[ -x "$sfm" ] || { echo "bench: build the project first (scripts/build.sh)" >&2; exit 2; }
rm -rf "$out"; mkdir -p "$out"
"$sfm" synth "$out/flight" --flight --num-images "$count" --width "$width" --height "$height" 2>&1 \
  | grep "synthetic flight" || true
start=$(date +%s.%N)
"$sfm" reconstruct "$out/flight/images" -o "$out/recon" --device "$device" --matcher spatial \
  2> "$out/reconstruct.log" >/dev/null || true
end=$(date +%s.%N)
grep -E "^(GPS|pair selection|stage)" "$out/reconstruct.log" || true
python3 -c "print(f'reconstruct wall time: {$end - $start:.1f} s')"
"$sfm" evaluate "$out/recon/model" --gt "$out/flight/gt_dense_cameras" || true
