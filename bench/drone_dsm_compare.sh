#!/usr/bin/env bash
# Benchmark (not a test): the Brighton Beach flight's surface model against its reference
# cloud model.laz rasterised onto our DSM's grid the same way (bench/dsm_compare: same cells,
# same per-cell percentile, same hole filling), over the cells known in both: median and 90th
# percentile of |ours - reference| as placed, after a vertical fit and after the rigid fit that
# the cloud comparison finds. Runs bench/drone_cloud_compare.sh with DENSE=1 first (the sparse
# and dense run and the cloud comparison; skipped when OUT_DIR/ours/dense/points.ply and
# OUT_DIR/compare.json exist), then `sfm products OUT_DIR/ours` on its dense cloud.
#   bench/drone_dsm_compare.sh [FLIGHT_DIR] [OUT_DIR] [THREADS]
# Defaults and environment as bench/drone_cloud_compare.sh (SFM, DEVICE, DENSE_MAX_IMAGE_SIZE);
# DSM_ARGS: extra options of sfm products (e.g. "--dsm-resolution-m 0.1"). Prints the figures
# and writes OUT_DIR/dsm_compare.json.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
flight=${1:-$here/../shared/datasets/drone/brighton_beach}
out=${2:-/tmp/bench_drone}
threads=${3:-$(nproc)}
sfm=${SFM:-$here/build/bin/sfm}
compare_tool=$(dirname "$sfm")/dsm_compare
[ -x "$compare_tool" ] || { echo "bench: build the benchmarks first (no $compare_tool)" >&2; exit 2; }
if [ ! -f "$out/ours/dense/points.ply" ] || [ ! -f "$out/compare.json" ]; then
  DENSE=1 bash "$here/bench/drone_cloud_compare.sh" "$flight" "$out" "$threads"
fi
# shellcheck disable=SC2086
"$sfm" products "$out/ours" --threads "$threads" ${DSM_ARGS:-}
gdalinfo "$out/ours/dsm.tif" > "$out/dsm_gdalinfo.txt" 2>&1 || true
shift_m=$(python3 -c 'import json,sys; print(",".join(str(v) for v in json.load(open(sys.argv[1]))["fit"]["shift_m"]))' "$out/compare.json")
percentile=$(python3 -c 'import re,sys; m=re.search(r"--dsm-cell-percentile[ =](\S+)", sys.argv[1]); print(m.group(1) if m else 90)' "${DSM_ARGS:-}")
fill=$(python3 -c 'import re,sys; m=re.search(r"--dsm-fill-limit-m[ =](\S+)", sys.argv[1]); print(m.group(1) if m else 5)' "${DSM_ARGS:-}")
"$compare_tool" "$out/ours/dsm.tif" "$out/model.las" --cell-percentile "$percentile" --fill-limit-m "$fill" \
  --shift-m "$shift_m" --json "$out/dsm_compare.json"
echo "bench: $out/dsm_compare.json, gdalinfo in $out/dsm_gdalinfo.txt"
