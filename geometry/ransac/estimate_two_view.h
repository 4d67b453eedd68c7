// Robust two-view estimation (RANSAC + MSAC + LO, geometry/ransac/ransac.h): minimal solvers
// draw hypotheses, the least-squares solvers refine them on inliers.
// Convention: x2^T F x1 = 0, x2^T E x1 = 0, x2 ~ H x1 for points1[i] (image 1) <->
// points2[i] (image 2). Sizes must match (InputError otherwise). Fewer correspondences than the
// sample size yield success == false. Thread-safe (no shared state).
// `sample_pool` (optional, one entry per correspondence): minimal samples only from those
// marked 1, scoring on all (see Ransac in ransac.h), e.g. the inliers of an estimate that the
// sought model's inliers are a subset of.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "geometry/ransac/ransac_options.h"

namespace proj {

// Essential matrix from normalized image coordinates (Camera::PixelToNormalized; ray (x, y, 1)).
// Minimal: five-point (geometry/solvers/essential_five_point.h); refit: Levenberg-Marquardt on
// the Sampson error of the decomposed pose (geometry/solvers/relative_pose_refinement.h).
// Error: Sampson distance in normalized image units, so options.max_error is normalized too:
// pass max_error_px / focal_px (for two cameras, e.g. divide by the geometric mean
// sqrt(f1 * f2)); values above 0.5 are rejected with InputError as a likely pixel threshold.
// The model has unit Frobenius norm; recover the pose with
// RecoverPoseFromEssential (geometry/solvers/essential_decomposition.h).
RansacReport<Eigen::Matrix3d> EstimateEssentialMatrix(
    const RansacOptions& options, const std::vector<Eigen::Vector2d>& points1_normalized,
    const std::vector<Eigen::Vector2d>& points2_normalized,
    const std::vector<char>* sample_pool = nullptr);

// Fundamental matrix from pixel coordinates. Minimal: seven-point; refit: normalized eight-point.
// Error: Sampson distance in pixels (options.max_error in pixels).
RansacReport<Eigen::Matrix3d> EstimateFundamentalMatrix(
    const RansacOptions& options, const std::vector<Eigen::Vector2d>& pixels1,
    const std::vector<Eigen::Vector2d>& pixels2);

// Homography from pixel coordinates. Minimal: four-point DLT; refit: DLT on inliers.
// Error: one-sided transfer error |x2 - H x1| in pixels of image 2 (options.max_error in px).
RansacReport<Eigen::Matrix3d> EstimateHomography(const RansacOptions& options,
                                                 const std::vector<Eigen::Vector2d>& pixels1,
                                                 const std::vector<Eigen::Vector2d>& pixels2,
                                                 const std::vector<char>* sample_pool = nullptr);

}  // namespace proj
