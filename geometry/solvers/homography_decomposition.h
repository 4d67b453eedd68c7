// Decomposition of a calibrated homography into relative pose and plane, H = R + t n^T, for
// the plane n^T X1 = 1 in camera 1 (unit normal n scaled so that the plane distance is 1,
// i.e. t is in units of that distance) and X2 = R X1 + t. SVD-based method of Y. Ma,
// S. Soatto, J. Kosecka, S. Sastry, "An Invitation to 3-D Vision", Springer 2004, sec. 5.3.3.
// H must map normalized image coordinates: H = K2^-1 H_px K1, x2 ~ H x1.
#pragma once

#include <array>
#include <vector>

#include <Eigen/Core>

#include "geometry/rigid3.h"

namespace proj {

struct HomographyPose {
  Rigid3d cam2_from_cam1;  // translation in units of the plane distance from camera 1
  Eigen::Vector3d normal;  // unit plane normal in camera 1 (pointing away from camera 1)
};

// Appends the candidate decompositions to `candidates`: four in general (two pairs that differ
// by the sign of (t, n)), one (t = 0, normal undefined = zero) for a pure rotation. The overall
// sign of h matters: it must satisfy x2^T H x1 > 0 for points in front of both cameras
// (RecoverPoseFromHomography fixes it from the correspondences).
void DecomposeHomographyMatrix(const Eigen::Matrix3d& h, std::vector<HomographyPose>* candidates);

// Keeps the candidates with most correspondences in front of both cameras and on the visible
// side of the plane. Points are normalized image coordinates; if `mask` is given (same size,
// non-zero = use), only those correspondences vote. Two candidates commonly survive (the
// ambiguity of O. Faugeras, F. Lustman, "Motion and structure from motion in a piecewise planar
// environment", 1988): for points on the plane both predict the same images, so only
// off-plane points or a third view can decide. *poses receives all candidates reaching the
// maximum (best first in decomposition order), *in_front_mask (optional) the voting
// correspondences in front for (*poses)[0]. Returns the maximum count (0: none; *poses empty).
// For a pure rotation the single pose is (R, 0) and every voting correspondence counts.
int RecoverPoseFromHomography(const Eigen::Matrix3d& h,
                              const std::vector<Eigen::Vector2d>& points1_normalized,
                              const std::vector<Eigen::Vector2d>& points2_normalized,
                              const std::vector<char>* mask, std::vector<HomographyPose>* poses,
                              std::vector<char>* in_front_mask = nullptr);

// H = R + t n^T for cam2_from_cam1 = (R, t) and the plane n^T X1 = 1 (n not unit: n / d).
Eigen::Matrix3d HomographyFromPose(const Rigid3d& cam2_from_cam1,
                                   const Eigen::Vector3d& normal_over_distance);

}  // namespace proj
