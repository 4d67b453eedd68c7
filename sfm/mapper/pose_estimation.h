// The geometric estimations the mapper needs, composed from geometry/ (RANSAC + minimal
// solvers + refinement) in the units the mapper works in.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <Eigen/Core>

#include "geometry/camera/camera.h"
#include "geometry/rigid3.h"

namespace proj {

struct RelativePoseResult {
  bool success = false;
  Rigid3d cam2_from_cam1;        // unit-length translation
  std::vector<char> inlier_mask;
  int num_inliers = 0;
};

// Essential matrix by five-point LO-RANSAC on normalized coordinates, decomposed with the
// cheirality check. `max_error` is in normalized units (pixels / focal).
RelativePoseResult EstimateRelativePose(const std::vector<Eigen::Vector2d>& normalized1,
                                        const std::vector<Eigen::Vector2d>& normalized2,
                                        double max_error, uint64_t seed);

struct AbsolutePoseResult {
  bool success = false;
  Rigid3d cam_from_world;
  std::vector<char> inlier_mask;
  int num_inliers = 0;
};

// P3P LO-RANSAC on 2D-3D correspondences (pixels of `camera`), then refinement of the pose on
// the inliers. `max_error_px` is the reprojection threshold in pixels.
AbsolutePoseResult EstimateCameraPose(const Camera& camera,
                                      const std::vector<Eigen::Vector2d>& pixels,
                                      const std::vector<Eigen::Vector3d>& points_world,
                                      double max_error_px, uint64_t seed);

// Multi-view DLT then Gauss-Newton refinement. Observations are normalized coordinates in
// cameras with the given cam_from_world poses. nullopt for degenerate input.
std::optional<Eigen::Vector3d> TriangulateObservations(
    const std::vector<Rigid3d>& cams_from_world, const std::vector<Eigen::Vector2d>& normalized);

// Angle in degrees between the rays from two camera centres to a point.
double TriangulationAngleDeg(const Eigen::Vector3d& center1, const Eigen::Vector3d& center2,
                             const Eigen::Vector3d& point);

}  // namespace proj
