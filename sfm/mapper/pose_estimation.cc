#include "sfm/mapper/pose_estimation.h"

#include <cmath>

#include "geometry/ransac/estimate_absolute_pose.h"
#include "geometry/ransac/estimate_two_view.h"
#include "geometry/solvers/absolute_pose_refinement.h"
#include "geometry/solvers/essential_decomposition.h"
#include "geometry/solvers/triangulation.h"

namespace proj {

RelativePoseResult EstimateRelativePose(const std::vector<Eigen::Vector2d>& normalized1,
                                        const std::vector<Eigen::Vector2d>& normalized2,
                                        double max_error, uint64_t seed) {
  RelativePoseResult result;
  RansacOptions ransac;
  ransac.max_error = max_error;
  ransac.seed = seed;
  const auto report = EstimateEssentialMatrix(ransac, normalized1, normalized2);
  if (!report.success) return result;
  std::vector<char> in_front;
  const int count = RecoverPoseFromEssential(report.model, normalized1, normalized2,
                                             &report.inlier_mask, &result.cam2_from_cam1, &in_front);
  if (count == 0) return result;
  result.success = true;
  result.inlier_mask = std::move(in_front);
  result.num_inliers = count;
  return result;
}

AbsolutePoseResult EstimateCameraPose(const Camera& camera,
                                      const std::vector<Eigen::Vector2d>& pixels,
                                      const std::vector<Eigen::Vector3d>& points_world,
                                      double max_error_px, uint64_t seed) {
  AbsolutePoseResult result;
  RansacOptions ransac;
  ransac.max_error = max_error_px;
  ransac.seed = seed;
  const auto report = EstimateAbsolutePose(ransac, camera, pixels, points_world);
  if (!report.success) return result;
  result.cam_from_world = report.model;
  // Refine on the inliers in pixels with the full camera model, then re-classify.
  std::vector<Eigen::Vector2d> inlier_pixels;
  std::vector<Eigen::Vector3d> inlier_points;
  for (size_t i = 0; i < pixels.size(); ++i) {
    if (!report.inlier_mask[i]) continue;
    inlier_pixels.push_back(pixels[i]);
    inlier_points.push_back(points_world[i]);
  }
  AbsolutePoseRefinementOptions refinement;
  refinement.huber_threshold = 1.0;
  RefineAbsolutePose(refinement, camera, inlier_pixels, inlier_points, &result.cam_from_world);
  result.inlier_mask.assign(pixels.size(), 0);
  for (size_t i = 0; i < pixels.size(); ++i) {
    Eigen::Vector2d uv;
    if (camera.Project(result.cam_from_world * points_world[i], &uv) &&
        (uv - pixels[i]).norm() <= max_error_px) {
      result.inlier_mask[i] = 1;
      ++result.num_inliers;
    }
  }
  result.success = result.num_inliers >= 3;
  return result;
}

std::optional<Eigen::Vector3d> TriangulateObservations(
    const std::vector<Rigid3d>& cams_from_world, const std::vector<Eigen::Vector2d>& normalized) {
  Eigen::Vector3d point;
  if (!TriangulateMultiViewDlt(cams_from_world, normalized, &point)) return std::nullopt;
  RefineTriangulatedPoint(cams_from_world, normalized, &point);
  if (!point.allFinite()) return std::nullopt;
  return point;
}

double TriangulationAngleDeg(const Eigen::Vector3d& center1, const Eigen::Vector3d& center2,
                             const Eigen::Vector3d& point) {
  return TriangulationAngle(center1, center2, point) * 180.0 / M_PI;
}

}  // namespace proj
