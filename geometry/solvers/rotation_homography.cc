#include "geometry/solvers/rotation_homography.h"

#include <algorithm>
#include <cmath>

#include <Eigen/LU>
#include <Eigen/SVD>

namespace proj {
namespace {

Eigen::Matrix3d ScaleFocal(const Eigen::Matrix3d& k, double scale) {
  Eigen::Matrix3d scaled = k;
  scaled(0, 0) *= scale;
  scaled(0, 1) *= scale;
  scaled(1, 1) *= scale;
  return scaled;
}

// Singular value ratio - 1 of the normalized homography at a focal scale, and its nearest
// rotation (sign fixed so that its determinant is +1).
double Deviation(const Eigen::Matrix3d& h_px, const Eigen::Matrix3d& k1, const Eigen::Matrix3d& k2,
                 double scale, Eigen::Matrix3d* rotation) {
  const Eigen::Matrix3d m = ScaleFocal(k2, scale).inverse() * h_px * ScaleFocal(k1, scale);
  const Eigen::JacobiSVD<Eigen::Matrix3d> svd(m, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const Eigen::Vector3d sigma = svd.singularValues();
  if (!(sigma(2) > 0) || !sigma.allFinite()) return 1e9;
  if (rotation != nullptr) {
    *rotation = svd.matrixU() * svd.matrixV().transpose();
    if (rotation->determinant() < 0) *rotation = -*rotation;
  }
  return sigma(0) / sigma(2) - 1;
}

}  // namespace

RotationHomographyFit FitRotationHomography(const Eigen::Matrix3d& h_px, const Eigen::Matrix3d& k1,
                                            const Eigen::Matrix3d& k2) {
  RotationHomographyFit fit;
  if (!h_px.allFinite() || h_px.isZero()) return fit;
  // A coarse scan in log scale, then golden-section refinement around the best sample.
  constexpr int kSteps = 48;
  const double low = std::log(0.25), high = std::log(4.0), step = (high - low) / kSteps;
  double best_log = 0, best = 1e9;
  for (int i = 0; i <= kSteps; ++i) {
    const double value = Deviation(h_px, k1, k2, std::exp(low + i * step), nullptr);
    if (value < best) {
      best = value;
      best_log = low + i * step;
    }
  }
  double a = best_log - step, b = best_log + step;
  const double ratio = 0.5 * (std::sqrt(5.0) - 1);
  for (int i = 0; i < 40; ++i) {
    const double c = b - ratio * (b - a), d = a + ratio * (b - a);
    if (Deviation(h_px, k1, k2, std::exp(c), nullptr) < Deviation(h_px, k1, k2, std::exp(d), nullptr)) {
      b = d;
    } else {
      a = c;
    }
  }
  fit.focal_scale = std::exp(std::clamp(0.5 * (a + b), low, high));
  fit.at_range_limit = best_log <= low + step || best_log >= high - step;
  fit.deviation = Deviation(h_px, k1, k2, fit.focal_scale, &fit.rotation);
  return fit;
}

}  // namespace proj
