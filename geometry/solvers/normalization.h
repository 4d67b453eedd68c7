// Isotropic point normalization (Hartley, "In defense of the eight-point algorithm", PAMI 1997):
// translate the centroid to the origin and scale so that the mean distance to it is sqrt(2).
// Used by the linear solvers (seven/eight-point, DLT homography) to condition their systems,
// with the accumulation of their normal equations.
#pragma once

#include <cmath>

#include <Eigen/Core>

namespace proj {

// Returns T (3x3, similarity) such that T * (x, y, 1)^T are the normalized points. Degenerate
// input (all points equal, n == 0) yields a pure translation with unit scale.
template <typename Container>
Eigen::Matrix3d IsotropicNormalization(const Container& points) {
  Eigen::Vector2d centroid = Eigen::Vector2d::Zero();
  for (const Eigen::Vector2d& p : points) centroid += p;
  const double n = static_cast<double>(points.size());
  if (n > 0) centroid /= n;
  double mean_distance = 0.0;
  for (const Eigen::Vector2d& p : points) mean_distance += (p - centroid).norm();
  if (n > 0) mean_distance /= n;
  const double scale = mean_distance > 0.0 ? std::sqrt(2.0) / mean_distance : 1.0;
  Eigen::Matrix3d t;
  t << scale, 0.0, -scale * centroid.x(),  //
      0.0, scale, -scale * centroid.y(),   //
      0.0, 0.0, 1.0;
  return t;
}

// normal += row row^T on the lower triangle only (what SelfAdjointEigenSolver reads): the
// normal equations of the linear solvers, accumulated per correspondence. Eigen's
// selfadjointView().rankUpdate() takes a generic product path, several times slower at 9x9.
inline void AddOuterProductLower(const Eigen::Matrix<double, 9, 1>& row,
                                 Eigen::Matrix<double, 9, 9>* normal) {
  for (int c = 0; c < 9; ++c) {
    for (int r = c; r < 9; ++r) (*normal)(r, c) += row(r) * row(c);
  }
}

// Applies the similarity from IsotropicNormalization to one point.
inline Eigen::Vector2d ApplyNormalization(const Eigen::Matrix3d& t, const Eigen::Vector2d& p) {
  return Eigen::Vector2d(t(0, 0) * p.x() + t(0, 2), t(1, 1) * p.y() + t(1, 2));
}

}  // namespace proj
