#!/usr/bin/env bash
# Fresh machine to point cloud: installs dependencies, builds, renders the built-in synthetic
# scene and reconstructs it. Output in ./out/demo (points.ply, cameras.ply, model/, report.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh sfm
./build/bin/sfm synth out/demo/scene
./build/bin/sfm reconstruct out/demo/scene/images -o out/demo
./build/bin/sfm evaluate out/demo/model --gt out/demo/scene/gt_dense_cameras
echo "demo: point cloud written to $(pwd)/out/demo/points.ply"
