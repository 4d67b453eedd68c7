#include "geometry/solvers/homography_decomposition.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Geometry>
#include <Eigen/SVD>

#include "geometry/solvers/essential_decomposition.h"

namespace proj {

void DecomposeHomographyMatrix(const Eigen::Matrix3d& h, std::vector<HomographyPose>* candidates) {
  const Eigen::JacobiSVD<Eigen::Matrix3d> svd_h(h);
  const double sigma2 = svd_h.singularValues()(1);
  if (!(sigma2 > 0.0) || !h.allFinite()) return;
  // Scale so that the middle singular value is 1, the scale of R + t n^T.
  const Eigen::Matrix3d hn = h / sigma2;
  const Eigen::JacobiSVD<Eigen::Matrix3d> svd(hn.transpose() * hn, Eigen::ComputeFullV);
  const Eigen::Vector3d s2 = svd.singularValues();  // squared singular values of hn
  Eigen::Matrix3d v = svd.matrixV();
  if (v.determinant() < 0.0) v *= -1.0;
  const double spread = s2(0) - s2(2);
  if (spread < 1e-12) {
    // Pure rotation: H = R. Use the closest rotation to be robust to noise.
    const Eigen::JacobiSVD<Eigen::Matrix3d> svd_r(hn, Eigen::ComputeFullU | Eigen::ComputeFullV);
    Eigen::Matrix3d r = svd_r.matrixU() * svd_r.matrixV().transpose();
    if (r.determinant() < 0.0) r = -r;
    candidates->push_back({Rigid3d(r, Eigen::Vector3d::Zero()), Eigen::Vector3d::Zero()});
    return;
  }
  const Eigen::Vector3d v1 = v.col(0), v2 = v.col(1), v3 = v.col(2);
  const double a = std::sqrt(std::max(0.0, 1.0 - s2(2)));
  const double b = std::sqrt(std::max(0.0, s2(0) - 1.0));
  const double norm = std::sqrt(spread);
  const Eigen::Vector3d u_candidates[2] = {(a * v1 + b * v3) / norm, (a * v1 - b * v3) / norm};
  for (const Eigen::Vector3d& u : u_candidates) {
    Eigen::Matrix3d u_frame, w_frame;
    u_frame << v2, u, v2.cross(u);
    const Eigen::Vector3d hv2 = hn * v2, hu = hn * u;
    w_frame << hv2, hu, hv2.cross(hu);
    const Eigen::Matrix3d r = w_frame * u_frame.transpose();
    const Eigen::Vector3d n = v2.cross(u);
    const Eigen::Vector3d t = (hn - r) * n;
    // hn = R + t n^T with |n| = 1: t is already in units of the plane distance. Both signs of
    // (t, n) give the same H; the cheirality test tells them apart.
    candidates->push_back({Rigid3d(r, t), n});
    candidates->push_back({Rigid3d(r, Eigen::Vector3d(-t)), Eigen::Vector3d(-n)});
  }
}

int RecoverPoseFromHomography(const Eigen::Matrix3d& h,
                              const std::vector<Eigen::Vector2d>& points1_normalized,
                              const std::vector<Eigen::Vector2d>& points2_normalized,
                              const std::vector<char>* mask, std::vector<HomographyPose>* poses,
                              std::vector<char>* in_front_mask) {
  poses->clear();
  const size_t n = points1_normalized.size();
  if (points2_normalized.size() != n || (mask != nullptr && mask->size() != n)) return 0;
  // Sign of H: lambda2 x2 = H (lambda1 x1) with positive depths gives x2^T H x1 > 0.
  double sign_votes = 0.0;
  for (size_t i = 0; i < n; ++i) {
    if (mask != nullptr && !(*mask)[i]) continue;
    const double value =
        points2_normalized[i].homogeneous().dot(h * points1_normalized[i].homogeneous());
    sign_votes += value > 0.0 ? 1.0 : -1.0;
  }
  std::vector<HomographyPose> candidates;
  candidates.reserve(4);
  DecomposeHomographyMatrix(sign_votes >= 0.0 ? h : Eigen::Matrix3d(-h), &candidates);
  const auto in_front = [&](const HomographyPose& c, size_t i) {
    const Eigen::Vector3d b1 = points1_normalized[i].homogeneous();
    if (c.cam2_from_cam1.translation.isZero(0.0)) return true;  // pure rotation: no depth
    if (!(c.normal.dot(b1) > 0.0)) return false;  // the ray must hit the visible plane side
    double d1, d2;
    return MidpointDepths(c.cam2_from_cam1, b1, points2_normalized[i].homogeneous(), &d1, &d2) &&
           d1 > 0.0 && d2 > 0.0;
  };
  int counts[4] = {0, 0, 0, 0};
  int best_count = 0;
  for (size_t c = 0; c < candidates.size(); ++c) {
    for (size_t i = 0; i < n; ++i) {
      if (mask != nullptr && !(*mask)[i]) continue;
      if (in_front(candidates[c], i)) ++counts[c];
    }
    best_count = std::max(best_count, counts[c]);
  }
  if (best_count == 0) return 0;
  for (size_t c = 0; c < candidates.size(); ++c) {
    if (counts[c] == best_count) poses->push_back(candidates[c]);
  }
  if (in_front_mask != nullptr) {
    in_front_mask->assign(n, 0);
    for (size_t i = 0; i < n; ++i) {
      if (mask != nullptr && !(*mask)[i]) continue;
      (*in_front_mask)[i] = in_front(poses->front(), i);
    }
  }
  return best_count;
}

Eigen::Matrix3d HomographyFromPose(const Rigid3d& cam2_from_cam1,
                                   const Eigen::Vector3d& normal_over_distance) {
  return cam2_from_cam1.rotation.toRotationMatrix() +
         cam2_from_cam1.translation * normal_over_distance.transpose();
}

}  // namespace proj
