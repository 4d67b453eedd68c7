// Triangulation of 3D points from calibrated observations, and helpers to judge the result.
// Observations are normalized image coordinates (ray (x, y, 1) in the camera frame, i.e.
// Camera::PixelToNormalized of the pixel); poses are cam_from_world (geometry/rigid3.h).
// All functions are pure and allocation-free apart from their outputs.
#pragma once

#include <vector>

#include <Eigen/Core>

#include "geometry/rigid3.h"

namespace proj {

// Linear two-view triangulation (Hartley & Zisserman, "Multiple View Geometry", 2nd ed.,
// sec. 12.2, homogeneous DLT solved by SVD). Returns false when the solution is at infinity
// (parallel rays) or not finite. Does not check the depth sign: use HasPositiveDepth.
bool TriangulatePointDlt(const Rigid3d& cam1_from_world, const Rigid3d& cam2_from_world,
                         const Eigen::Vector2d& point1, const Eigen::Vector2d& point2,
                         Eigen::Vector3d* point3d);

// Two-view optimal triangulation: the observations are first moved onto the epipolar
// constraint along the minimal (first-order exact) correction of P. Lindstrom, "Triangulation
// made easy", CVPR 2010 (niter2), then triangulated by DLT. Better than TriangulatePointDlt
// under noise; same failure modes.
bool TriangulatePointOptimal(const Rigid3d& cam1_from_world, const Rigid3d& cam2_from_world,
                             const Eigen::Vector2d& point1, const Eigen::Vector2d& point2,
                             Eigen::Vector3d* point3d);

// Lindstrom's niter2 correction alone: given E with x2^T E x1 = 0, returns the corrected
// observations (normalized coordinates) that satisfy it.
void CorrectObservationsLindstrom(const Eigen::Matrix3d& e, const Eigen::Vector2d& point1,
                                  const Eigen::Vector2d& point2, Eigen::Vector2d* corrected1,
                                  Eigen::Vector2d* corrected2);

// Multi-view linear triangulation (DLT with unit-normalized rows, through the 4x4 normal
// matrix) from n >= 2 views: cams_from_world[i] observed points_normalized[i]. Returns false for
// n < 2, mismatched sizes, or a solution at infinity.
bool TriangulateMultiViewDlt(const std::vector<Rigid3d>& cams_from_world,
                             const std::vector<Eigen::Vector2d>& points_normalized,
                             Eigen::Vector3d* point3d);

// Gauss-Newton refinement of a point minimizing the sum of squared reprojection errors in
// normalized coordinates over all views (equal weights; multiply by the focal length for pixel
// units). Observations behind a camera are skipped. Stops after max_iterations or when the step
// is below 1e-12 relative to the point. Returns false (leaving *point3d unchanged) when fewer
// than two observations are usable or the system is singular.
bool RefineTriangulatedPoint(const std::vector<Rigid3d>& cams_from_world,
                             const std::vector<Eigen::Vector2d>& points_normalized,
                             Eigen::Vector3d* point3d, int max_iterations = 10);

// Angle (radians, in [0, pi]) between the rays from the two camera centres to the point.
double TriangulationAngle(const Eigen::Vector3d& center1, const Eigen::Vector3d& center2,
                          const Eigen::Vector3d& point3d);

// Depth of the point in the camera (z of cam_from_world * point).
inline double PointDepth(const Rigid3d& cam_from_world, const Eigen::Vector3d& point3d) {
  return (cam_from_world * point3d).z();
}

// True when the point lies strictly in front of the camera (depth > min_depth).
inline bool HasPositiveDepth(const Rigid3d& cam_from_world, const Eigen::Vector3d& point3d,
                             double min_depth = 0.0) {
  return PointDepth(cam_from_world, point3d) > min_depth;
}

// Squared reprojection error in normalized coordinates; +inf for points not in front.
double SquaredReprojectionErrorNormalized(const Rigid3d& cam_from_world,
                                          const Eigen::Vector3d& point3d,
                                          const Eigen::Vector2d& point_normalized);

}  // namespace proj
