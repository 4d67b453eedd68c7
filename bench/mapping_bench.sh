#!/usr/bin/env bash
# Mapping and verification benchmark, before vs after in one run (issue 10's speed bars):
#   - fountain-P11 at full resolution: whole `sfm reconstruct`, its stage and mapper step times
#     (report.json "stage_seconds"), and the position error against ground truth;
#   - `sfm synth --num-images N` (a ring around an object): the same, rotation error included,
#     and geometric verification alone by each binary on the same matches (`sfm match` on a
#     copy of the database with the verified pairs removed): time, verified pairs, inliers;
#   - the 80-frame synthetic sequence with the KLT matcher (--sequence; after only);
#   - --flight N: a synthetic N-image drone survey (GPS, spatial matcher), whole reconstruct
#     (after only; the 1,000-image bar);
#   - --remap: the mapper alone, before vs after on the same verified pairs: each scene's
#     AFTER database mapped again by both binaries (`sfm map`), wall and CPU seconds per step
#     (stage_seconds mapping.<step> and mapping_cpu.<step>) and the evaluation.
# The scenes are rendered with the AFTER binary.
#
#   bench/mapping_bench.sh --after SFM [--before SFM] [--device gpu|cpu|auto] [--out DIR]
#                          [--fountain IMAGES_DIR] [--synth N] [--no-synth-before] [--sequence]
#                          [--flight N] [--remap] [--after-args "ARGS"] [--only-verification]
#
# The issue-10 bars on the GPU machine in one call (about 6 minutes on an H100; the mapper
# comparison needs --before):
#   bench/mapping_bench.sh --after AFTER --before BEFORE --fountain .../fountain-P11/images \
#     --synth 150 --no-synth-before --remap
#
# --after-args: more `reconstruct` arguments for the AFTER runs (e.g. --gpu-bundle-adjustment).
# --only-verification: of the synthetic ring, only the verification comparison (its AFTER
# database must exist in --out from an earlier run).
# A step whose input is not given is skipped; --no-synth-before skips the (slow) BEFORE
# reconstruction of the synthetic ring but still compares verification.
set -euo pipefail

after="" before="" device=gpu out=/tmp/mapping_bench fountain="" synth=0 synth_before=1 sequence=0
after_args="" only_verification=0 flight=0 remap=0
while [ $# -gt 0 ]; do
  case "$1" in
    --after) after=$2; shift 2 ;;
    --before) before=$2; shift 2 ;;
    --device) device=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --fountain) fountain=$2; shift 2 ;;
    --synth) synth=$2; shift 2 ;;
    --no-synth-before) synth_before=0; shift ;;
    --sequence) sequence=1; shift ;;
    --after-args) after_args=$2; shift 2 ;;
    --only-verification) only_verification=1; shift ;;
    --flight) flight=$2; shift 2 ;;
    --remap) remap=1; shift ;;
    *) echo "mapping_bench.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ -x "$after" ] || { echo "mapping_bench.sh: --after must name the sfm binary to measure" >&2; exit 2; }
[ -z "$before" ] || [ -x "$before" ] || { echo "mapping_bench.sh: --before '$before' is not executable" >&2; exit 2; }
mkdir -p "$out"

# One line per run: stage seconds, then the evaluation against ground truth.
summary() {  # NAME RUN_DIR GT_DIR
  local times
  times=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(', '.join(f'{k} {v:.2f}' for k,v in r['stage_seconds'].items()))" "$2/report.json" 2>/dev/null || echo "no report")
  echo "$1: $times"
  "$after" evaluate "$2/model" --gt "$3" 2>&1 | sed "s/^/$1: /" || true
}

reconstruct() {  # NAME BINARY IMAGES_DIR GT_DIR DEVICE [extra args]
  local name=$1 bin=$2 images=$3 gt=$4 on=$5; shift 5
  rm -rf "$out/$name"
  local TIMEFORMAT="$name: wall %R s, user %U s"
  { time "$bin" reconstruct -q --device "$on" "$@" -o "$out/$name" "$images" 2> "$out/$name.stderr" \
      || echo "$name: failed (exit $?)"; } 2>&1
  summary "$name" "$out/$name" "$gt"
}

