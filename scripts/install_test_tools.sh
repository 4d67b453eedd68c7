#!/usr/bin/env bash
# Installs the tools that only tests use (not needed to build or run sfm): headless Chromium
# for the report page test (tests/integration/report_page_test.cc), and ffmpeg, which makes
# the test videos (tests/io/video_test_files.h; sfm itself needs it only to read videos).
# Tests are skipped with a message without them. scripts/test.sh runs this.
set -euo pipefail
bash "$(dirname "$0")/apt_install.sh" chromium ffmpeg
echo "install_test_tools: all test tools present" >&2
