#!/usr/bin/env bash
# Fetches three.js from the npm registry for the interactive 3D view of report.html. CMake
# runs it at configure time; the files stay in the build folder (never in git) and are
# compiled into the program, so the pages open offline.
#   scripts/fetch_three.sh VERSION DEST_DIR
# Writes DEST_DIR/three.module.min.js, OrbitControls.js and LICENSE. Exits non-zero when npm
# is missing or the registry cannot be reached; the build then goes on without the 3D view.
set -euo pipefail
version=$1
dest=$2
if ! command -v npm >/dev/null; then
  echo "fetch_three: npm not found (scripts/setup.sh installs it)" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Short timeouts: an unreachable registry should cost seconds, not npm's default minutes.
(cd "$tmp" && npm pack --silent --fetch-timeout=20000 --fetch-retries=1 "three@$version" >/dev/null)
tar xzf "$tmp/three-$version.tgz" -C "$tmp"
mkdir -p "$dest"
cp "$tmp/package/LICENSE" "$dest/LICENSE"
cp "$tmp/package/examples/jsm/controls/OrbitControls.js" "$dest/OrbitControls.js"
# Last, through a rename: its presence tells CMake that the fetch is complete.
cp "$tmp/package/build/three.module.min.js" "$dest/three.module.min.js.part"
mv "$dest/three.module.min.js.part" "$dest/three.module.min.js"
echo "fetch_three: three.js $version in $dest" >&2
