#!/usr/bin/env bash
# Installs every Debian 12 package the project needs to build, test and run. npm fetches
# three.js for report.html's 3D view at configure time (sfm/outputs/report_assets.cmake).
# CUDA (nvcc) is not a Debian package: when /usr/local/cuda/bin/nvcc is present the GPU
# kernels are built, otherwise the program is built for the CPU only. pybind11-dev,
# python3-dev and python3-numpy build the Python package gpusfm (python/).
set -euo pipefail
packages=(
  cmake ninja-build g++ pkg-config
  libeigen3-dev libceres-dev
  libopencv-core-dev libopencv-imgproc-dev libopencv-calib3d-dev
  libopencv-features2d-dev libopencv-video-dev libopencv-flann-dev
  libcli11-dev libturbojpeg0-dev libpng-dev libexif-dev libsqlite3-dev libproj-dev libgdal-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  pybind11-dev python3-dev python3-numpy
)
# npm: Debian's package, unless an npm is on PATH already (a Node.js installed from elsewhere
# ships its own, and Debian's npm would conflict with it).
command -v npm >/dev/null || packages+=(npm)
bash "$(dirname "$0")/apt_install.sh" "${packages[@]}"
echo "setup: all packages present" >&2
