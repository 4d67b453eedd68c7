// Trilateral level smoother for the CPU SIFT scale space (hook documented in
// features/sift/scale_space.h): level s of an octave is the trilateral filter (CPU reference,
// float) of the octave's base image (level -1) at sigma_c = scale * target_sigma, in octave
// pixels, where scale = options.trilateral_sigma_c when > 0, else 1. The Gaussian's
// incremental shortcut does not apply: every level filters the base image. Thread-safe.
#pragma once

#include "features/feature_extractor.h"
#include "features/sift/scale_space.h"

namespace proj {

LevelSmoother CreateTrilateralLevelSmoother(const FeatureOptions& options);

// sigma_c of the level: scale * target_sigma (scale = sigma_c_scale when > 0, else 1).
double TrilateralLevelSigmaC(double sigma_c_scale, double target_sigma);

}  // namespace proj
