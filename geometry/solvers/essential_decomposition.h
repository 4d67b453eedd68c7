// Essential matrix <-> relative pose. Convention: x2^T E x1 = 0 for normalized image points
// x1 (camera 1) and x2 (camera 2), and E = [t]x R for cam2_from_cam1 = (R, t).
// Decomposition: Hartley & Zisserman, "Multiple View Geometry", 2nd ed., result 9.19; the
// cheirality test picks, among the four candidates, the one with most points in front of both
// cameras (as OpenCV's recoverPose and COLMAP's PoseFromEssentialMatrix).
#pragma once

#include <array>
#include <vector>

#include <Eigen/Core>

#include "geometry/rigid3.h"

namespace proj {

// E = [t]x R for the pose cam2_from_cam1 (scale of t kept).
Eigen::Matrix3d EssentialMatrixFromPose(const Rigid3d& cam2_from_cam1);

// The four candidate poses cam2_from_cam1 for an essential matrix: (R1, t), (R1, -t), (R2, t),
// (R2, -t) with |t| = 1. Rotations are proper (det = +1).
std::array<Rigid3d, 4> DecomposeEssentialMatrix(const Eigen::Matrix3d& e);

// Chooses the candidate pose for which most correspondences triangulate in front of both
// cameras. Points are normalized image coordinates; if `mask` is given (same size, non-zero =
// use), only those correspondences vote. On return *cam2_from_cam1 has |t| = 1, and
// *in_front_mask (optional) marks the voting correspondences that are in front for the chosen
// pose. Returns the number of such correspondences (0: no decision possible, e.g. no
// parallax; *cam2_from_cam1 is then left unchanged). Depths come from the mid-point of the two
// rays (closed form, no allocation per point); rays closer than ~1e-9 rad to parallel do not
// count as in front.
int RecoverPoseFromEssential(const Eigen::Matrix3d& e,
                             const std::vector<Eigen::Vector2d>& points1_normalized,
                             const std::vector<Eigen::Vector2d>& points2_normalized,
                             const std::vector<char>* mask, Rigid3d* cam2_from_cam1,
                             std::vector<char>* in_front_mask = nullptr);

// Depths (d1, d2) along the rays b1 (camera 1) and b2 (camera 2) of the mid-point of the
// common perpendicular, for cam2_from_cam1: d1 * (R b1) + t ~ d2 * b2. Returns false for
// (nearly) parallel rays.
bool MidpointDepths(const Rigid3d& cam2_from_cam1, const Eigen::Vector3d& b1,
                    const Eigen::Vector3d& b2, double* depth1, double* depth2);

}  // namespace proj
