#!/usr/bin/env bash
# Benchmark (not a test): reconstructs the Brighton Beach drone flight (18 GPS-tagged photos),
# georeferenced by the photos' GPS alone (no manual alignment), and compares our cloud
# (points.las, WGS 84 / UTM; with DENSE=1 the dense cloud dense/points.las) with the flight's
# reference cloud model.laz, in the CRS that model.laz declares (ours must declare the same),
# with bench/dense_cloud_accuracy's `reference` mode: for each of our points, the distance to
# the nearest reference point (median, p90), and the share of the reference's points within
# 0.25 m of ours (coverage); then the same after a rigid best fit (ICP, no scale), so that the
# shape error and the placement error are apart. Methods: bench/RESULTS-dense.md.
#   bench/drone_cloud_compare.sh [FLIGHT_DIR] [OUT_DIR] [THREADS]
# Defaults: ../shared/datasets/drone/brighton_beach, /tmp/bench_drone, all cores.
# Environment:
#   SFM=PATH        the sfm program (default build/bin/sfm); dense_cloud_accuracy is taken from
#                   the same folder (built with the benchmarks)
#   DEVICE=cpu|gpu  --device of the run (default cpu)
#   DENSE=1         a dense run: `sfm reconstruct IMAGES -o OUT --dense --dense-max-image-size
#                   $DENSE_MAX_IMAGE_SIZE` (default 1000), comparing OUT/dense/points.las
#   CLOUD=FILE.las  compare this cloud and run nothing (e.g. an earlier run's points.las)
# Needs node and npm (scripts/setup.sh installs npm) to turn model.laz into LAS once: laz-perf
# (LASzip as WebAssembly) is fetched from the npm registry into OUT_DIR, since PDAL, LASzip and
# libLAS are not Debian 12 packages. Prints the figures and writes OUT_DIR/results.json.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
flight=${1:-$here/../shared/datasets/drone/brighton_beach}
out=${2:-/tmp/bench_drone}
threads=${3:-$(nproc)}
sfm=${SFM:-$here/build/bin/sfm}
# shellcheck source=bench/sfm_reconstruct.sh
source "$here/bench/sfm_reconstruct.sh"
compare_tool=$(dirname "$sfm")/dense_cloud_accuracy
lazperf_version=0.0.7
[ -d "$flight/images" ] && [ -f "$flight/model.laz" ] || { echo "bench: '$flight' has no images/ and model.laz" >&2; exit 2; }
[ -x "$compare_tool" ] || { echo "bench: build the benchmarks first (no $compare_tool)" >&2; exit 2; }
command -v node >/dev/null && command -v npm >/dev/null || { echo "bench: node and npm are needed" >&2; exit 2; }
mkdir -p "$out"
if [ ! -f "$out/model.las" ]; then
  if [ ! -d "$out/laz-perf/node_modules/laz-perf" ]; then
    mkdir -p "$out/laz-perf"
    (cd "$out/laz-perf" && npm install --silent --no-save --fetch-timeout=20000 "laz-perf@$lazperf_version" >/dev/null)
  fi
  node "$here/bench/laz_to_las.mjs" "$flight/model.laz" "$out/model.las.tmp" "$out/laz-perf" >/dev/null
  mv "$out/model.las.tmp" "$out/model.las"
fi

seconds=null
report=null
if [ -n "${CLOUD:-}" ]; then
  cloud=$CLOUD
else
  [ -x "$sfm" ] || { echo "bench: build the project first (scripts/build.sh), or set SFM" >&2; exit 2; }
  dense_args=()
  cloud=$out/ours/points.las
  if [ "${DENSE:-0}" = 1 ]; then
    dense_args=(--dense --dense-max-image-size "${DENSE_MAX_IMAGE_SIZE:-1000}")
    cloud=$out/ours/dense/points.las
  fi
  rm -rf "$out/ours"
  seconds=$(timed_reconstruct "$sfm" "$out/ours.log" "$flight/images" -o "$out/ours" \
    --device "${DEVICE:-cpu}" --threads "$threads" "${dense_args[@]}")
  report=$out/ours/report.json
fi
[ -f "$cloud" ] || { echo "bench: no georeferenced cloud $cloud (see $out/ours/report.json)" >&2; exit 1; }
"$compare_tool" reference "$cloud" "$out/model.las" --threads "$threads" --json "$out/compare.json"
python3 - "$out" "$seconds" "$report" "$cloud" <<'PY'
import json, sys
out, seconds, report_path, cloud = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3], sys.argv[4]
compare = json.load(open(f"{out}/compare.json"))
result = {"cloud": cloud, "seconds": seconds}
if report_path != "null":
    report = json.load(open(report_path))
    geo = report["georeference"]
    result.update({
        "registered_images": report["registered_images"],
        "images": report["usable_images"],
        "sparse_points": report["points"],
        "stage_seconds": report.get("stage_seconds"),
        "georeferenced": geo["georeferenced"],
        "gps_inliers": geo.get("gps_inliers"),
        "gps_residual_rms_m": geo.get("gps_residual_rms_m"),
        "gps_residual_max_m": geo.get("gps_residual_max_m"),
    })
    print(f"registered {result['registered_images']}/{result['images']}, {seconds} s; "
          f"GPS residual RMS {result['gps_residual_rms_m']} m")
result.update(compare)
json.dump(result, open(f"{out}/results.json", "w"), indent=2)
PY
