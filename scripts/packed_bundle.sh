# Sourced by the device-run scripts (scripts/gpu_check.sh, bench/ba_gpu_check.sh): a bundle
# for the GPU machine whose executables travel xz-packed (the limit on what travels is 64 MiB).
#   pack_bundle BUNDLE EXECUTABLE...  here: ../shared/tools/device-bundle.sh, then bin/ packed
#                                     into BUNDLE/bin.tar.xz
#   open_bundle BUNDLE                there: sources BUNDLE/env.sh, unpacks the executables into
#                                     a temporary folder, sets $bin to it and exports
#                                     PROJ_SHARED_DATASETS (BUNDLE/datasets) and PROJ_BIN_DIR
pack_bundle() {
  local bundle=$1; shift
  rm -rf "$bundle"
  "$(dirname "${BASH_SOURCE[0]}")/../../shared/tools/device-bundle.sh" "$bundle" "$@"
  tar -C "$bundle" -cf - bin | xz -6 -T2 > "$bundle/bin.tar.xz"
  rm -rf "$bundle/bin"
}

open_bundle() {
  local bundle
  bundle=$(cd "$1" && pwd)
  # shellcheck disable=SC1091
  source "$bundle/env.sh"
  bin=$(mktemp -d)/bin
  tar -C "$(dirname "$bin")" -xJf "$bundle/bin.tar.xz"
  export PROJ_SHARED_DATASETS="$bundle/datasets" PROJ_BIN_DIR="$bin"
}
