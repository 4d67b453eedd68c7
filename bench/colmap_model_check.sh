#!/usr/bin/env bash
# Interoperability check (not a test): COLMAP reads our model as we wrote it, in both formats.
# Reconstructs a scene with `sfm reconstruct` (or takes a model folder), then
#   - `colmap model_analyzer` on our text model and on our binary model,
#   - `colmap model_converter` binary -> text and text -> binary,
# and prints cameras / registered images / points / observations as we count them (from our
# text model) and as COLMAP counts them, plus whether the converted models read back equal.
#   bench/colmap_model_check.sh [SCENE_DIR|MODEL_DIR] [OUT_DIR] [MAX_IMAGE_SIZE]
# Defaults: ../shared/datasets/strecha/fountain-P11, /tmp/bench_colmap_model, 1536 (px: half
# size, to save time; 0 = full size). A folder holding cameras.txt is taken as the model.
# Exit code 0 when every count agrees and the models read back equal, 1 otherwise.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
input=${1:-$here/../shared/datasets/strecha/fountain-P11}
out=${2:-/tmp/bench_colmap_model}
max_size=${3:-1536}
sfm=$here/build/bin/sfm
[ -x "$sfm" ] || { echo "bench: build the project first (scripts/build.sh)" >&2; exit 2; }
command -v colmap >/dev/null || { echo "bench: colmap not installed (apt-get install colmap)" >&2; exit 2; }
export QT_QPA_PLATFORM=offscreen
rm -rf "$out"; mkdir -p "$out"
log=$out/log.txt

gt=$input/gt_dense_cameras
if [ -f "$input/cameras.txt" ]; then
  model=$input
  [ -f "$model/cameras.bin" ] || { echo "bench: '$model' has no binary model" >&2; exit 2; }
else
  [ -d "$input/images" ] || { echo "bench: no scene (images/) or model (cameras.txt) in '$input'" >&2; exit 2; }
  "$sfm" reconstruct "$input/images" -o "$out/ours" --device cpu --max-image-size "$max_size" \
    >>"$log" 2>&1
  model=$out/ours/model
fi
mkdir -p "$out/text" "$out/binary" "$out/text_from_binary" "$out/binary_from_text"

# The first step of MVS densification: COLMAP undistorts the images of our binary model.
undistorted() {
  [ -d "$input/images" ] || { echo "n/a (no images)"; return; }
  colmap image_undistorter --image_path "$input/images" --input_path "$out/binary" \
    --output_path "$out/undistorted" --max_image_size 1000 >>"$log" 2>&1 || { echo NO; return; }
  local expected written
  expected=$(grep -v '^#' "$out/text/images.txt" | awk 'NR % 2 == 1' | wc -l)
  written=$(ls "$out/undistorted/images" | wc -l)
  [ "$written" -eq "$expected" ] && echo "yes ($written images)" || echo "NO ($written of $expected)"
}
cp "$model"/{cameras,images,points3D}.txt "$out/text/"
cp "$model"/{cameras,images,points3D}.bin "$out/binary/"

# Our counts, from the text model: registered images are the odd data lines of images.txt;
# observations the (IMAGE_ID, POINT2D_IDX) pairs after the 8 leading fields of points3D.txt.
ours() {
  local cameras images points observations
  cameras=$(grep -vc '^#' "$out/text/cameras.txt" || true)
  images=$(grep -v '^#' "$out/text/images.txt" | awk 'NR % 2 == 1' | wc -l)
  points=$(grep -vc '^#' "$out/text/points3D.txt" || true)
  observations=$(grep -v '^#' "$out/text/points3D.txt" | awk '{ n += (NF - 8) / 2 } END { print n + 0 }')
  echo "$cameras | $images | $points | $observations"
}
# COLMAP's counts from `colmap model_analyzer`.
analyzed() {
  colmap model_analyzer --path "$1" >"$out/analyze.txt" 2>&1
  local get
  get() { sed -n "s/.*\] $1: \([0-9]*\)$/\1/p; s/^$1: \([0-9]*\)$/\1/p" "$out/analyze.txt" | head -1; }
  echo "$(get Cameras) | $(get 'Registered images') | $(get Points) | $(get Observations)"
}
colmap model_converter --input_path "$out/binary" --output_path "$out/text_from_binary" \
  --output_type TXT >>"$log" 2>&1
colmap model_converter --input_path "$out/text" --output_path "$out/binary_from_text" \
  --output_type BIN >>"$log" 2>&1
# Equal models whatever the record order (COLMAP writes records in hash-map order, the same
# numbers with the same 17 digits): sorted data lines compared.
same_text() {
  local f
  for f in cameras images points3D; do
    if [ "$f" = images ]; then
      # Image records are two lines; join them so sorting keeps each record whole.
      cmp -s <(grep -v '^#' "$1/$f.txt" | paste -d'\n' - - | paste - - | sort) \
             <(grep -v '^#' "$2/$f.txt" | paste -d'\n' - - | paste - - | sort) || return 1
    else
      cmp -s <(grep -v '^#' "$1/$f.txt" | sort) <(grep -v '^#' "$2/$f.txt" | sort) || return 1
    fi
  done
}
# Our binary reader on COLMAP's binary: `sfm evaluate` must print the same errors for it as
# for our own model (needs the scene's ground truth).
same_evaluation() {
  [ -d "$gt" ] || { echo "n/a (no ground truth)"; return; }
  if [ "$("$sfm" evaluate "$out/binary" --gt "$gt" 2>&1)" = "$("$sfm" evaluate "$out/binary_from_text" --gt "$gt" 2>&1)" ]; then
    echo yes
  else
    echo NO
  fi
}

{
  echo "model: $model"
  echo
  echo "| counted by | model read | cameras | registered images | points | observations |"
  echo "|---|---|---|---|---|---|"
  echo "| sfm (our text model) | OUT/model/*.txt | $(ours) |"
  echo "| colmap model_analyzer | our text model | $(analyzed "$out/text") |"
  echo "| colmap model_analyzer | our binary model | $(analyzed "$out/binary") |"
  echo "| colmap model_analyzer | colmap model_converter: our binary -> text | $(analyzed "$out/text_from_binary") |"
  echo "| colmap model_analyzer | colmap model_converter: our text -> binary | $(analyzed "$out/binary_from_text") |"
  echo
  echo "colmap's text from our binary model equals our text model (records sorted): $(same_text "$out/text" "$out/text_from_binary" && echo yes || echo NO)"
  echo "sfm evaluate gives the same errors for colmap's binary (from our text) as for ours: $(same_evaluation)"
  echo "colmap image_undistorter undistorts every registered image of our binary model: $(undistorted)"
} | tee "$out/results.md"
! grep -q "NO" "$out/results.md" && [ "$(grep -c "^| colmap" "$out/results.md")" -eq 4 ] &&
  [ "$(grep "^| " "$out/results.md" | tail -5 | cut -d"|" -f4- | sort -u | wc -l)" -eq 1 ]
