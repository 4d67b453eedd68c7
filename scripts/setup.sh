#!/usr/bin/env bash
# Installs every Debian 12 package the project needs to build, test and run.
# CUDA (nvcc) is not a Debian package: when /usr/local/cuda/bin/nvcc is present the GPU
# kernels are built, otherwise the program is built for the CPU only.
set -euo pipefail
packages=(
  cmake ninja-build g++ pkg-config
  libeigen3-dev libceres-dev
  libopencv-core-dev libopencv-imgproc-dev libopencv-calib3d-dev
  libopencv-features2d-dev libopencv-video-dev libopencv-flann-dev
  libcli11-dev libturbojpeg0-dev libpng-dev libexif-dev libsqlite3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "setup: all packages present" >&2
