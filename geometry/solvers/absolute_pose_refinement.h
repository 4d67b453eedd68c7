// Non-linear least-squares refinement of an absolute pose (cam_from_world) from 2D-3D
// correspondences with fixed intrinsics: Levenberg-Marquardt (K. Madsen, H. B. Nielsen,
// O. Tingleff, "Methods for non-linear least squares problems", 2004, sec. 3.2) on the
// reprojection error, with the rotation updated on the manifold (R <- exp([w]x) R). Small,
// dense and allocation-free per iteration; no dependency on Ceres.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "geometry/camera/camera.h"
#include "geometry/rigid3.h"

namespace proj {

struct AbsolutePoseRefinementOptions {
  int max_iterations = 50;
  // Huber loss threshold in the residual's unit (normalized image units for the normalized
  // overload, pixels for the Camera overload); 0 = plain least squares.
  double huber_threshold = 0.0;
  // Stop when the relative cost decrease of an accepted step falls below this.
  double function_tolerance = 1e-12;
  // Throws InputError naming the field for out-of-range values.
  void Check() const;
};

struct AbsolutePoseRefinementSummary {
  bool success = false;  // false: fewer than 3 usable points or a non-finite system
  int num_iterations = 0;
  // 0.5 * sum of (robustified) squared residuals over the points in front of the camera.
  double initial_cost = 0.0;
  double final_cost = 0.0;
};

// Residual: projection of cam_from_world * points3d[i] onto the z = 1 plane minus
// points2d_normalized[i]. Points that are not in front of the camera are skipped. The pose is
// only overwritten with a pose of lower or equal cost.
AbsolutePoseRefinementSummary RefineAbsolutePose(
    const AbsolutePoseRefinementOptions& options,
    const std::vector<Eigen::Vector2d>& points2d_normalized,
    const std::vector<Eigen::Vector3d>& points3d, Rigid3d* cam_from_world);

// Same with the full camera model: residual = camera.Project(cam_from_world * X) - pixel, in
// pixels, distortion included (intrinsics are not changed).
AbsolutePoseRefinementSummary RefineAbsolutePose(const AbsolutePoseRefinementOptions& options,
                                                 const Camera& camera,
                                                 const std::vector<Eigen::Vector2d>& points2d_px,
                                                 const std::vector<Eigen::Vector3d>& points3d,
                                                 Rigid3d* cam_from_world);

}  // namespace proj
