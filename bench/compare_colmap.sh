#!/usr/bin/env bash
# Benchmark (not a test): reconstructs one Strecha scene with our CPU pipeline and with
# COLMAP (CPU) on the same machine, then evaluates both against the ground truth.
#   bench/compare_colmap.sh [SCENE_DIR] [OUT_DIR] [THREADS]
# Defaults: ../shared/datasets/strecha/fountain-P11, /tmp/bench_colmap, all cores.
# Prints one table row per system and writes OUT_DIR/results.md. Installs COLMAP (Debian
# package `colmap`) if missing.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
scene=${1:-$here/../shared/datasets/strecha/fountain-P11}
out=${2:-/tmp/bench_colmap}
threads=${3:-$(nproc)}
sfm=$here/build/bin/sfm
[ -d "$scene/images" ] || { echo "bench: scene '$scene' not found" >&2; exit 2; }
[ -x "$sfm" ] || { echo "bench: build the project first (scripts/build.sh)" >&2; exit 2; }
if ! command -v colmap >/dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq colmap >/dev/null
fi
rm -rf "$out"; mkdir -p "$out"
now() { date +%s.%N; }
elapsed() { python3 -c "print($2 - $1)"; }

# Ours: stage times come from report.json.
"$sfm" reconstruct "$scene/images" -o "$out/ours" --device cpu --threads "$threads" 2> "$out/ours.log" >/dev/null
ours_eval=$("$sfm" evaluate "$out/ours/model" --gt "$scene/gt_dense_cameras" || true)

# COLMAP, CPU, one shared camera (as the scene has), default SIFT settings.
colmap_log=$out/colmap.log
mkdir -p "$out/colmap/sparse" "$out/colmap/txt"
t0=$(now)
QT_QPA_PLATFORM=offscreen colmap feature_extractor --database_path "$out/colmap/db.db" --image_path "$scene/images" \
  --ImageReader.single_camera 1 --SiftExtraction.use_gpu 0 --SiftExtraction.num_threads "$threads" >> "$colmap_log" 2>&1
t1=$(now)
QT_QPA_PLATFORM=offscreen colmap exhaustive_matcher --database_path "$out/colmap/db.db" --SiftMatching.use_gpu 0 \
  --SiftMatching.num_threads "$threads" >> "$colmap_log" 2>&1
t2=$(now)
QT_QPA_PLATFORM=offscreen colmap mapper --database_path "$out/colmap/db.db" --image_path "$scene/images" \
  --output_path "$out/colmap/sparse" --Mapper.num_threads "$threads" >> "$colmap_log" 2>&1
t3=$(now)
colmap model_converter --input_path "$out/colmap/sparse/0" --output_path "$out/colmap/txt" --output_type TXT >> "$colmap_log" 2>&1
colmap_eval=$("$sfm" evaluate "$out/colmap/txt" --gt "$scene/gt_dense_cameras" || true)
colmap_points=$(grep -vc '^#' "$out/colmap/txt/points3D.txt" || true)

field() { python3 -c "import json,sys; r=json.load(open('$1')); print(r$2)"; }
median_mm() { echo "$1" | sed -n 's/.*median \([0-9.]*\), mean.*/\1/p'; }
registered() { echo "$1" | sed -n 's/^registered: \(.*\)/\1/p'; }
r=$out/ours/report.json
{
  echo "| system | total s | extraction s | matching s | verification + mapping s | registered | points | median position error mm |"
  echo "|---|---|---|---|---|---|---|---|"
  printf "| ours (cpu, %s threads) | %.1f | %.1f | %.1f | %.1f | %s | %s | %s |\n" "$threads" \
    "$(field $r "['stage_seconds']['total']")" "$(field $r "['stage_seconds']['feature_extraction']")" \
    "$(field $r "['stage_seconds']['matching']")" \
    "$(python3 -c "import json; s=json.load(open('$r'))['stage_seconds']; print(s['geometric_verification']+s['mapping'])")" \
    "$(registered "$ours_eval")" "$(field $r "['points']")" "$(median_mm "$ours_eval")"
  printf "| COLMAP %s (cpu, %s threads) | %.1f | %.1f | %.1f | %.1f | %s | %s | %s |\n" \
    "$(colmap help 2>/dev/null | sed -n 's/^COLMAP \([0-9.]*\).*/\1/p' | head -1)" "$threads" \
    "$(elapsed $t0 $t3)" "$(elapsed $t0 $t1)" "$(elapsed $t1 $t2)" "$(elapsed $t2 $t3)" \
    "$(registered "$colmap_eval")" "$colmap_points" "$(median_mm "$colmap_eval")"
} | tee "$out/results.md"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" | tee -a "$out/results.md"
