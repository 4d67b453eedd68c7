#!/usr/bin/env bash
# Benchmark (not a test): how reconstruction grows with a survey's size (issue 27). Renders
# one synthetic nadir flight of the largest size (sfm synth --flight, GPS in the EXIF) and
# reconstructs its first N images for each size given (a strip of the flight's lines, as a
# smaller survey of the same site), each with bench/drone_flight.sh: registered images,
# position error against the truth, stage and mapping-step times, wall and CPU, peak host
# and GPU memory.
#   bench/scaling_flight.sh OUT_DIR SIZE...        e.g. build-flight/scale 1000 2000 5000 10000
# Environment: WIDTH, HEIGHT (640 x 480), PHASE=all|render|reconstruct (render: only the
# largest flight; reconstruct: the sizes from a flight rendered before on this machine), SFM,
# EXTRA, LIMIT_S, RESUME, THREADS, DEVICE (auto), RESULTS_DIR (passed to drone_flight.sh; each size's files go to
# RESULTS_DIR/N).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: scaling_flight.sh OUT_DIR SIZE...}
shift
[ $# -gt 0 ] || { echo "scaling_flight: give at least one size" >&2; exit 2; }
sizes=("$@")
largest=0
for n in "${sizes[@]}"; do
  [[ $n =~ ^[0-9]+$ ]] && [ "$n" -ge 3 ] || { echo "scaling_flight: bad size '$n'" >&2; exit 2; }
  [ "$n" -gt "$largest" ] && largest=$n
done
width=${WIDTH:-640}
height=${HEIGHT:-480}
phase=${PHASE:-all}
case $phase in all|render|reconstruct) ;; *) echo "scaling_flight: PHASE must be all, render or reconstruct" >&2; exit 2 ;; esac
full=$out/full
if [ "$phase" != reconstruct ]; then
  mkdir -p "$full"
  PHASE=render RESULTS_DIR="" bash "$repo/bench/drone_flight.sh" "$largest" "$full" auto "$width" "$height"
fi
[ "$phase" != render ] || exit 0
[ -d "$full/flight/images" ] || { echo "scaling_flight: no flight in '$full' (PHASE=render first)" >&2; exit 2; }

# The first N images (in name order, the order they were flown) with their truth.
subset() {  # N DIR
  local n=$1 dir=$2/flight
  rm -rf "$dir"
  mkdir -p "$dir/images" "$dir/gt_dense_cameras"
  cp "$full/flight/gt_enu_origin.txt" "$dir/"
  local name
  while read -r name; do
    ln -s "$(cd "$full/flight/images" && pwd)/$name" "$dir/images/$name"
    ln -s "$(cd "$full/flight/gt_dense_cameras" && pwd)/$name.camera" "$dir/gt_dense_cameras/$name.camera"
  done < <(ls "$full/flight/images" | sort | head -n "$n")
}

for n in "${sizes[@]}"; do
  run=$out/n$n
  if [ "$n" = "$largest" ]; then
    mkdir -p "$run"
    rm -rf "$run/flight"
    ln -s "$(cd "$full/flight" && pwd)" "$run/flight"
  else
    subset "$n" "$run"
  fi
  echo "== $n images (${width}x$height)"
  results=()
  [ -n "${RESULTS_DIR:-}" ] && results=(RESULTS_DIR="$RESULTS_DIR/$n")
  env PHASE=reconstruct "${results[@]}" bash "$repo/bench/drone_flight.sh" "$n" "$run" "${DEVICE:-auto}" "$width" "$height" || \
    echo "scaling_flight: the $n-image run failed (see $run/reconstruct.log)"
done
