#!/usr/bin/env bash
# CI sanitizer job: builds the CPU program and its tests with AddressSanitizer and
# UndefinedBehaviorSanitizer (-DSFM_SANITIZE=ON, CUDA off, no benchmarks) in ./build-asan and
# runs them there. Any sanitizer report (memory error, leak, undefined behaviour) aborts the
# test that caused it, so the job fails.
# The tests run: those built (the folders in SANITIZE_TEST_MODULES, by default the unit tests
# of core, io, geometry, features, matching, sfm, undistort, mvs and datasets) without the CTest
# labels in SANITIZE_EXCLUDE_LABELS (a regex for `ctest -LE`, default "gpu|integration|slow"; README
# "Tests"). Left out:
#  - integration (tests/reliability, tests/integration): the bad-input corpus runs
#    `sfm reconstruct` 72 times, 40-160 s each under ASan on 2 cores, and whole
#    reconstructions and resumes are too slow under ASan for CI; they run without sanitizers in
#    scripts/test.sh, and by hand with
#    SANITIZE_TEST_MODULES="reliability" SANITIZE_EXCLUDE_LABELS="";
#  - gpu (tests/cuda): no CUDA in this build (they would only skip);
#  - slow: sift_quality_test (SIFT on full-size photographs against OpenCV's, 100 s without
#    sanitizers); the other SIFT tests run.
#   scripts/test_sanitizers.sh            build, then run the tests
#   scripts/test_sanitizers.sh --build    build only
# Expects the packages of scripts/setup.sh (scripts/test.sh installs them first in CI).
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=0
[ "${1:-}" = "--build" ] && build_only=1

# -O1: the usual level for ASan (readable reports), and it compiles the Eigen-heavy sources
# several times faster than -O3.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Release -DSFM_SANITIZE=ON \
  -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG" \
  -DPROJ_WITH_CUDA=OFF -DPROJ_BUILD_BENCHMARKS=OFF \
  -DPROJ_TEST_MODULES="${SANITIZE_TEST_MODULES:-core;io;geometry;features;matching;sfm;undistort;mvs;datasets}" >/dev/null
cmake --build build-asan -j"$(nproc)"
[ "$build_only" -eq 1 ] && exit 0

# Leaks fail the run too; the first report stops the process so it stays readable.
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
exclude_labels=${SANITIZE_EXCLUDE_LABELS-gpu|integration|slow}
ctest --test-dir build-asan --output-on-failure -j"$(nproc)" --timeout 1800 \
  ${exclude_labels:+-LE "$exclude_labels"}
