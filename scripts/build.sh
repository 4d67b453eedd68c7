#!/usr/bin/env bash
# Configures and builds the project in ./build (Release). Uses nvcc when present.
#   scripts/build.sh            everything (program, tests, benchmarks)
#   scripts/build.sh sfm        only the named targets
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH"
# ccache, where installed, makes rebuilds in other worktrees cheap (not needed by CI).
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
  # Paths below the checkout hashed as relative ones, so another checkout of the same code hits.
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
if [ $# -gt 0 ]; then
  cmake --build build -j"$(nproc)" --target "$@"
else
  cmake --build build -j"$(nproc)"
fi
