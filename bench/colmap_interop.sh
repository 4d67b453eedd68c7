#!/usr/bin/env bash
# Interoperability check (not a test): our scene database and COLMAP's are one format.
#   1. ours -> COLMAP: `sfm extract` + `sfm match` write a database, `colmap mapper` maps it.
#   2. COLMAP -> ours: `colmap feature_extractor` + `colmap exhaustive_matcher` write a
#      database, `sfm map` maps it.
# Both models are evaluated against the scene's ground truth with `sfm evaluate`.
#   bench/colmap_interop.sh [SCENE_DIR] [OUT_DIR] [THREADS]
# Defaults: ../shared/datasets/strecha/fountain-P11, /tmp/bench_interop, all cores. Installs
# COLMAP (Debian package `colmap`) if missing. Prints a table and writes OUT_DIR/results.md.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
scene=${1:-$here/../shared/datasets/strecha/fountain-P11}
out=${2:-/tmp/bench_interop}
threads=${3:-$(nproc)}
sfm=$here/build/bin/sfm
[ -d "$scene/images" ] || { echo "bench: scene '$scene' not found" >&2; exit 2; }
[ -x "$sfm" ] || { echo "bench: build the project first (scripts/build.sh)" >&2; exit 2; }
if ! command -v colmap >/dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq colmap >/dev/null
fi
export QT_QPA_PLATFORM=offscreen
rm -rf "$out"; mkdir -p "$out"
now() { date +%s.%N; }
elapsed() { python3 -c "print(round($2 - $1, 1))"; }
log=$out/log.txt
num_images=$(find "$scene/images" -maxdepth 1 -iname '*.jpg' -o -maxdepth 1 -iname '*.png' | wc -l)

# Registered images, points, median position error of a COLMAP text model.
summary() {
  local model=$1
  local images points eval
  images=$(grep -v '^#' "$model/images.txt" | awk 'NF > 0' | awk 'NR % 2 == 1' | wc -l)
  points=$(grep -vc '^#' "$model/points3D.txt" || true)
  eval=$("$sfm" evaluate "$model" --gt "$scene/gt_dense_cameras" 2>>"$log" || true)
  echo "$images/$num_images | $points | $(echo "$eval" | sed -n 's/.*median \([0-9.]*\), mean.*/\1/p')"
}

# 1. Our database, COLMAP's mapper.
t0=$(now)
"$sfm" extract "$scene/images" --database "$out/ours.db" --threads "$threads" >>"$log" 2>&1
"$sfm" match --database "$out/ours.db" --threads "$threads" >>"$log" 2>&1
t1=$(now)
mkdir -p "$out/colmap_on_ours/sparse" "$out/colmap_on_ours/txt"
colmap mapper --database_path "$out/ours.db" --image_path "$scene/images" \
  --output_path "$out/colmap_on_ours/sparse" --Mapper.num_threads "$threads" >>"$log" 2>&1
t2=$(now)
colmap model_converter --input_path "$out/colmap_on_ours/sparse/0" --output_path "$out/colmap_on_ours/txt" \
  --output_type TXT >>"$log" 2>&1

# 2. COLMAP's database, our mapper.
t3=$(now)
colmap feature_extractor --database_path "$out/colmap.db" --image_path "$scene/images" \
  --ImageReader.single_camera 1 --SiftExtraction.use_gpu 0 --SiftExtraction.num_threads "$threads" >>"$log" 2>&1
colmap exhaustive_matcher --database_path "$out/colmap.db" --SiftMatching.use_gpu 0 \
  --SiftMatching.num_threads "$threads" >>"$log" 2>&1
t4=$(now)
"$sfm" map --database "$out/colmap.db" -o "$out/ours_on_colmap" --image-path "$scene/images" \
  --threads "$threads" >>"$log" 2>&1
t5=$(now)

{
  echo "| database written by | mapper | features + matching s | mapping s | registered | points | median position error mm |"
  echo "|---|---|---|---|---|---|---|"
  echo "| sfm extract + sfm match | colmap mapper $(colmap help 2>/dev/null | sed -n 's/^COLMAP \([0-9.]*\).*/\1/p' | head -1) | $(elapsed $t0 $t1) | $(elapsed $t1 $t2) | $(summary "$out/colmap_on_ours/txt") |"
  echo "| colmap feature_extractor + exhaustive_matcher | sfm map | $(elapsed $t3 $t4) | $(elapsed $t4 $t5) | $(summary "$out/ours_on_colmap/model") |"
} | tee "$out/results.md"
echo "scene: $scene; machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" | tee -a "$out/results.md"
