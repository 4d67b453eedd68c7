#!/usr/bin/env bash
# Benchmark (not a test): reconstructs the Brighton Beach drone flight (18 GPS-tagged photos)
# with our CPU pipeline, georeferenced by the photos' GPS alone (no manual alignment), and
# compares our sparse cloud (points.las, WGS 84 / UTM) with the flight's reference cloud
# model.laz: for each of our points, the distance to the nearest reference point, in the CRS
# that model.laz declares (ours must declare the same).
#   bench/drone_cloud_compare.sh [FLIGHT_DIR] [OUT_DIR] [THREADS]
# Defaults: ../shared/datasets/drone/brighton_beach, /tmp/bench_drone, all cores.
# Needs node and npm (scripts/setup.sh installs npm); fetches laz-perf (LASzip as WebAssembly)
# from the npm registry into OUT_DIR, since PDAL, LASzip and libLAS are not Debian 12 packages.
# Prints registered images, time and the cloud-to-cloud median / 90th percentile, and writes
# OUT_DIR/results.json.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
flight=${1:-$here/../shared/datasets/drone/brighton_beach}
out=${2:-/tmp/bench_drone}
threads=${3:-$(nproc)}
sfm=$here/build/bin/sfm
lazperf_version=0.0.7
[ -d "$flight/images" ] && [ -f "$flight/model.laz" ] || { echo "bench: '$flight' has no images/ and model.laz" >&2; exit 2; }
[ -x "$sfm" ] || { echo "bench: build the project first (scripts/build.sh)" >&2; exit 2; }
command -v node >/dev/null && command -v npm >/dev/null || { echo "bench: node and npm are needed" >&2; exit 2; }
rm -rf "$out/ours"; mkdir -p "$out"
if [ ! -d "$out/laz-perf/node_modules/laz-perf" ]; then
  mkdir -p "$out/laz-perf"
  (cd "$out/laz-perf" && npm install --silent --no-save --fetch-timeout=20000 "laz-perf@$lazperf_version" >/dev/null)
fi

start=$(date +%s.%N)
"$sfm" reconstruct "$flight/images" -o "$out/ours" --device cpu --threads "$threads" 2> "$out/ours.log" >/dev/null
seconds=$(python3 -c "print(round($(date +%s.%N) - $start, 1))")
[ -f "$out/ours/points.las" ] || { echo "bench: no georeferenced cloud (see $out/ours/report.json)" >&2; exit 1; }
compare=$(node "$here/bench/drone_cloud_compare.mjs" "$out/ours/points.las" "$flight/model.laz" "$out/laz-perf")
python3 - "$out" "$seconds" "$compare" <<'PY'
import json, sys
out, seconds, compare = sys.argv[1], float(sys.argv[2]), json.loads(sys.argv[3])
report = json.load(open(f"{out}/ours/report.json"))
geo = report["georeference"]
result = {
    "registered_images": report["registered_images"],
    "images": report["usable_images"],
    "points": report["points"],
    "seconds": seconds,
    "georeferenced": geo["georeferenced"],
    "gps_inliers": geo.get("gps_inliers"),
    "gps_residual_rms_m": geo.get("gps_residual_rms_m"),
    "gps_residual_max_m": geo.get("gps_residual_max_m"),
    **compare,
}
json.dump(result, open(f"{out}/results.json", "w"), indent=2)
print(f"registered {result['registered_images']}/{result['images']}, {result['points']} points, "
      f"{seconds} s; GPS residual RMS {result['gps_residual_rms_m']} m; "
      f"C2C to model.laz ({compare['crs']}): median {compare['c2c_median_m']} m, "
      f"p90 {compare['c2c_p90_m']} m")
PY
