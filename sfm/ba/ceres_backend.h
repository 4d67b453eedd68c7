// Bundle adjustment by Ceres' Levenberg-Marquardt with a Schur-complement linear solver: the
// reference solver (BundleAdjustmentOptions::Solver::kCeres). Internal to sfm/ba.
#pragma once

#include "sfm/ba/adjustment.h"

namespace proj::internal {

// Refines the scene's parameters of `adjustment` in place.
SolverResult SolveWithCeres(const BundleAdjustmentOptions& options, const Adjustment& adjustment,
                            int num_variable_points, Scene* scene);

}  // namespace proj::internal
