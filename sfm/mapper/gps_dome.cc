#include "sfm/mapper/gps_dome.h"

#include <cmath>

#include <Eigen/Dense>

namespace proj {

GpsDome MeasureGpsDome(const Scene& scene, const PriorAlignment& alignment) {
  GpsDome dome;
  if (!alignment.aligned) return dome;
  std::vector<Eigen::Vector2d> positions;
  std::vector<double> heights;
  for (const PriorResidual& r : alignment.residuals) {
    if (!r.inlier) continue;
    positions.push_back(scene.position_priors.at(r.image_id).position.head<2>());
    heights.push_back(r.residual_m.z());
  }
  const int n = static_cast<int>(positions.size());
  constexpr int kMinFixes = 8;
  if (n < kMinFixes) return dome;
  Eigen::Vector2d centroid = Eigen::Vector2d::Zero();
  for (const Eigen::Vector2d& p : positions) centroid += p / n;
  Eigen::MatrixXd design(n, 4);
  Eigen::VectorXd dz(n);
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector2d p = positions[i] - centroid;
    dome.radius_m = std::max(dome.radius_m, p.norm());
    design.row(i) << 1, p.x(), p.y(), p.squaredNorm();
    dz(i) = heights[i];
  }
  if (dome.radius_m <= 0) return dome;
  dome.centre = centroid;
  // Columns scaled to unit radius so the normal matrix is well conditioned at any extent.
  const double r = dome.radius_m;
  design.col(1) /= r;
  design.col(2) /= r;
  design.col(3) /= r * r;
  const Eigen::Matrix4d normal = design.transpose() * design;
  const Eigen::LDLT<Eigen::Matrix4d> solver(normal);
  if (solver.info() != Eigen::Success || std::abs(solver.vectorD().minCoeff()) < 1e-9 * n) return dome;
  const Eigen::Vector4d coefficients = solver.solve(design.transpose() * dz);
  const double residual_variance = (dz - design * coefficients).squaredNorm() / std::max(1, n - 4);
  const Eigen::Matrix4d covariance = residual_variance * solver.solve(Eigen::Matrix4d::Identity());
  dome.measured = true;
  dome.num_fixes = n;
  dome.edge_m = coefficients(3);
  dome.edge_sigma_m = std::sqrt(std::max(0.0, covariance(3, 3)));
  return dome;
}

}  // namespace proj
