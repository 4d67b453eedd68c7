#!/usr/bin/env bash
# Installs the tools that only tests use (not needed to build or run sfm): headless Chromium
# for the report page test (tests/integration/report_page_test.cc), which is skipped with a
# message without it. scripts/test.sh runs this.
set -euo pipefail
bash "$(dirname "$0")/apt_install.sh" chromium
echo "install_test_tools: all test tools present" >&2
