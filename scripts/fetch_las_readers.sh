#!/usr/bin/env bash
# Fetches the LAS readers that tests/io/las_interop_test.cc reads our points.las back with:
# copc.js (LAS header, VLRs, point views) and laz-perf (LASzip's reader as WebAssembly), from
# the npm registry (PDAL, LASzip and libLAS are not Debian 12 packages). Only tests use them.
#   scripts/fetch_las_readers.sh DEST_DIR
# Installs into DEST_DIR/node_modules; exits non-zero when npm is missing or the registry
# cannot be reached (the test then skips with a message).
set -euo pipefail
dest=$1
if ! command -v npm >/dev/null; then
  echo "fetch_las_readers: npm not found (scripts/setup.sh installs it)" >&2
  exit 1
fi
if [ -f "$dest/node_modules/copc/package.json" ] && [ -f "$dest/node_modules/laz-perf/package.json" ]; then
  exit 0
fi
mkdir -p "$dest"
(cd "$dest" && npm install --silent --no-save --no-audit --no-fund --fetch-timeout=20000 \
  --fetch-retries=1 copc@0.0.8 laz-perf@0.0.7 >/dev/null)
echo "fetch_las_readers: copc 0.0.8 and laz-perf 0.0.7 in $dest/node_modules" >&2
