#!/usr/bin/env bash
# A cluster run on a one-node Slurm cluster started on localhost (README "Cluster"): a small
# synthetic flight extracted and matched in 4 shards by scripts/slurm/run_cluster.sh, one
# extraction task killed mid-way and re-run by the scheduler, must give the database a single
# local run (sfm extract, match, map) gives, row for row, and the same registered images and
# position error (within 10%). Skips (exit 77) where Slurm and munge are not installed
# (scripts/install_slurm.sh installs them) or cannot start: it needs root, to run munged as
# the munge user and the Slurm daemons as root. Everything lives in a temporary folder and
# the daemons it started are stopped at the end.
#   tests/cluster/slurm_cluster_test.sh SFM_PROGRAM REPO_ROOT [WORK_DIR]
set -euo pipefail
sfm=$(realpath "$1")
repo=$(realpath "$2")
work=${3:-$(mktemp -d)}
num_images=${SLURM_TEST_IMAGES:-40}
shards=4
skip() { echo "slurm_cluster_test: SKIPPED: $*" >&2; exit 77; }
fail() { echo "slurm_cluster_test: FAILED: $*" >&2; exit 1; }

for tool in munged slurmctld slurmd sbatch squeue scontrol scancel sinfo; do
  command -v "$tool" >/dev/null || skip "$tool is not installed (scripts/install_slurm.sh installs slurm-wlm and munge)"
done
[ "$(id -u)" -eq 0 ] || skip "starting munged and the Slurm daemons needs root"
id munge >/dev/null 2>&1 || skip "there is no munge user (the munge package creates it)"

rm -rf "$work" && mkdir -p "$work"
work=$(realpath "$work")
cluster=$work/cluster
mkdir -p "$cluster"/{munge,state,spool,log}
daemons=()  # pid files of what this test started
teardown() {
  for pid_file in "${daemons[@]}"; do
    [ -f "$pid_file" ] && kill "$(cat "$pid_file")" 2>/dev/null || true
  done
}
trap teardown EXIT

# munged as the munge user, with a key of its own and its socket in the temporary folder.
head -c 1024 /dev/urandom > "$cluster/munge/key"
chown -R munge:munge "$cluster/munge"
chmod 755 "$cluster/munge"
chmod 400 "$cluster/munge/key"
daemons+=("$cluster/munge/pid")
su -s /bin/sh munge -c "munged --key-file=$cluster/munge/key --socket=$cluster/munge/socket \
  --pid-file=$cluster/munge/pid --log-file=$cluster/munge/log --seed-file=$cluster/munge/seed" ||
  skip "munged did not start: $(tail -1 "$cluster/munge/log" 2>/dev/null)"

# Ports of this run (other runs of the test may be up at the same time).
port=$((20000 + RANDOM % 20000))
host=$(hostname)
export SLURM_CONF=$cluster/slurm.conf
cat > "$SLURM_CONF" <<CONF
ClusterName=sfmtest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$cluster/munge/socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmctldPidFile=$cluster/slurmctld.pid
SlurmdPidFile=$cluster/slurmd.pid
StateSaveLocation=$cluster/state
SlurmdSpoolDir=$cluster/spool
SlurmctldLogFile=$cluster/log/slurmctld.log
SlurmdLogFile=$cluster/log/slurmd.log
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
daemons+=("$cluster/slurmd.pid" "$cluster/slurmctld.pid")
slurmctld -f "$SLURM_CONF" || skip "slurmctld did not start: $(tail -2 "$cluster/log/slurmctld.log")"
slurmd -f "$SLURM_CONF" || skip "slurmd did not start: $(tail -2 "$cluster/log/slurmd.log")"
for _ in $(seq 30); do
  sinfo -h -o %t 2>/dev/null | grep -q idle && break
  sleep 1
done
sinfo -h -o %t | grep -q idle || skip "the node did not come up: $(tail -2 "$cluster/log/slurmctld.log")"
echo "slurm_cluster_test: one-node cluster up (ports $port-$((port + 1)))" >&2

# The flight, and the options every run uses (CPU, small images: seconds per step).
"$sfm" synth "$work/flight" --flight --num-images "$num_images" --width 480 --height 360 --quiet
images=$work/flight/images
export SFM=$sfm
export SFM_EXTRACT_ARGS="--device cpu --threads 1 --max-features 1500"
export SFM_MATCH_ARGS="--device cpu --threads 1"
export SFM_MAP_ARGS="--threads 1 --quiet"

# A single local run.
mkdir -p "$work/single"
# shellcheck disable=SC2086
{
  "$sfm" extract "$images" --database "$work/single/database.db" $SFM_EXTRACT_ARGS --quiet
  "$sfm" match --database "$work/single/database.db" $SFM_MATCH_ARGS --quiet
  "$sfm" map --database "$work/single/database.db" -o "$work/single" $SFM_MAP_ARGS
} > "$work/single.log" 2>&1 || fail "the single run failed: $(tail -3 "$work/single.log")"

