#!/usr/bin/env bash
# Benchmark (not a test): feature extraction and descriptor matching of a synthetic drone
# flight on 1, 2, 4 ... GPUs of one host (`--gpus N`), the same images each time. Prints each
# run's stage times (the program's own stage timers), the speed-up over one GPU and per GPU,
# and checks that every run (every GPU count, every repeat) wrote the same images, cameras,
# keypoints, descriptors and matches as the first one-GPU run, byte for byte
# (bench/database_compare).
#
# Build here and bundle (the GPU machine has no sqlite3 and lacks some libraries):
#   bash scripts/build.sh sfm database_compare
#   ../shared/tools/device-bundle.sh bundle build/bin/sfm build/bin/database_compare
# Run on the GPU machine, from the repository root:
#   bench/multi_gpu_bench.sh bundle [NUM_IMAGES] [GPU_COUNTS]
# Defaults: 1000 images; GPU counts "1 2 4" limited to the GPUs visible. Environment:
#   WORK=/tmp/multi_gpu_bench  scratch folder; the flight rendered there is reused by a
#                              later run with the same NUM_IMAGES and size
#   WIDTH=1280 HEIGHT=960      image size of the flight
#   REPEATS=2                  runs per GPU count (the best is kept for the speed-up)
#   MATCH_ARGS=                more arguments for `sfm match` (e.g. --spatial-neighbors 40)
#   DEVICE=cpu                 dry run without a GPU (the CPU path, GPU count 1 only)
# Rendering a 1280x960 image takes about 1.1 CPU-seconds (measured on the 2-core dev
# machine), so a 1,000-image flight takes about 35-60 s on 32 cores and is rendered once.
# Disk: about 0.7 GB of database per run at the defaults. Exit code 0 when every database
# equals the first, 1 otherwise.
set -euo pipefail
bundle=${1:?usage: bench/multi_gpu_bench.sh BUNDLE_DIR [NUM_IMAGES] [GPU_COUNTS]}
count=${2:-1000}
width=${WIDTH:-1280}
height=${HEIGHT:-960}
repeats=${REPEATS:-2}
MATCH_ARGS=${MATCH_ARGS:-}
work=${WORK:-/tmp/multi_gpu_bench}
# shellcheck disable=SC1091
source "$bundle/env.sh"
sfm=$bundle/bin/sfm
compare=$bundle/bin/database_compare
for tool in "$sfm" "$compare"; do
  [ -x "$tool" ] || { echo "bench: $tool missing; bundle build/bin/sfm and build/bin/database_compare" >&2; exit 2; }
done
counts=${3:-}
if [ "${DEVICE:-gpu}" = cpu ]; then
  # A dry run of the script on a machine without GPU: the CPU path, one "GPU count".
  counts=1
  device_args=(--device cpu)
  echo "machine: $(nproc) cores; --device cpu (dry run: one CPU worker)"
else
  if command -v nvidia-smi > /dev/null; then
    visible=$(nvidia-smi -L | grep -c '^GPU' || true)
    names=$(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | sed 's/^ *//' | paste -sd ';')
  else
    visible=$(ls /dev/nvidia[0-9]* 2>/dev/null | wc -l)
    names="(no nvidia-smi)"
  fi
  [ "$visible" -gt 0 ] || { echo "bench: no GPU visible" >&2; exit 2; }
  if [ -z "$counts" ]; then
    for g in 1 2 4 8; do [ "$g" -le "$visible" ] && counts="$counts $g"; done
  fi
  device_args=(--device gpu)
  echo "machine: $(nproc) cores; $visible GPU(s): $names"
fi
echo "flight: $count images of ${width}x${height}; GPU counts:$counts; $repeats run(s) each"

# The flight, rendered once.
mkdir -p "$work"
flight=$work/flight_${count}_${width}x${height}
if [ "$(ls "$flight/images" 2>/dev/null | grep -c '\.jpg$')" != "$count" ]; then
  rm -rf "$flight"
  start=$(date +%s.%N)
  "$sfm" synth "$flight" --flight --num-images "$count" --width "$width" --height "$height" \
    > /dev/null 2> "$work/synth.log" || { cat "$work/synth.log" >&2; exit 2; }
  end=$(date +%s.%N)
  python3 -c "print(f'rendering: {$end - $start:.1f} s for $count images ({($end - $start) / $count * 1000:.0f} ms per image)')"
else
  echo "rendering: reusing $flight"
fi

# Seconds of `stage NAME: X s` in a log.
stage_seconds() { grep -m1 "^stage $2: " "$1" | sed 's/.*: \([0-9.e+-]*\) s$/\1/'; }

results=$work/results.txt
: > "$results"
databases=()
for g in $counts; do
  for r in $(seq 1 "$repeats"); do
    db=$work/gpus${g}_run$r.db
    rm -f "$db" "$db-journal"
    log=$work/gpus${g}_run$r
    gpus=("${device_args[@]}")
    [ "${DEVICE:-gpu}" = cpu ] || gpus+=(--gpus "$g")
    "$sfm" extract "$flight/images" --database "$db" "${gpus[@]}" > "$log.extract.out" 2> "$log.extract.log" \
      || { echo "bench: sfm extract --gpus $g failed:" >&2; tail -20 "$log.extract.log" >&2; exit 2; }
    # shellcheck disable=SC2086
    "$sfm" match --database "$db" "${gpus[@]}" --matcher spatial --no-verify $MATCH_ARGS \
      > "$log.match.out" 2> "$log.match.log" \
      || { echo "bench: sfm match --gpus $g failed:" >&2; tail -20 "$log.match.log" >&2; exit 2; }
    extraction=$(stage_seconds "$log.extract.log" feature_extraction)
    matching=$(stage_seconds "$log.match.log" matching)
    echo "$g $r $extraction $matching" >> "$results"
    printf 'gpus %s run %s: extraction %.2f s, matching %.2f s  [%s; %s]\n' "$g" "$r" "$extraction" "$matching" \
      "$(grep -m1 'extraction: .* to extract' "$log.extract.log" | sed 's/.* with //')" \
      "$(cat "$log.match.out")"
    databases+=("$db")
  done
  grep -h "warning" "$work"/gpus"${g}"_run*.log | sort | uniq -c | head -5 || true
done

echo
python3 - "$results" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
best = {}
for g, r, e, m in rows:
    g, e, m = int(g), float(e), float(m)
    b = best.setdefault(g, [e, m])
    best[g] = [min(b[0], e), min(b[1], m)]
base = best[min(best)]
print("| GPUs | extraction s | matching s | extraction + matching s | speed-up | speed-up per GPU |")
print("|---|---|---|---|---|---|")
for g in sorted(best):
    e, m = best[g]
    speed = (base[0] + base[1]) / (e + m)
    print(f"| {g} | {e:.2f} (x{base[0] / e:.2f}) | {m:.2f} (x{base[1] / m:.2f}) | {e + m:.2f} | x{speed:.2f} | {speed / g:.2f} |")
PY
echo
echo "database comparison (features and matches byte for byte; every run against the first):"
"$compare" "${databases[@]}"
