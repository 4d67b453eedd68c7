#!/usr/bin/env bash
# A whole sfm run on a Slurm cluster (README "Cluster"): extraction in N shards, their merge,
# matching in N shards, their merge, then mapping, as five jobs. A merge starts once every
# task of its array has ended, however it ended (it refuses shards that did not finish, with
# a message naming them, so a task re-run before the others end is waited for); the jobs after
# a merge start only when it succeeded, and are cancelled when it failed. OUT must be on
# storage that every node sees. Prints the job ids; logs go to OUT/logs, the model to
# OUT/model.
#   scripts/slurm/run_cluster.sh IMAGES OUT N [sbatch options for every job...]
# Environment: as sfm_array.sbatch (SFM, SFM_EXTRACT_ARGS, SFM_MATCH_ARGS, SFM_MAP_ARGS).
set -euo pipefail
[ $# -ge 3 ] || { sed -n '2,7p' "$0" >&2; exit 2; }
images=$(realpath "$1")
out=$2
count=$3
shift 3
[ -d "$images" ] || { echo "run_cluster: '$images' is not a folder of images" >&2; exit 2; }
[[ "$count" =~ ^[1-9][0-9]*$ ]] || { echo "run_cluster: N must be a positive number, got '$count'" >&2; exit 2; }
mkdir -p "$out/logs"
out=$(realpath "$out")
script=$(dirname "$(realpath "$0")")/sfm_array.sbatch
submit() {  # submit DEPENDENCY STEP [sbatch options]: prints the job id
  local dependency=$1 step=$2
  shift 2
  sbatch --parsable ${dependency:+--dependency=$dependency --kill-on-invalid-dep=yes} \
    --job-name="sfm-$step" "$@" "$script" "$step" "$images" "$out" "$count" | cut -d';' -f1
}
array=(--array="0-$((count - 1))" --output="$out/logs/%x_%a.log")
single=(--output="$out/logs/%x.log")
extract=$(submit "" extract "${array[@]}" "$@")
merge_extract=$(submit "afterany:$extract" merge-extract "${single[@]}" "$@")
match=$(submit "afterok:$merge_extract" match "${array[@]}" "$@")
merge_match=$(submit "afterany:$match" merge-match "${single[@]}" "$@")
map=$(submit "afterok:$merge_match" map "${single[@]}" "$@")
echo "extract=$extract merge-extract=$merge_extract match=$match merge-match=$merge_match map=$map"
