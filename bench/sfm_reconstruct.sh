# shellcheck shell=bash
# Sourced by the benchmark scripts that run a reconstruction (drone_cloud_compare.sh,
# dense_synth.sh, dense_fountain.sh).
#   seconds=$(timed_reconstruct SFM LOG ARGS...)
# runs `SFM reconstruct ARGS...` with its output in LOG and prints its wall time (0.1 s); when
# it fails, prints the end of LOG on stderr and returns 1 (which stops a `set -e` script).
timed_reconstruct() {
  local sfm=$1 log=$2 start
  shift 2
  start=$(date +%s.%N)
  if ! "$sfm" reconstruct "$@" > "$log" 2>&1; then
    echo "bench: sfm reconstruct failed; the end of $log:" >&2
    tail -n 3 "$log" >&2
    return 1
  fi
  awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f\n", b - a }'
}
