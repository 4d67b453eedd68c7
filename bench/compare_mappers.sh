#!/usr/bin/env bash
# Incremental vs global mapper on the same verified pairs: for each scene, `sfm reconstruct`
# with the incremental mapper (which fills the scene database), then `sfm map --mapper global`
# on that database, then `sfm evaluate` of both models against the scene's ground truth.
# Prints one row per scene and mapper: registered images, median position error and the
# mapping stage's wall seconds (report.json; extraction and matching are shared).
#
# Usage: bench/compare_mappers.sh SFM_BINARY OUT_DIR SCENE_DIR...
#   SCENE_DIR holds images/ and gt_dense_cameras/ (Strecha, or `sfm synth` output).
# Extra options for both mappers (e.g. --threads 2) go in $MAPPER_ARGS; for reconstruct only
# (e.g. --device cpu) in $RECONSTRUCT_ARGS.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 SFM_BINARY OUT_DIR SCENE_DIR..." >&2
  exit 2
fi
sfm=$1
out=$2
shift 2
mkdir -p "$out"

mapping_seconds() {
  python3 -c 'import json,sys; print("%.1f" % json.load(open(sys.argv[1]))["stage_seconds"]["mapping"])' "$1"
}

row() {  # scene mapper model_dir
  local report=$3/report.json
  local eval
  eval=$("$sfm" evaluate "$3/model" --gt "$4" 2>/dev/null | tr '\n' ' ')
  local registered median
  registered=$(echo "$eval" | grep -o 'registered: [0-9/]*' | head -1 | sed 's/registered: //' || true)
  median=$(echo "$eval" | grep -o 'median [0-9.]*' | head -1 | sed 's/median //;s/$/ mm/' || true)
  echo "| $1 | $2 | ${registered:-?} | ${median:-?} | $(mapping_seconds "$report") |"
}

echo "| scene | mapper | registered | median position error | mapping s |"
echo "|---|---|---|---|---|"
for scene in "$@"; do
  name=$(basename "$scene")
  inc=$out/$name/incremental
  glo=$out/$name/global
  # shellcheck disable=SC2086
  "$sfm" reconstruct "$scene/images" -o "$inc" --mapper incremental -q ${RECONSTRUCT_ARGS:-} ${MAPPER_ARGS:-} || true
  # shellcheck disable=SC2086
  "$sfm" map --database "$inc/database.db" -o "$glo" --mapper global -q ${MAPPER_ARGS:-} || true
  row "$name" incremental "$inc" "$scene/gt_dense_cameras"
  row "$name" global "$glo" "$scene/gt_dense_cameras"
done
