#!/usr/bin/env bash
# Installs the tools that only tests use (not needed to build or run sfm): headless Chromium
# for the report page test (tests/integration/report_page_test.cc), ffmpeg, which makes
# the test videos (tests/io/video_test_files.h; sfm itself needs it only to read videos), and
# the npm LAS readers of tests/io/las_interop_test.cc (into build/test-tools), pytest for the
# Python package's tests (python/tests), matplotlib for the README's Python example, and Slurm
# with munge for the cluster test (tests/cluster, scripts/install_slurm.sh).
# Tests are skipped with a message without them. scripts/test.sh runs this.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bash "$here/apt_install.sh" chromium ffmpeg python3-pytest python3-matplotlib
bash "$here/install_slurm.sh"
bash "$here/fetch_las_readers.sh" "$here/../build/test-tools" ||
  echo "install_test_tools: the LAS readers could not be fetched; las_interop_test will skip" >&2
echo "install_test_tools: all test tools present" >&2
