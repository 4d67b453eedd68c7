#!/usr/bin/env bash
# Fuzzes the file readers with libFuzzer (tests/fuzz): builds the targets with clang and
# -fsanitize=fuzzer,address,undefined in ./build-fuzz (-DSFM_FUZZ=ON), writes the seed corpus
# from ../shared/datasets and the synthetic generator (make_fuzz_seeds, an ordinary program of
# the regular ./build, so its writers are the ones users run), then runs each target
# for a fixed time. A crash, sanitizer report, leak, timeout or out-of-memory stops that
# target, leaves the input in build-fuzz/findings/TARGET/ and fails the script.
#   scripts/fuzz.sh                           60 s per target (CI)
#   scripts/fuzz.sh --seconds-per-target N    N s per target
#   scripts/fuzz.sh --targets "ply exif"      only these (names without _fuzzer)
# The corpus each target grows is kept in build-fuzz/corpus/TARGET, so later runs go on from
# it. Prints one line per target: executions, executions per second, corpus size.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=60
targets="image_decode exif ply float_raster colmap_text colmap_binary scene_database gcp_file"
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds-per-target) seconds="$2"; shift 2 ;;
    --targets) targets="$2"; shift 2 ;;
    *) echo "fuzz.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

# clang and its runtime libraries (libFuzzer, ASan, UBSan) from Debian.
bash scripts/apt_install.sh clang libclang-rt-dev

datasets="${PROJ_SHARED_DATASETS:-$PWD/../shared/datasets}"
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Release -DSFM_FUZZ=ON \
  -DPROJ_WITH_CUDA=OFF -DPROJ_BUILD_TESTS=OFF -DPROJ_BUILD_BENCHMARKS=OFF \
  -DPROJ_BUNDLE_THREE_JS=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target fuzzers
bash scripts/build.sh make_fuzz_seeds

export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# The targets write their input files here (tests/fuzz/fuzz_support.h): in memory when
# /dev/shm is there, so an execution costs no disk write.
scratch_root="$PWD/build-fuzz"
[ -d /dev/shm ] && [ -w /dev/shm ] && scratch_root=/dev/shm
export TMPDIR="$scratch_root/proj_fuzz_scratch_$$"
trap 'rm -rf "$TMPDIR"' EXIT
rm -rf build-fuzz/seeds && mkdir -p "$TMPDIR"
if [ -d "$datasets" ]; then
  build/bin/make_fuzz_seeds build-fuzz/seeds "$datasets"
else
  echo "fuzz.sh: $datasets not found: seeds from the synthetic generator only" >&2
  build/bin/make_fuzz_seeds build-fuzz/seeds
fi

failed=0
for target in $targets; do
  corpus="build-fuzz/corpus/$target" findings="build-fuzz/findings/$target"
  log="build-fuzz/logs/$target.log"
  mkdir -p "$corpus" "$findings" build-fuzz/logs
  # -rss_limit_mb: an input that makes a reader allocate gigabytes is a finding (the limits
  # of README.md's Security section should refuse it first). -timeout: likewise a hang.
  status=0
  "build-fuzz/bin/${target}_fuzzer" "$corpus" "build-fuzz/seeds/$target" \
    -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2560 -max_len=262144 \
    -print_final_stats=1 -artifact_prefix="$findings/" >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  verdict=ok
  [ $status -eq 0 ] || verdict="FAILED, see $log"
  printf 'fuzz %-15s %10s executions %7s exec/s %6s corpus files  %s\n' "$target" \
    "${runs:-?}" "${speed:-?}" "$(find "$corpus" -type f | wc -l)" "$verdict"
  if [ $status -ne 0 ]; then
    failed=1
    grep -m5 -E "ERROR|SUMMARY|runtime error|Check failed|terminate" "$log" >&2 || true
  fi
done
exit $failed
