#!/usr/bin/env bash
# Fresh machine to test results: installs dependencies, builds, runs every test through CTest.
# Tests needing ../shared/datasets or a GPU skip with a message when those are absent.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/install_test_tools.sh
bash scripts/build.sh
# The layering (README "Layout"): no library includes a header of a target it does not link.
bash scripts/check_layering.sh
ctest --test-dir build --output-on-failure -j"$(nproc)" --timeout 1800
