#!/usr/bin/env bash
# Benchmark (not a test): renders a synthetic drone survey with GPS in the EXIF (sfm synth
# --flight), reconstructs it with the spatial matcher, and measures it against the ground
# truth: registered images, camera position error after a similarity alignment (sfm
# evaluate) and the georeferencing error with no alignment at all
# (bench/flight_georeference_error.py), stage times, and wall and CPU seconds of each phase.
#   bench/drone_flight.sh [NUM_IMAGES] [OUT_DIR] [DEVICE] [WIDTH] [HEIGHT]
# Defaults: 150 images, /tmp/bench_flight, auto, 1280 x 960. Environment:
#   SFM=PATH        the sfm to run (build/bin/sfm); one in a device bundle's bin/ runs with
#                   the bundle's env.sh, and the bundle's proj/ folder (EGM96 grid) as PROJ data
#   PHASE=all|render|reconstruct   render only (into OUT_DIR/flight), or reconstruct a flight
#                   rendered before (by a previous call on the same machine), or both [all]
#   THREADS=N       --threads of reconstruct [all]
#   NICE=N          run sfm under nice -n N [0]
#   EXTRA="ARGS"    more reconstruct options (e.g. "--gpu-bundle-adjustment")
#   SYNTH_EXTRA="ARGS"  more `sfm synth --flight` options (e.g. "--radial-k1 -0.05": a lens
#                   with distortion)
#   LIMIT_S=N       interrupt reconstruct (SIGINT: it stops after the current unit) after N s,
#                   so a run that would overrun a device call still reports how far it got
#   RESUME=1        keep OUT_DIR/recon: reconstruct resumes an interrupted run (its database)
#   RESULTS_DIR=DIR copy summary.txt, the logs and report.json there (e.g. the device's $OUT)
# Prints (and writes to OUT_DIR/summary.txt) one line per figure.
#
# The 1,000-image GPU run, from a bundle made here (bench/make_flight_bundle.sh: .device-flight),
# carried by name; output under build-flight/ (git-ignored, so it stays on a warm machine
# between calls). In one call, or rendering in a first call and reconstructing in a second:
#   SFM=.device-flight/bin/sfm RESULTS_DIR=$OUT bash bench/drone_flight.sh 1000 build-flight/f1000 gpu
#   SFM=.device-flight/bin/sfm PHASE=render bash bench/drone_flight.sh 1000 build-flight/f1000 gpu
#   SFM=.device-flight/bin/sfm PHASE=reconstruct LIMIT_S=540 RESULTS_DIR=$OUT \
#     bash bench/drone_flight.sh 1000 build-flight/f1000 gpu
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)  # not "here": the bundle's env.sh sets that
count=${1:-150}
out=${2:-/tmp/bench_flight}
device=${3:-auto}
width=${4:-1280}
height=${5:-960}
sfm=${SFM:-$repo/build/bin/sfm}
phase=${PHASE:-all}
nice_level=${NICE:-0}
threads=()
[ -n "${THREADS:-}" ] && threads=(--threads "$THREADS")
bundle=$(cd "$(dirname "$sfm")/.." && pwd)
if [ -f "$bundle/env.sh" ]; then
  # shellcheck disable=SC1091
  source "$bundle/env.sh"
  if [ -f "$bundle/proj/egm96_15.gtx" ]; then export PROJ_DATA="$bundle/proj" PROJ_LIB="$bundle/proj"; fi
fi
[ -x "$sfm" ] || { echo "bench: no sfm at '$sfm' (build it: scripts/build.sh sfm)" >&2; exit 2; }
case $phase in all|render|reconstruct) ;; *) echo "bench: PHASE must be all, render or reconstruct" >&2; exit 2 ;; esac
mkdir -p "$out"
summary=$out/summary.txt
[ "$phase" = reconstruct ] || : > "$summary"
say() { echo "$*" | tee -a "$summary"; }
# shellcheck source=bench/gpu_memory_sampler.sh
source "$repo/bench/gpu_memory_sampler.sh"
say "machine: $(nproc) cores, $(uname -n); load: $(cut -d' ' -f1-3 /proc/loadavg)"

