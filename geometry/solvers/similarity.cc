#include "geometry/solvers/similarity.h"

#include <Eigen/SVD>

namespace proj {

bool EstimateSimilarityUmeyama(const std::vector<Eigen::Vector3d>& src,
                               const std::vector<Eigen::Vector3d>& dst, Sim3d* dst_from_src,
                               bool estimate_scale) {
  const size_t n = src.size();
  if (n < 3 || dst.size() != n) return false;
  Eigen::Vector3d mean_src = Eigen::Vector3d::Zero(), mean_dst = Eigen::Vector3d::Zero();
  for (size_t i = 0; i < n; ++i) {
    mean_src += src[i];
    mean_dst += dst[i];
  }
  mean_src /= static_cast<double>(n);
  mean_dst /= static_cast<double>(n);
  double variance_src = 0.0;
  Eigen::Matrix3d covariance = Eigen::Matrix3d::Zero();  // Sigma_xy of the paper (dst x src)
  for (size_t i = 0; i < n; ++i) {
    const Eigen::Vector3d a = src[i] - mean_src;
    variance_src += a.squaredNorm();
    covariance.noalias() += (dst[i] - mean_dst) * a.transpose();
  }
  variance_src /= static_cast<double>(n);
  covariance /= static_cast<double>(n);
  if (!(variance_src > 0.0)) return false;

  const Eigen::JacobiSVD<Eigen::Matrix3d> svd(covariance,
                                              Eigen::ComputeFullU | Eigen::ComputeFullV);
  const Eigen::Vector3d& d = svd.singularValues();
  // rank(Sigma_xy) >= 2 is required for a unique rotation (eq. 40-43).
  if (!(d(1) > 1e-12 * d(0))) return false;
  Eigen::Vector3d s = Eigen::Vector3d::Ones();
  if (svd.matrixU().determinant() * svd.matrixV().determinant() < 0.0) s(2) = -1.0;
  const Eigen::Matrix3d rotation = svd.matrixU() * s.asDiagonal() * svd.matrixV().transpose();
  const double scale = estimate_scale ? d.dot(s) / variance_src : 1.0;
  if (!(scale > 0.0)) return false;
  *dst_from_src = Sim3d(scale, rotation, mean_dst - scale * (rotation * mean_src));
  return true;
}

}  // namespace proj
