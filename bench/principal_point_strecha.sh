#!/usr/bin/env bash
# Benchmark (not a test), issue 16: the principal point refined where the data constrain it.
# Each scene is reconstructed once (extraction and matching into its database), then mapped
# from that database with --refine-principal-point off (the fixed centre of before), on and
# auto (the default), and every model is evaluated against the ground truth.
#   bench/principal_point_strecha.sh [OUT_DIR] [SFM_BINARY]
# Scenes: the four Strecha scenes at full resolution (SCENES="..." picks some) and the
# built-in synthetic 12-image ring (SYNTHETIC=0 leaves it out); --device cpu, THREADS
# threads (default all). Prints one markdown row per scene.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-/tmp/bench_principal_point}
sfm=${2:-$here/build/bin/sfm}
strecha=$here/../shared/datasets/strecha
scenes=${SCENES-"fountain-P11 Herz-Jesus-P8 entry-P10 castle-P19"}  # SCENES="" for none
threads=${THREADS:-0}
[ -x "$sfm" ] || { echo "bench: build the project first (scripts/build.sh)" >&2; exit 2; }
mkdir -p "$out"

median_mm() { sed -n 's/^position error.*median \([0-9.]*\).*/\1/p'; }
registered() { sed -n 's/^registered: \(.*\)/\1/p'; }
# The principal point auto chose, from the map log.
decision() {
  if grep -q "refined to" "$1"; then grep -o "refined to ([^)]*)" "$1" | head -1
  elif grep -q "kept at the image centre:" "$1"; then echo "reverted to the centre"
  else echo "kept at the centre (not constrained)"; fi
}

row() {  # name images_dir gt_dir
  local name=$1 images=$2 gt=$3 dir=$out/$1
  "$sfm" reconstruct "$images" -o "$dir/reconstruct" --device cpu --threads "$threads" \
    --refine-principal-point off > "$dir.reconstruct.log" 2>&1
  local cells=()
  for mode in off on auto; do
    "$sfm" map --database "$dir/reconstruct/database.db" -o "$dir/$mode" --device cpu \
      --threads "$threads" --refine-principal-point "$mode" > "$dir.$mode.log" 2>&1
    local evaluation
    evaluation=$("$sfm" evaluate "$dir/$mode/model" --gt "$gt" 2>/dev/null || true)
    cells+=("$(echo "$evaluation" | registered) $(echo "$evaluation" | median_mm) mm")
  done
  echo "| $name | ${cells[0]} | ${cells[1]} | ${cells[2]} | $(decision "$dir.auto.log") |"
}

echo "| scene | off (before) | on | auto (after) | auto chose |"
echo "|---|---|---|---|---|"
for scene in $scenes; do
  mkdir -p "$out/$scene"
  row "$scene" "$strecha/$scene/images" "$strecha/$scene/gt_dense_cameras"
done
if [ "${SYNTHETIC:-1}" != 0 ]; then
  "$sfm" synth "$out/synthetic-data" > /dev/null 2>&1
  mkdir -p "$out/synthetic-ring"
  row synthetic-ring "$out/synthetic-data/images" "$out/synthetic-data/gt_dense_cameras"
fi