# Runs a command, its stderr to $1; prints "WALL_S USER_S SYS_S PEAK_MB EXIT" (without
# /usr/bin/time, which the GPU machine may lack).
measure() {
  local log=$1; shift
  python3 - "$log" "$@" <<'PY'
import resource, subprocess, sys, time
start = time.time()
with open(sys.argv[1], "w") as log:
    status = subprocess.call(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=log)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{time.time() - start:.1f} {usage.ru_utime:.1f} {usage.ru_stime:.1f} {usage.ru_maxrss // 1024} {status}")
PY
}

if [ "$phase" != reconstruct ]; then
  rm -rf "$out/flight"
  read -r wall user sys peak status < <(measure "$out/synth.log" nice -n "$nice_level" "$sfm" synth \
    "$out/flight" --flight --num-images "$count" --width "$width" --height "$height" ${SYNTH_EXTRA:-})
  [ "$status" = 0 ] || { echo "bench: sfm synth failed (see $out/synth.log)" >&2; exit 1; }
  say "render: $count images of ${width}x$height in $wall s wall, $user s user + $sys s sys CPU ($(grep -o '[0-9.]* s per image' "$out/synth.log" | tail -1))"
fi
if [ "$phase" != render ]; then
  [ -d "$out/flight/images" ] || { echo "bench: no rendered flight in '$out/flight' (PHASE=render first)" >&2; exit 2; }
  [ "${RESUME:-0}" = 1 ] || rm -rf "$out/recon"
  # shellcheck disable=SC2086
  limit=()
  [ -n "${LIMIT_S:-}" ] && limit=(timeout -s INT -k 30 "$LIMIT_S")
  gpu_sampler_start "$out/reconstruct.gpu"
  read -r wall user sys peak status < <(measure "$out/reconstruct.log" "${limit[@]}" nice -n "$nice_level" \
    "$sfm" reconstruct "$out/flight/images" -o "$out/recon" --device "$device" --matcher spatial \
    "${threads[@]}" ${EXTRA:-})
  gpu_peak=$(gpu_sampler_stop)
  say "reconstruct: exit $status$([ "$status" = 130 ] || [ "$status" = 124 ] && echo " (interrupted at LIMIT_S=$LIMIT_S)"), $wall s wall, $user s user + $sys s sys CPU, peak host $peak MB, peak GPU $gpu_peak"
  # (|| true: a log without such lines is not an error of the benchmark)
  [ -f "$out/recon/report.json" ] || { grep -E "registered images: " "$out/reconstruct.log" | tail -1 | while read -r line; do say "  last: $line"; done; } || true
  { grep -E "^(GPS|pair selection|mapper:|partitioned mapping:|merged [0-9]+ of)" "$out/reconstruct.log" | head -8 | while read -r line; do say "  $line"; done; } || true
  if [ -f "$out/recon/report.json" ]; then
    python3 - "$out/recon/report.json" <<'PY' | tee -a "$summary"
import json, sys
r = json.load(open(sys.argv[1]))
print(f"registered: {r['registered_images']}/{r['usable_images']}, points {r['points']}, "
      f"pairs matched {r.get('pairs_matched', '?')}, verified {r.get('pairs_verified', '?')}")
stages = r.get("stage_seconds", {})
print("stages (s): " + ", ".join(f"{k} {v:.1f}" for k, v in stages.items() if "." not in k))
print("mapping steps (s): " + ", ".join(f"{k[8:]} {v:.1f}" for k, v in stages.items() if k.startswith("mapping.")))
PY
    "$sfm" evaluate "$out/recon/model" --gt "$out/flight/gt_dense_cameras" 2>/dev/null | head -3 | tee -a "$summary" || true
    python3 "$repo/bench/flight_georeference_error.py" "$out/recon" "$out/flight" | tee -a "$summary" || true
  fi
fi
if [ -n "${RESULTS_DIR:-}" ]; then
  mkdir -p "$RESULTS_DIR"
  cp "$summary" "$RESULTS_DIR/"
  for f in synth.log reconstruct.log recon/report.json recon/georeference.json; do
    [ -f "$out/$f" ] && cp "$out/$f" "$RESULTS_DIR/$(basename "$f")"
  done
fi
