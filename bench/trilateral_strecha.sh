#!/usr/bin/env bash
# Benchmark (not a test), issue 4 experiment 3: Gaussian vs trilateral SIFT in real
# reconstructions of the four Strecha scenes, evaluated against the ground truth.
#
#   bench/trilateral_strecha.sh prepare OUT_DIR [SCALE]
#       Writes the four scenes' images downscaled by 1/SCALE (default 2: 1536x1024; libjpeg's
#       DCT scaling, then quality 95) and their ground-truth cameras to OUT_DIR, so that the
#       set fits the GPU machine's 64 MiB transfer. Positions are compared after a similarity
#       alignment, so the ground truth needs no rescaling. (Strecha JPEGs carry no EXIF.)
#   bench/trilateral_strecha.sh run DATA_DIR SFM_BINARY [DEVICE] [EXTRA_SFM_ARGS...]
#       Reconstructs every scene of DATA_DIR with --scale-space gaussian and trilateral
#       (edge test on) and prints one markdown row per run. SCENES="..." and
#       SPACES="..." pick scenes and scale spaces.
set -euo pipefail
scenes=${SCENES:-"fountain-P11 Herz-Jesus-P8 entry-P10 castle-P19"}
here=$(cd "$(dirname "$0")/.." && pwd)

prepare() {
  local out=$1 scale=${2:-2} source=$here/../shared/datasets/strecha
  command -v djpeg >/dev/null || {
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq libjpeg-turbo-progs >/dev/null
  }
  for scene in $scenes; do
    [ -d "$source/$scene/images" ] || { echo "bench: $source/$scene not found" >&2; exit 2; }
    mkdir -p "$out/$scene/images" "$out/$scene/gt"
    for image in "$source/$scene/images"/*.jpg; do
      djpeg -scale "1/$scale" "$image" | cjpeg -quality 95 > "$out/$scene/images/$(basename "$image")"
    done
    cp "$source/$scene/gt_dense_cameras"/*.camera "$out/$scene/gt/"
  done
  du -sh "$out"
}

json_number() { sed -n "s/.*\"$2\": \([0-9.e+-]*\).*/\1/p" "$1" | head -1; }

run() {
  local data=$1 sfm=$2 device=${3:-gpu}
  shift 3 || shift $#
  echo "| scene | scale space | registered | verified pairs | verified matches per pair | points | median position error mm | total s | extraction s |"
  echo "|---|---|---|---|---|---|---|---|---|"
  mkdir -p "$data/out"
  for scene in $scenes; do
    for space in ${SPACES:-gaussian trilateral}; do
      local out=$data/out/$scene-$space
      rm -rf "$out"
      if ! "$sfm" reconstruct "$data/$scene/images" -o "$out" --device "$device" --scale-space "$space" \
          "$@" > "$out.log" 2>&1; then
        echo "| $scene | $space | failed: $(tail -1 "$out.log") | | | | | | |"
        continue
      fi
      local report=$out/report.json evaluation
      evaluation=$("$sfm" evaluate "$out/model" --gt "$data/$scene/gt" || true)
      local pairs matches
      pairs=$(json_number "$report" pairs_verified)
      matches=$(json_number "$report" verified_matches)
      printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n" "$scene" "$space" \
        "$(echo "$evaluation" | sed -n 's/^registered: \(.*\)/\1/p')" "$pairs" \
        "$(awk -v m="$matches" -v p="$pairs" 'BEGIN { if (p > 0) printf "%.0f", m / p; else print "-" }')" \
        "$(json_number "$report" points)" \
        "$(echo "$evaluation" | sed -n 's/.*median \([0-9.]*\), mean.*/\1/p' | head -1)" \
        "$(json_number "$report" total)" "$(json_number "$report" feature_extraction)"
    done
  done
}

case "${1:-}" in
  prepare) shift; prepare "$@" ;;
  run) shift; run "$@" ;;
  *) sed -n '2,13p' "$0" >&2; exit 2 ;;
esac
