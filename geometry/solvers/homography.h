// Homography from point correspondences, x2 ~ H x1, by the normalized direct linear transform
// (Hartley & Zisserman, "Multiple View Geometry", 2nd ed., alg. 4.2). Points are inhomogeneous
// 2D (pixels or normalized coordinates; the solvers normalize internally). The result has unit
// Frobenius norm.
#pragma once

#include <array>
#include <vector>

#include <Eigen/Core>

namespace proj {

// Minimal case: exactly four correspondences. Returns false when three points of either image
// are (nearly) collinear or the system is otherwise degenerate.
bool SolveHomographyFourPoint(const std::array<Eigen::Vector2d, 4>& points1,
                              const std::array<Eigen::Vector2d, 4>& points2, Eigen::Matrix3d* h);

// Least squares (algebraic error, normalized coordinates) on n >= 4 correspondences. Returns
// false for n < 4, mismatched sizes or degenerate data.
bool SolveHomographyDlt(const std::vector<Eigen::Vector2d>& points1,
                        const std::vector<Eigen::Vector2d>& points2, Eigen::Matrix3d* h);

}  // namespace proj