# The mapper alone on a run's database: `sfm map` by BINARY, timed like reconstruct.
remap() {  # NAME BINARY DATABASE IMAGES_DIR GT_DIR
  local name=$1 bin=$2 database=$3 images=$4 gt=$5 extra=""
  [ "$bin" = "$after" ] && extra=$after_args
  [ -f "$database" ] || { echo "$name: no database $database"; return; }
  rm -rf "$out/$name"
  local TIMEFORMAT="$name: wall %R s, user %U s"
  # shellcheck disable=SC2086  # extra holds several words
  { time "$bin" map -q --device "$device" --database "$database" --image-path "$images" \
      -o "$out/$name" $extra 2> "$out/$name.stderr" > /dev/null || echo "$name: failed (exit $?)"; } 2>&1
  summary "$name" "$out/$name" "$gt"
}

# Verified pairs and their inliers in a database.
sql() { python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); r=c.execute(sys.argv[2]).fetchall(); c.commit(); print(*r[0] if r else ())" "$@"; }
verified() { echo "$(sql "$1" "select count(*), coalesce(sum(rows),0) from two_view_geometries where rows > 0" | awk '{print $1 " verified pairs, " $2 " inliers"}')"; }

# Verification alone by BINARY on a copy of the run's database without verified pairs.
reverify() {  # NAME BINARY DATABASE
  local db="$out/$1.db"
  cp "$3" "$db"
  sql "$db" "delete from two_view_geometries"
  local start end
  start=$(date +%s.%N)
  "$2" match -q --device "$device" --database "$db" 2> "$out/$1.stderr" || echo "$1: failed"
  end=$(date +%s.%N)
  echo "$1: verification $(python3 -c "print(f'{$end - $start:.2f}')") s (matches reused), $(verified "$db")"
}

if [ -n "$fountain" ]; then
  gt="$fountain/../gt_dense_cameras"
  [ -z "$before" ] || reconstruct fountain-before "$before" "$fountain" "$gt" "$device"
  # shellcheck disable=SC2086  # after_args are several words
  reconstruct fountain-after "$after" "$fountain" "$gt" "$device" $after_args
  if [ "$remap" = 1 ]; then
    [ -z "$before" ] || remap fountain-map-before "$before" "$out/fountain-after/database.db" "$fountain" "$gt"
    remap fountain-map-after "$after" "$out/fountain-after/database.db" "$fountain" "$gt"
  fi
fi

if [ "$synth" -gt 0 ]; then
  scene="$out/synth$synth"
  [ -d "$scene/images" ] || "$after" synth -q --num-images "$synth" "$scene"
  # shellcheck disable=SC2086
  [ "$only_verification" = 1 ] || reconstruct "synth$synth-after" "$after" "$scene/images" "$scene/gt_dense_cameras" "$device" $after_args
  echo "synth$synth-after: $(verified "$out/synth$synth-after/database.db")"
  if [ -n "$before" ]; then
    reverify "synth$synth-verify-before" "$before" "$out/synth$synth-after/database.db"
    reverify "synth$synth-verify-after" "$after" "$out/synth$synth-after/database.db"
    [ "$synth_before" = 0 ] || [ "$only_verification" = 1 ] || reconstruct "synth$synth-before" "$before" "$scene/images" "$scene/gt_dense_cameras" "$device"
  fi
  if [ "$remap" = 1 ] && [ "$only_verification" = 0 ]; then
    [ -z "$before" ] || remap "synth$synth-map-before" "$before" "$out/synth$synth-after/database.db" "$scene/images" "$scene/gt_dense_cameras"
    remap "synth$synth-map-after" "$after" "$out/synth$synth-after/database.db" "$scene/images" "$scene/gt_dense_cameras"
  fi
fi

if [ "$flight" -gt 0 ]; then
  scene="$out/flight$flight"
  [ -d "$scene/images" ] || "$after" synth -q --flight --num-images "$flight" "$scene"
  # shellcheck disable=SC2086
  reconstruct "flight$flight-after" "$after" "$scene/images" "$scene/gt_dense_cameras" "$device" --matcher spatial $after_args
fi

if [ "$sequence" = 1 ]; then
  scene="$out/sequence"
  [ -d "$scene/images" ] || "$after" synth -q --sequence "$scene"
  reconstruct sequence-klt-cpu "$after" "$scene/images" "$scene/gt_dense_cameras" cpu --matcher klt
  [ "$device" = cpu ] || reconstruct sequence-klt-gpu "$after" "$scene/images" "$scene/gt_dense_cameras" gpu --matcher klt
fi
