#include "geometry/solvers/similarity.h"

#include <Eigen/SVD>

namespace proj {
namespace {

Eigen::Vector3d Mean(const std::vector<Eigen::Vector3d>& points) {
  Eigen::Vector3d mean = Eigen::Vector3d::Zero();
  for (const Eigen::Vector3d& point : points) mean += point;
  return mean / static_cast<double>(points.size());
}

}  // namespace

bool EstimateSimilarityUmeyama(const std::vector<Eigen::Vector3d>& src,
                               const std::vector<Eigen::Vector3d>& dst, Sim3d* dst_from_src,
                               bool estimate_scale) {
  const size_t n = src.size();
  if (n < 3 || dst.size() != n) return false;
  const Eigen::Vector3d mean_src = Mean(src), mean_dst = Mean(dst);
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

Eigen::Matrix3d NearestRotation(const Eigen::Matrix3d& m) {
  const Eigen::JacobiSVD<Eigen::Matrix3d> svd(m, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Eigen::Vector3d s = Eigen::Vector3d::Ones();
  if (svd.matrixU().determinant() * svd.matrixV().determinant() < 0.0) s(2) = -1.0;
  return svd.matrixU() * s.asDiagonal() * svd.matrixV().transpose();
}

bool EstimateScaleAndTranslation(const std::vector<Eigen::Vector3d>& src, const std::vector<Eigen::Vector3d>& dst,
                                 const Eigen::Quaterniond& rotation, Sim3d* dst_from_src) {
  const size_t n = src.size();
  if (n < 2 || dst.size() != n) return false;
  const Eigen::Vector3d mean_src = Mean(src), mean_dst = Mean(dst);
  double numerator = 0.0, denominator = 0.0;
  for (size_t i = 0; i < n; ++i) {
    const Eigen::Vector3d a = rotation * (src[i] - mean_src);
    numerator += (dst[i] - mean_dst).dot(a);
    denominator += a.squaredNorm();
  }
  if (!(denominator > 0.0)) return false;
  const double scale = numerator / denominator;
  if (!(scale > 0.0)) return false;
  *dst_from_src = Sim3d(scale, rotation, mean_dst - scale * (rotation * mean_src));
  return true;
}

}  // namespace proj
