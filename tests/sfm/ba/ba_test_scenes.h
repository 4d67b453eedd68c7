// Scenes for comparing bundle adjustment solvers (Ceres, our LM-PCG on CPU and GPU) in tests and
// bench/ba_bench.cc: perturbed starting points with noisy observations, so every solver has work
// to do and the optimum has a non-zero cost to compare.
#pragma once

#include <cstdint>

#include "sfm/scene.h"
#include "tests/sfm/ba/synthetic_scene.h"

namespace proj::testing {

// MakeSyntheticScene(options) with Gaussian noise of noise_px on every keypoint, then poses
// (0.01 rad, 0.05 m), points (0.05 m) and intrinsics (focal x 1.02, distortion + 0.01)
// perturbed. Seeded.
Scene MakeNoisySyntheticScene(const SyntheticSceneOptions& options, double noise_px,
                              uint64_t seed);

// A large scene whose cost of adjustment grows linearly: num_images cameras on a ring of
// radius 10 m looking outwards (60 degree field of view, 1000 x 800 px, one SIMPLE_RADIAL camera
// per 10 images), num_points points on a wall of radius 10.6 m and height +-0.25 m around
// them, each seen by about 10 images (those that see it in the image); points seen by fewer
// than two are dropped. Observations get noise_px Gaussian noise; poses and points are
// perturbed by a tenth of MakeNoisySyntheticScene's amounts, intrinsics by as much.
Scene MakeRingScene(int num_images, int num_points, double noise_px, uint64_t seed);

}  // namespace proj::testing
