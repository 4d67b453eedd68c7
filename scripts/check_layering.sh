#!/usr/bin/env bash
# No library includes a header of a target it does not link (README "Layout"): configures a
# throw-away build folder for its link graph and build rules (nothing is compiled), then
# checks every include of every library source against them.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export PATH="/usr/local/cuda/bin:$PATH"
cmake -S . -B "$dir" -G Ninja -DPROJ_BUNDLE_THREE_JS=OFF --graphviz="$dir/targets.dot" >/dev/null
python3 scripts/check_layering.py . "$dir"
