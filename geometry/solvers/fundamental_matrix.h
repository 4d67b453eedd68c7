// Linear solvers for the fundamental and essential matrix from point correspondences.
// Convention: x2^T F x1 = 0 for x1 in image 1 and x2 in image 2 (homogeneous, z = 1).
//  - Seven-point: Hartley & Zisserman, "Multiple View Geometry", 2nd ed., sec. 11.1.2.
//  - Eight-point, normalized: R. Hartley, "In defense of the eight-point algorithm", PAMI 1997.
// Inputs are pixels for F (any unit for that matter: the solvers normalize internally) and
// normalized image coordinates (ray (x, y, 1)) for E. Results have unit Frobenius norm.
#pragma once

#include <array>
#include <vector>

#include <Eigen/Core>

namespace proj {

// Seven-point algorithm: appends the 1 or 3 real solutions F (rank 2) to `solutions`.
// Appends nothing for degenerate samples.
void SolveFundamentalSevenPoint(const std::array<Eigen::Vector2d, 7>& points1,
                                const std::array<Eigen::Vector2d, 7>& points2,
                                std::vector<Eigen::Matrix3d>* solutions);

// The oriented epipolar constraint (O. Chum, T. Werner, J. Matas, "Epipolar geometry
// estimation via RANSAC benefits from the oriented epipolar constraint", ICPR 2004): for
// points in front of both cameras, (e2 x x2) . (F x1) has the same sign for every
// correspondence, e2 being the epipole in image 2 (F^T e2 = 0) and x1, x2 the points with
// z = 1. True when the `count` correspondences agree (those on an epipolar line through the
// epipole, product 0, abstain). A seven-point solution that fails it on its own sample cannot
// be the geometry of two real cameras: RANSAC need not score it.
bool SatisfiesOrientedEpipolarConstraint(const Eigen::Matrix3d& f, const Eigen::Vector2d* points1,
                                         const Eigen::Vector2d* points2, int count);

// Normalized eight-point algorithm on n >= 8 correspondences (least squares for n > 8), with
// the rank-2 constraint enforced by SVD. Returns false for n < 8, mismatched sizes or
// degenerate data.
bool SolveFundamentalEightPoint(const std::vector<Eigen::Vector2d>& points1,
                                const std::vector<Eigen::Vector2d>& points2, Eigen::Matrix3d* f);

// As SolveFundamentalEightPoint on normalized image coordinates, then projected onto the
// essential manifold (singular values (1, 1, 0), scaled to unit Frobenius norm).
bool SolveEssentialEightPoint(const std::vector<Eigen::Vector2d>& points1_normalized,
                              const std::vector<Eigen::Vector2d>& points2_normalized,
                              Eigen::Matrix3d* e);

// Projects a 3x3 matrix onto the closest essential matrix (Frobenius), unit Frobenius norm.
Eigen::Matrix3d ProjectToEssentialManifold(const Eigen::Matrix3d& m);

}  // namespace proj
