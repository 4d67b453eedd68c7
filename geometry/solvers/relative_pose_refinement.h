// Non-linear refinement of a calibrated relative pose cam2_from_cam1 = (R, t), |t| = 1, by
// Levenberg-Marquardt on the Sampson distance of the essential matrix E = [t]x R (Hartley &
// Zisserman, "Multiple View Geometry", 2nd ed., sec. 11.4.3): the first-order approximation of
// the gold-standard (bundle) cost, without 3D points. Rotation updated as R <- exp([w]x) R,
// translation on the unit sphere (2 tangent parameters): 5 degrees of freedom.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "geometry/rigid3.h"

namespace proj {

struct RelativePoseRefinementOptions {
  int max_iterations = 50;
  // Stop when the relative cost decrease of an accepted step falls below this.
  double function_tolerance = 1e-12;
  // Throws InputError naming the field for out-of-range values.
  void Check() const;
};

struct RelativePoseRefinementSummary {
  bool success = false;  // false: fewer than 5 correspondences or a non-finite system
  int num_iterations = 0;
  double initial_cost = 0.0;  // 0.5 * sum of squared Sampson distances (normalized units^2)
  double final_cost = 0.0;
};

// points*_normalized: normalized image coordinates of the correspondences (sizes must match,
// InputError otherwise). *cam2_from_cam1 is the start (its translation is normalized) and is
// overwritten with a pose of lower or equal cost. Does not re-check cheirality: the Sampson cost
// is invariant to the fourfold ambiguity, and small steps do not leave its basin.
RelativePoseRefinementSummary RefineRelativePose(
    const RelativePoseRefinementOptions& options,
    const std::vector<Eigen::Vector2d>& points1_normalized,
    const std::vector<Eigen::Vector2d>& points2_normalized, Rigid3d* cam2_from_cam1);

}  // namespace proj
