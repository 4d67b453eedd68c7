// Robust absolute pose (cam_from_world) from 2D-3D correspondences with known intrinsics:
// RANSAC + MSAC + LO (geometry/ransac/ransac.h) with Lambda Twist P3P hypotheses
// (geometry/solvers/p3p.h) refined by Levenberg-Marquardt on the inliers
// (geometry/solvers/absolute_pose_refinement.h). options.max_error is a reprojection error in
// pixels for both overloads. Sizes must match (InputError otherwise). Thread-safe.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "geometry/camera/camera.h"
#include "geometry/ransac/ransac_options.h"
#include "geometry/rigid3.h"

namespace proj {

// Observations in normalized image coordinates (ray (x, y, 1)); the reprojection error is
// measured on the normalized plane and scaled by focal_px (> 0) into pixels, which is exact for
// undistorted pinhole cameras and a close approximation otherwise.
RansacReport<Rigid3d> EstimateAbsolutePose(const RansacOptions& options,
                                           const std::vector<Eigen::Vector2d>& points2d_normalized,
                                           const std::vector<Eigen::Vector3d>& points3d,
                                           double focal_px);

// Observations in pixels of `camera`; the error is the true pixel reprojection error through
// the camera model (distortion included). Points are undistorted once for the P3P samples.
RansacReport<Rigid3d> EstimateAbsolutePose(const RansacOptions& options, const Camera& camera,
                                           const std::vector<Eigen::Vector2d>& points2d_px,
                                           const std::vector<Eigen::Vector3d>& points3d);

}  // namespace proj
