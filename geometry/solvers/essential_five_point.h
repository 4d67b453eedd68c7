// Five-point relative pose: the essential matrices E with b2^T E b1 = 0 for five bearing pairs.
// D. Nistér, "An efficient solution to the five-point relative pose problem", PAMI 2004: the
// constraints det(E) = 0 and 2 E E^T E - tr(E E^T) E = 0 on the 4-D null space of the epipolar
// system give ten cubics in (x, y, z); Gauss-Jordan elimination leaves a 3x3 matrix B(z) whose
// determinant is a degree-10 polynomial, solved here by Sturm sequences (the paper's choice),
// and (x, y) follow from the null vector of B(z).
#pragma once

#include <array>
#include <vector>

#include <Eigen/Core>

namespace proj {

// b1[i] (camera 1) and b2[i] (camera 2) are rays of the same point in each camera frame: unit
// bearings or normalized homogeneous points (x, y, 1); only their direction matters. Appends
// 0..10 real solutions, each of unit Frobenius norm, to `solutions`. E = [t]x R for the pose
// cam2_from_cam1 = (R, t), up to scale and the fourfold ambiguity (see essential_decomposition.h).
// Degenerate samples append nothing. No heap allocation apart from growing `solutions`.
void SolveEssentialFivePoint(const std::array<Eigen::Vector3d, 5>& b1,
                             const std::array<Eigen::Vector3d, 5>& b2,
                             std::vector<Eigen::Matrix3d>* solutions);

}  // namespace proj
