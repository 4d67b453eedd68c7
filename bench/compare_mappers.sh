#!/usr/bin/env bash
# Incremental vs global mapper on the same verified pairs. For each scene: `sfm extract` and
# `sfm match` once into OUT_DIR/SCENE/database.db (a database already there is resumed, so a
# second call maps again without extracting), then `sfm map` of that database with each
# mapper, then `sfm evaluate` of each model against the scene's ground truth.
# Prints one row per scene and mapper: registered images, median position and rotation
# error, the mapping stage's wall seconds (report.json) and the CPU seconds (user + sys,
# GNU time) of the whole `sfm map` process: on a shared machine wall time follows the load,
# CPU time much less. Each map's log is kept in OUT_DIR/SCENE/MAPPER.log.
#
# Usage: bench/compare_mappers.sh SFM_BINARY OUT_DIR SCENE_DIR...
#   SCENE_DIR holds images/ and gt_dense_cameras/ (Strecha, or `sfm synth` output).
# Options for extraction and matching (e.g. --device cpu --threads 2) go in $MATCH_ARGS, for
# both mappers (e.g. --threads 2) in $MAPPER_ARGS; $MAPPERS lists the mappers to run
# (default "incremental global"). $NICE (e.g. "nice -n 10") prefixes every command.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 SFM_BINARY OUT_DIR SCENE_DIR..." >&2
  exit 2
fi
sfm=$1
out=$2
shift 2
[ -x "$sfm" ] || { echo "compare_mappers.sh: '$sfm' is not executable" >&2; exit 2; }
command -v /usr/bin/time >/dev/null || { echo "compare_mappers.sh: needs GNU time (/usr/bin/time)" >&2; exit 2; }
mkdir -p "$out"
read -r -a nice_cmd <<< "${NICE:-}"

mapping_seconds() {
  python3 -c 'import json,sys; print("%.1f" % json.load(open(sys.argv[1]))["stage_seconds"]["mapping"])' "$1"
}

cpu_seconds() {  # GNU time -v output
  awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} END {printf "%.1f", u + s}' "$1"
}

row() {  # scene mapper run_dir gt_dir
  local eval registered median rotation
  eval=$("$sfm" evaluate "$3/model" --gt "$4" 2>/dev/null | tr '\n' ' ' || true)
  registered=$(echo "$eval" | grep -o 'registered: [0-9/]*' | head -1 | sed 's/registered: //' || true)
  median=$(echo "$eval" | grep -o 'median [0-9.]*' | head -1 | sed 's/median //;s/$/ mm/' || true)
  rotation=$(echo "$eval" | grep -o 'median [0-9.]*' | sed -n 2p | sed 's/median //;s/$/ deg/' || true)
  local wall="?"
  [ -f "$3/report.json" ] && wall=$(mapping_seconds "$3/report.json")
  echo "| $1 | $2 | ${registered:-?} | ${median:-?} | ${rotation:-?} | $wall | $(cpu_seconds "$3.time") |"
}

echo "| scene | mapper | registered | median position error | median rotation error | mapping wall s | map CPU s |"
echo "|---|---|---|---|---|---|---|"
for scene in "$@"; do
  name=$(basename "$scene")
  db=$out/$name/database.db
  mkdir -p "$out/$name"
  # shellcheck disable=SC2086
  "${nice_cmd[@]}" "$sfm" extract "$scene/images" --database "$db" -q ${MATCH_ARGS:-} >&2
  # shellcheck disable=SC2086
  "${nice_cmd[@]}" "$sfm" match --database "$db" -q ${MATCH_ARGS:-} >&2
  for mapper in ${MAPPERS:-incremental global}; do
    run=$out/$name/$mapper
    # shellcheck disable=SC2086
    /usr/bin/time -v -o "$run.time" "${nice_cmd[@]}" "$sfm" map --database "$db" -o "$run" \
      --mapper "$mapper" ${MAPPER_ARGS:-} > "$run.log" 2>&1 || true
    row "$name" "$mapper" "$run" "$scene/gt_dense_cameras"
  done
done
