#!/usr/bin/env bash
# Builds the Debian package of sfm and the Python package gpusfm (Release; no tests or
# benchmarks) in build-package/:
#   scripts/package.sh   ->  build-package/gpusfm_<version>_<arch>.deb
# PROJ_CMAKE_ARGS (environment) adds CMake options, e.g. "-DPROJ_CPU_ARCH=" for any x86-64.
# Install it with `apt-get install ./build-package/gpusfm_*.deb` (pulls the dependencies).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/cuda/bin:$PATH"
bash scripts/setup.sh
# CPack finds the package's dependencies with dpkg-shlibdeps (dpkg-dev) and file.
bash scripts/apt_install.sh dpkg-dev file
cmake -S . -B build-package -G Ninja -DCMAKE_BUILD_TYPE=Release -DPROJ_BUILD_TESTS=OFF \
  -DPROJ_BUILD_BENCHMARKS=OFF ${PROJ_CMAKE_ARGS:-} >/dev/null
# _gpusfm: the Python package, when python3-dev and pybind11-dev are present (they are after
# setup.sh); the package then holds it in /usr/lib/python3.X/dist-packages/gpusfm.
targets=(sfm)
grep -q '^PROJ_WITH_PYTHON:BOOL=ON' build-package/CMakeCache.txt && targets+=(_gpusfm)
cmake --build build-package -j"$(nproc)" --target "${targets[@]}"
(cd build-package && cpack -G DEB)
