#!/usr/bin/env bash
# Benchmark (not a test): partitioned mapping against one mapping of the whole, on the same
# verified pairs. Maps the database of a flight that bench/drone_flight.sh reconstructed
# (OUT/recon/database.db) again with `sfm map`, once whole and once per part count given, and
# reports per run: registered images, camera position error against the truth (sfm evaluate),
# GPS residuals, the mapping stage and its steps (report.json stage_seconds), wall and CPU
# seconds, peak host memory and peak GPU memory (nvidia-smi sampled every 0.2 s, where there
# is one).
#   bench/partition_flight.sh FLIGHT_OUT [PARTS...]     (default parts: 4; 0: none, the whole only)
# Environment: SFM (as drone_flight.sh: a bundle's sfm runs with its env.sh), EXTRA="ARGS"
# (more `sfm map` options for every run), RESULTS_DIR (copy summary and logs there), WHOLE=0
# (skip the whole run).
# On the GPU machine, after the 1,000-image flight of bench/drone_flight.sh:
#   SFM=.device-flight/bin/sfm bash bench/partition_flight.sh build-flight/f1000 4 8
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: partition_flight.sh FLIGHT_OUT [PARTS...]}
shift
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(4)
sfm=${SFM:-$repo/build/bin/sfm}
bundle=$(cd "$(dirname "$sfm")/.." && pwd)
if [ -f "$bundle/env.sh" ]; then
  # shellcheck disable=SC1091
  source "$bundle/env.sh"
  if [ -f "$bundle/proj/egm96_15.gtx" ]; then export PROJ_DATA="$bundle/proj" PROJ_LIB="$bundle/proj"; fi
fi
db=$out/recon/database.db
[ -f "$db" ] || { echo "partition_flight: no '$db' (run bench/drone_flight.sh on $out first)" >&2; exit 2; }
summary=$out/partition_summary.txt
: > "$summary"
say() { echo "$*" | tee -a "$summary"; }
# shellcheck source=bench/gpu_memory_sampler.sh
source "$repo/bench/gpu_memory_sampler.sh"
say "machine: $(nproc) cores, $(uname -n); load: $(cut -d' ' -f1-3 /proc/loadavg)"

# `sfm map` with the given options into $out/map_NAME; prints the run's figures.
map_run() {  # NAME OPTIONS...
  local name=$1; shift
  local dir=$out/map_$name
  rm -rf "$dir"
  gpu_sampler_start "$out/map_$name.gpu"
  local figures
  figures=$(python3 - "$out/map_$name.log" "$sfm" map --database "$db" -o "$dir" --image-path "$out/flight/images" \
    "$@" ${EXTRA:-} <<'PY'
import resource, subprocess, sys, time
start = time.time()
with open(sys.argv[1], "w") as log:
    status = subprocess.call(sys.argv[2:], stdout=log, stderr=subprocess.STDOUT)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"exit {status}, {time.time() - start:.1f} s wall, {usage.ru_utime + usage.ru_stime:.1f} s CPU, "
      f"peak host {usage.ru_maxrss // 1024} MB")
PY
)
  local gpu_peak
  gpu_peak=$(gpu_sampler_stop)
  say "== $name ($*): $figures, peak GPU $gpu_peak"
  if [ -f "$dir/report.json" ]; then
    python3 - "$dir/report.json" <<'PY' | while read -r line; do say "  $line"; done
import json, sys
r = json.load(open(sys.argv[1]))
print(f"registered {r['registered_images']}/{r['usable_images']}, points {r['points']}, parts {r.get('mapping_parts', 1)}")
stages = r.get("stage_seconds", {})
print("mapping steps (s): " + ", ".join(f"{k[8:]} {v:.1f}" for k, v in stages.items()
                                         if k.startswith("mapping.") or k == "mapping"))
PY
    "$sfm" evaluate "$dir/model" --gt "$out/flight/gt_dense_cameras" 2>/dev/null | head -3 | sed 's/^/  /' | tee -a "$summary" || true
    python3 "$repo/bench/flight_georeference_error.py" "$dir" "$out/flight" | sed 's/^/  /' | tee -a "$summary" || true
  fi
  grep -E "^(part [0-9]+/[0-9]+: [0-9]+ images registered, merged|warning: part|merged [0-9]+ of|partitioned mapping:)" \
    "$out/map_$name.log" | while read -r line; do say "  $line"; done || true
}

[ "${WHOLE:-1}" = 0 ] || map_run whole
for count in "${parts[@]}"; do
  [ "$count" = 0 ] || map_run "parts$count" --num-parts "$count"
done
if [ -n "${RESULTS_DIR:-}" ]; then
  mkdir -p "$RESULTS_DIR"
  cp "$summary" "$RESULTS_DIR/"
  for f in "$out"/map_*.log; do cp "$f" "$RESULTS_DIR/"; done
fi
