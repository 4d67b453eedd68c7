// Scenes for comparing bundle adjustment solvers (Ceres, our LM-PCG on CPU and GPU) in tests and
// bench/ba_bench.cc: perturbed starting points with noisy observations, so every solver has work
// to do and the optimum has a non-zero cost to compare.
#pragma once

#include <cstdint>

#include "sfm/ba/bundle_adjuster.h"
#include "sfm/scene/scene.h"
#include "tests/sfm/ba/synthetic_scene.h"

namespace proj::testing {

// MakeSyntheticScene(options) with Gaussian noise of noise_px on every keypoint, then poses
// (0.01 rad, 0.05 m), points (0.05 m) and intrinsics (focal x 1.02, distortion + 0.01)
// perturbed. Seeded.
Scene MakeNoisySyntheticScene(const SyntheticSceneOptions& options, double noise_px,
                              uint64_t seed);

// A large scene whose size grows linearly, as an aerial survey: num_images cameras on a square
// grid (spacing 1 m) 3 m above uneven ground (+-0.3 m), looking down with a few degrees of
// tilt (60 degree field of view, 1000 x 800 px, one SIMPLE_RADIAL camera per 10 images), and
// num_points points on the ground, each seen by the images that see it in the image (about
// 10); points seen by fewer than two images are dropped. Observations get noise_px Gaussian
// noise; poses and points are perturbed by a tenth of MakeNoisySyntheticScene's amounts,
// intrinsics by as much.
Scene MakeAerialGridScene(int num_images, int num_points, double noise_px, uint64_t seed);

// Priors as GPS and EXIF give them, for comparing solvers with prior terms: on every variable
// image of `config` a position prior at its centre plus Gaussian noise (sigma_m per axis, the
// prior's sigma), and on every camera a focal prior at 1.01 x its mean focal length (sigma 2%
// of it). Seeded.
void AddPriorsForTest(const Scene& scene, double sigma_m, uint64_t seed,
                      BundleAdjustmentConfig* config);

// Priors as ground control points give them: on every `every`-th variable point of `config`
// (in id order) a point prior at its position plus Gaussian noise (sigma_m per axis, the
// prior's sigma); fix_gauge off, as the priors hold the gauge. Seeded.
void AddPointPriorsForTest(const Scene& scene, int every, double sigma_m, uint64_t seed,
                           BundleAdjustmentConfig* config);

}  // namespace proj::testing