# The cluster run.
jobs=$(bash "$repo/scripts/slurm/run_cluster.sh" "$images" "$work/cluster_run" "$shards")
echo "slurm_cluster_test: submitted $jobs" >&2
job_id() { tr ' ' '\n' <<<"$jobs" | sed -n "s/^$1=//p"; }
extract=$(job_id extract)
map=$(job_id map)

# Kill extraction task 1 mid-way (once it has started extracting), then have the scheduler
# run it again. The merge is held meanwhile: its dependency (afterany) is met once every task
# has ended, and a cancelled task has, so on a fast machine the merge could start before the
# requeued task runs again (it would then refuse the unfinished shard, leaving nothing corrupt,
# and the run would need submitting again: README "Cluster").
merge_extract=$(job_id merge-extract)
scontrol hold "$merge_extract"
victim=${extract}_1
log=$work/cluster_run/logs/sfm-extract_1.log
for _ in $(seq 600); do
  grep -q 'sfm_array extract' "$log" 2>/dev/null && break
  sleep 0.1
done
grep -q 'sfm_array extract' "$log" 2>/dev/null || fail "extraction task 1 never started"
# Cancelled as soon as it has written its first image's features (its first progress line):
# a fixed wait missed the task on an idle machine, where it takes about 2 s.
for _ in $(seq 400); do
  grep -q 'extracting features: [0-9]*/' "$log" 2>/dev/null && break
  sleep 0.02
done
echo "slurm_cluster_test: $(date +%T.%N) cancelling $victim: $(squeue -h -j "$victim" -o "%i %T" 2>&1)" >&2
scancel "$victim"
for _ in $(seq 50); do
  [ "$(squeue -h -j "$victim" -o %T 2>/dev/null)" = CANCELLED ] && break
  sleep 0.1
done
grep -q '^extracted' "$log" && fail "extraction task 1 finished before it was cancelled: $(cat "$log")"
scontrol requeue "$victim"
# A requeued job waits two minutes before it may start again; it may start now.
scontrol update jobid="$(scontrol show job "$victim" | sed -n 's/^JobId=\([0-9]*\).*/\1/p')" StartTime=now
echo "slurm_cluster_test: extraction task 1 cancelled mid-way and requeued" >&2
for _ in $(seq 600); do
  [ "$(squeue -h -j "$extract" 2>/dev/null)" = "" ] && break
  sleep 0.2
done
scontrol release "$merge_extract"

for _ in $(seq 600); do
  [ -z "$(squeue -h -j "$map" 2>/dev/null)" ] && break
  sleep 0.5
done
for job in $(tr ' ' '\n' <<<"$jobs" | cut -d= -f2); do
  state=$(scontrol show job "$job" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | sort -u | tr '\n' ' ')
  [ "$state" = "COMPLETED " ] || fail "job $job ended $state; logs: $(tail -n 3 "$work"/cluster_run/logs/*.log)"
done
[ "$(grep -c 'sfm_array extract' "$log")" -ge 2 ] || fail "task 1 did not run twice: $(cat "$log")"
echo "slurm_cluster_test: task 1 ran twice; its second run: $(grep '^extracted' "$log" | tail -1)" >&2

# The same database as the single run, row for row (ids, features, matches, geometries).
python3 - "$work/single/database.db" "$work/cluster_run/database.db" <<'PY' || fail "the databases differ"
import sqlite3, sys
tables = ["cameras", "images", "keypoints", "descriptors", "matches", "two_view_geometries", "pose_priors", "proj_enu_frame"]
a, b = (sqlite3.connect(f"file:{p}?mode=ro", uri=True) for p in sys.argv[1:3])
for table in tables:
    rows_a = a.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()
    rows_b = b.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()
    if rows_a != rows_b:
        sys.exit(f"table {table}: {len(rows_a)} rows in the single run, {len(rows_b)} in the cluster run, not all equal")
    print(f"  {table}: {len(rows_a)} rows, equal", file=sys.stderr)
PY

evaluate() { "$sfm" evaluate "$1/model" --gt "$work/flight/gt_dense_cameras" || true; }
single=$(evaluate "$work/single")
clustered=$(evaluate "$work/cluster_run")
echo "single run:  $single" >&2
echo "cluster run: $clustered" >&2
registered() { sed -n 's/^registered: \([0-9]*\/[0-9]*\).*/\1/p' <<<"$1"; }
median_mm() { sed -n 's/.*median \([0-9.]*\),.*/\1/p' <<<"$1" | head -1; }
[ -n "$(registered "$single")" ] || fail "the single run has no model"
[ "$(registered "$single")" = "$(registered "$clustered")" ] ||
  fail "registered $(registered "$clustered") on the cluster, $(registered "$single") locally"
python3 -c "import sys; a, b = map(float, sys.argv[1:]); sys.exit(0 if abs(a - b) <= 0.1 * a + 1e-9 else 1)" \
  "$(median_mm "$single")" "$(median_mm "$clustered")" ||
  fail "median position error $(median_mm "$clustered") mm on the cluster, $(median_mm "$single") mm locally"
echo "slurm_cluster_test: PASSED" >&2
