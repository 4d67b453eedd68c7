#include "geometry/solvers/essential_decomposition.h"

#include <cmath>

#include <Eigen/SVD>

namespace proj {
namespace {

Eigen::Matrix3d Skew(const Eigen::Vector3d& v) {
  Eigen::Matrix3d m;
  m << 0.0, -v.z(), v.y(), v.z(), 0.0, -v.x(), -v.y(), v.x(), 0.0;
  return m;
}

}  // namespace

Eigen::Matrix3d EssentialMatrixFromPose(const Rigid3d& cam2_from_cam1) {
  return Skew(cam2_from_cam1.translation) * cam2_from_cam1.rotation.toRotationMatrix();
}

std::array<Rigid3d, 4> DecomposeEssentialMatrix(const Eigen::Matrix3d& e) {
  const Eigen::JacobiSVD<Eigen::Matrix3d> svd(e, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Eigen::Matrix3d u = svd.matrixU();
  Eigen::Matrix3d v = svd.matrixV();
  // E is defined up to sign, so flipping a column of U or V keeps a valid factorization.
  if (u.determinant() < 0.0) u.col(2) *= -1.0;
  if (v.determinant() < 0.0) v.col(2) *= -1.0;
  Eigen::Matrix3d w;
  w << 0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0;
  const Eigen::Matrix3d r1 = u * w * v.transpose();
  const Eigen::Matrix3d r2 = u * w.transpose() * v.transpose();
  const Eigen::Vector3d t = u.col(2).normalized();
  return {Rigid3d(r1, t), Rigid3d(r1, Eigen::Vector3d(-t)), Rigid3d(r2, t),
          Rigid3d(r2, Eigen::Vector3d(-t))};
}

bool MidpointDepths(const Rigid3d& cam2_from_cam1, const Eigen::Vector3d& b1,
                    const Eigen::Vector3d& b2, double* depth1, double* depth2) {
  // Minimize |d1 a - d2 b + t|^2 with a = R b1, b = b2 (2x2 normal equations).
  const Eigen::Vector3d a = cam2_from_cam1.rotation * b1;
  const Eigen::Vector3d& t = cam2_from_cam1.translation;
  const double aa = a.squaredNorm(), bb = b2.squaredNorm(), ab = a.dot(b2);
  const double at = a.dot(t), bt = b2.dot(t);
  const double det = aa * bb - ab * ab;
  // det = |a|^2 |b|^2 sin^2(angle): reject angles below ~1e-9 rad.
  if (!(det > 1e-18 * aa * bb)) return false;
  *depth1 = (-at * bb + ab * bt) / det;
  *depth2 = (aa * bt - ab * at) / det;
  return true;
}

int RecoverPoseFromEssential(const Eigen::Matrix3d& e,
                             const std::vector<Eigen::Vector2d>& points1_normalized,
                             const std::vector<Eigen::Vector2d>& points2_normalized,
                             const std::vector<char>* mask, Rigid3d* cam2_from_cam1,
                             std::vector<char>* in_front_mask) {
  const size_t n = points1_normalized.size();
  if (points2_normalized.size() != n || (mask != nullptr && mask->size() != n)) return 0;
  const std::array<Rigid3d, 4> candidates = DecomposeEssentialMatrix(e);
  if (!candidates[0].translation.allFinite()) return 0;
  int counts[4] = {0, 0, 0, 0};
  for (size_t i = 0; i < n; ++i) {
    if (mask != nullptr && !(*mask)[i]) continue;
    const Eigen::Vector3d b1 = points1_normalized[i].homogeneous();
    const Eigen::Vector3d b2 = points2_normalized[i].homogeneous();
    for (int c = 0; c < 4; ++c) {
      double d1, d2;
      if (MidpointDepths(candidates[c], b1, b2, &d1, &d2) && d1 > 0.0 && d2 > 0.0) ++counts[c];
    }
  }
  int best = 0;
  for (int c = 1; c < 4; ++c) {
    if (counts[c] > counts[best]) best = c;
  }
  if (counts[best] == 0) return 0;
  *cam2_from_cam1 = candidates[best];
  if (in_front_mask != nullptr) {
    in_front_mask->assign(n, 0);
    for (size_t i = 0; i < n; ++i) {
      if (mask != nullptr && !(*mask)[i]) continue;
      double d1, d2;
      (*in_front_mask)[i] = MidpointDepths(candidates[best], points1_normalized[i].homogeneous(),
                                           points2_normalized[i].homogeneous(), &d1, &d2) &&
                            d1 > 0.0 && d2 > 0.0;
    }
  }
  return counts[best];
}

}  // namespace proj
