#!/usr/bin/env bash
# Packs build/bin/sfm for the GPU machine (../shared/tools/device-bundle.sh) with PROJ's EGM96
# geoid grid (bench/drone_flight.sh points PROJ_DATA at it there), for the synthetic flight
# benchmarks. Build first: scripts/build.sh sfm (nvcc present: the GPU kernels are in).
#   bench/make_flight_bundle.sh [BUNDLE_DIR]    (default .device-flight: .gitignore covers it,
#                                                so the device run carries it by name)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bundle=${1:-$here/.device-flight}
[ -x "$here/build/bin/sfm" ] || { echo "make_flight_bundle: build sfm first (scripts/build.sh sfm)" >&2; exit 2; }
bash "$here/../shared/tools/device-bundle.sh" "$bundle" "$here/build/bin/sfm"
mkdir -p "$bundle/proj"
if [ -f /usr/share/proj/egm96_15.gtx ]; then
  cp /usr/share/proj/egm96_15.gtx "$bundle/proj/"
else
  echo "make_flight_bundle: /usr/share/proj/egm96_15.gtx missing (apt-get install proj-data);" \
       "the flight will be written and read with ellipsoidal altitudes" >&2
fi
du -sh "$bundle"
