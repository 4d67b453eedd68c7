#!/usr/bin/env bash
# Benchmark (not a test): dense reconstruction of fountain-P11 (11 photos, 3072x2048; issue 24).
#   bench/dense_fountain.sh run OUT_DIR [ARGS for sfm reconstruct...]
#     `sfm reconstruct fountain-P11/images -o OUT_DIR --dense ARGS`, timed; prints the number
#     of depth maps, the time per depth map (median, and each, when report.json gives them) and
#     the total, and writes OUT_DIR/dense_timing.json. E.g. on the GPU machine at full
#     resolution:   SFM=bin/sfm bench/dense_fountain.sh run /tmp/fountain_gpu --device gpu
#     and on the 2-core machine:
#                   bench/dense_fountain.sh run /tmp/fountain_cpu --device cpu --dense-max-image-size 1000
#   bench/dense_fountain.sh compare OUT_A OUT_B [photometric|geometric]
#     The two runs' depth maps against each other (dense_depth_accuracy compare): of the pixels
#     valid in both, the share within 0.5% of each other, and the shares valid in one run only;
#     maps of different sizes are compared on the smaller grid. Writes OUT_A/compare_KIND.json.
# Environment: SFM=PATH, the sfm program (default build/bin/sfm; dense_depth_accuracy from the
# same folder); FOUNTAIN=DIR, the scene (default ../shared/datasets/strecha/fountain-P11).
# Timing: report.json's stage_seconds entries whose name holds "dense" and, when the dense stage
# records them, the per-map seconds dense.depth_map_seconds (a list, or an object by image
# name); without those, the mean over the maps of the stage whose name holds "depth" or
# "patch_match" (else "dense"; else, or without python3, the whole run's wall time): an upper
# bound of the median.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
sfm=${SFM:-$here/build/bin/sfm}
# shellcheck source=bench/sfm_reconstruct.sh
source "$here/bench/sfm_reconstruct.sh"
bin=$(dirname "$sfm")
fountain=${FOUNTAIN:-$here/../shared/datasets/strecha/fountain-P11}
usage="usage: bench/dense_fountain.sh run OUT_DIR [ARGS...] | compare OUT_A OUT_B [KIND]"
mode=${1:-}
[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }

if [ "$mode" = compare ]; then
  a=$2
  b=${3:?$usage}
  kind=${4:-photometric}
  [ -x "$bin/dense_depth_accuracy" ] || { echo "bench: no $bin/dense_depth_accuracy (build the benchmarks, or set SFM)" >&2; exit 2; }
  "$bin/dense_depth_accuracy" compare "$a/dense/stereo/depth_maps" "$b/dense/stereo/depth_maps" \
    --kind "$kind" --tolerance 0.005 --json "$a/compare_$kind.json"
  exit 0
fi
[ "$mode" = run ] || { echo "$usage" >&2; exit 2; }
out=$2
shift 2
[ -x "$sfm" ] || { echo "bench: no $sfm (build it, or set SFM)" >&2; exit 2; }
[ -d "$fountain/images" ] || { echo "bench: no $fountain/images" >&2; exit 2; }
rm -rf "$out"
mkdir -p "$out"
seconds=$(timed_reconstruct "$sfm" "$out.log" "$fountain/images" -o "$out" --dense "$@")
maps=$(find "$out/dense/stereo/depth_maps" -name '*.photometric.bin' 2>/dev/null | wc -l)
echo "fountain-P11, sfm reconstruct --dense $*: $maps depth maps, $seconds s wall"

if command -v python3 >/dev/null; then
  python3 - "$out" "$seconds" "$maps" "$*" <<'PY'
import json, statistics, sys
out, wall, maps, args = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
report = json.load(open(f"{out}/report.json"))
stages = {k: v for k, v in report.get("stage_seconds", {}).items() if "dense" in k}
per_map = (report.get("dense") or {}).get("depth_map_seconds")
if isinstance(per_map, dict):
    per_map = list(per_map.values())
result = {"args": args, "wall_seconds": wall, "depth_maps": maps,
          "registered_images": report.get("registered_images"), "dense_stage_seconds": stages}
if per_map:
    result.update(depth_map_seconds=per_map, depth_map_median_seconds=statistics.median(per_map),
                  timing="report.json dense.depth_map_seconds")
else:
    # The narrowest stage that holds the depth maps, else the whole run: an upper bound.
    stage = next((k for k in stages if "depth" in k or "patch_match" in k), "dense" if "dense" in stages else None)
    total = stages[stage] if stage else wall
    result.update(depth_map_median_seconds=total / maps if maps else None,
                  timing=f"{'stage ' + stage if stage else 'wall time of the whole run'} / number of maps (mean, upper bound)")
json.dump(result, open(f"{out}/dense_timing.json", "w"), indent=2)
for name, value in stages.items():
    print(f"  {name}: {value:.2f} s")
median = result["depth_map_median_seconds"]
print(f"  per depth map: median {median:.3g} s ({result['timing']})" if median else "  no depth maps")
PY
else
  awk -v s="$seconds" -v n="$maps" 'BEGIN { if (n > 0) printf "  per depth map: at most %.2f s (wall / maps)\n", s / n }'
fi
