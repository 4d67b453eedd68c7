#!/usr/bin/env bash
# Configures and builds the project in ./build (Release). Uses nvcc when present.
#   scripts/build.sh            everything (program, tests, benchmarks)
#   scripts/build.sh sfm        only the named targets
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
if [ $# -gt 0 ]; then
  cmake --build build -j"$(nproc)" --target "$@"
else
  cmake --build build -j"$(nproc)"
fi
