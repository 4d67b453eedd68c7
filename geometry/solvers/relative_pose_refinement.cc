#include "geometry/solvers/relative_pose_refinement.h"

#include <cmath>

#include <Eigen/Cholesky>

#include "core/check.h"

namespace proj {
namespace {

using Matrix5 = Eigen::Matrix<double, 5, 5>;
using Vector5 = Eigen::Matrix<double, 5, 1>;

Eigen::Matrix3d Skew(const Eigen::Vector3d& v) {
  Eigen::Matrix3d m;
  m << 0.0, -v.z(), v.y(), v.z(), 0.0, -v.x(), -v.y(), v.x(), 0.0;
  return m;
}

// Two unit vectors orthogonal to t (and to each other).
void TangentBasis(const Eigen::Vector3d& t, Eigen::Vector3d* b1, Eigen::Vector3d* b2) {
  const Eigen::Vector3d helper =
      std::abs(t.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  *b1 = t.cross(helper).normalized();
  *b2 = t.cross(*b1).normalized();
}

// Sampson residual r = x2^T E x1 / sqrt(|(E x1)_xy|^2 + |(E^T x2)_xy|^2) and, optionally, its
// gradient with respect to the entries of E. Returns false for a zero denominator. In scalars:
// it runs for every inlier in every iteration of RANSAC's local optimization.
bool SampsonResidual(const Eigen::Matrix3d& e, const Eigen::Vector2d& p1, const Eigen::Vector2d& p2,
                     double* residual, Eigen::Matrix3d* gradient) {
  const double x1[3] = {p1.x(), p1.y(), 1.0}, x2[3] = {p2.x(), p2.y(), 1.0};
  double e_x1[3];
  for (int k = 0; k < 3; ++k) e_x1[k] = e(k, 0) * x1[0] + e(k, 1) * x1[1] + e(k, 2);
  const double et_x2[2] = {e(0, 0) * x2[0] + e(1, 0) * x2[1] + e(2, 0),
                           e(0, 1) * x2[0] + e(1, 1) * x2[1] + e(2, 1)};
  const double numerator = x2[0] * e_x1[0] + x2[1] * e_x1[1] + e_x1[2];
  const double denominator =
      e_x1[0] * e_x1[0] + e_x1[1] * e_x1[1] + et_x2[0] * et_x2[0] + et_x2[1] * et_x2[1];
  if (!(denominator > 0.0)) return false;
  const double inv_sqrt = 1.0 / std::sqrt(denominator);
  *residual = numerator * inv_sqrt;
  if (gradient != nullptr) {
    // d numerator / dE_kj = x2_k x1_j; d denominator / dE_kj = 2 (E x1)_k x1_j (k < 2)
    //                                                         + 2 (E^T x2)_j x2_k (j < 2).
    const double scale = numerator * inv_sqrt * inv_sqrt * inv_sqrt;  // 0.5 * num / den^1.5 * 2
    for (int k = 0; k < 3; ++k) {
      for (int j = 0; j < 3; ++j) {
        const double d_denominator_half =
            (k < 2 ? e_x1[k] * x1[j] : 0.0) + (j < 2 ? et_x2[j] * x2[k] : 0.0);
        (*gradient)(k, j) = x2[k] * x1[j] * inv_sqrt - scale * d_denominator_half;
      }
    }
  }
  return true;
}

struct Pose {
  Eigen::Quaterniond rotation;
  Eigen::Vector3d translation;  // unit
  Eigen::Matrix3d Essential() const { return Skew(translation) * rotation.toRotationMatrix(); }
};

double Cost(const Pose& pose, const std::vector<Eigen::Vector2d>& x1,
            const std::vector<Eigen::Vector2d>& x2) {
  const Eigen::Matrix3d e = pose.Essential();
  double cost = 0.0;
  for (size_t i = 0; i < x1.size(); ++i) {
    double r;
    if (SampsonResidual(e, x1[i], x2[i], &r, nullptr)) cost += r * r;
  }
  return 0.5 * cost;
}

void BuildSystem(const Pose& pose, const std::vector<Eigen::Vector2d>& x1,
                 const std::vector<Eigen::Vector2d>& x2, Eigen::Vector3d* b1, Eigen::Vector3d* b2,
                 Matrix5* jtj, Vector5* jtr) {
  const Eigen::Matrix3d rotation = pose.rotation.toRotationMatrix();
  const Eigen::Matrix3d t_skew = Skew(pose.translation);
  const Eigen::Matrix3d e = t_skew * rotation;
  TangentBasis(pose.translation, b1, b2);
  // dE / d parameter: rotation dE = [t]x [e_k]x R; translation dE = [b_j]x R.
  Eigen::Matrix3d d_e[5];
  for (int k = 0; k < 3; ++k) d_e[k] = t_skew * Skew(Eigen::Vector3d::Unit(k)) * rotation;
  d_e[3] = Skew(*b1) * rotation;
  d_e[4] = Skew(*b2) * rotation;
  jtj->setZero();
  jtr->setZero();
  for (size_t i = 0; i < x1.size(); ++i) {
    double r;
    Eigen::Matrix3d gradient;
    if (!SampsonResidual(e, x1[i], x2[i], &r, &gradient)) continue;
    Vector5 j;
    for (int k = 0; k < 5; ++k) j(k) = gradient.cwiseProduct(d_e[k]).sum();
    jtj->noalias() += j * j.transpose();
    jtr->noalias() += j * r;
  }
}

Pose ApplyUpdate(const Pose& pose, const Vector5& delta, const Eigen::Vector3d& b1,
                 const Eigen::Vector3d& b2) {
  const Eigen::Vector3d w = delta.head<3>();
  const double angle = w.norm();
  const Eigen::Quaterniond increment = angle > 0.0
                                           ? Eigen::Quaterniond(Eigen::AngleAxisd(angle, w / angle))
                                           : Eigen::Quaterniond::Identity();
  Pose out;
  out.rotation = (increment * pose.rotation).normalized();
  out.translation = (pose.translation + delta(3) * b1 + delta(4) * b2).normalized();
  return out;
}

}  // namespace

void RelativePoseRefinementOptions::Check() const {
  PROJ_REQUIRE(max_iterations >= 0, "RelativePoseRefinementOptions.max_iterations must be >= 0");
  PROJ_REQUIRE(function_tolerance >= 0.0,
               "RelativePoseRefinementOptions.function_tolerance must be >= 0");
}

RelativePoseRefinementSummary RefineRelativePose(
    const RelativePoseRefinementOptions& options,
    const std::vector<Eigen::Vector2d>& points1_normalized,
    const std::vector<Eigen::Vector2d>& points2_normalized, Rigid3d* cam2_from_cam1) {
  options.Check();
  PROJ_REQUIRE(points1_normalized.size() == points2_normalized.size(),
               "RefineRelativePose: " << points1_normalized.size() << " points in image 1 but "
                                      << points2_normalized.size() << " in image 2");
  RelativePoseRefinementSummary summary;
  const double t_norm = cam2_from_cam1->translation.norm();
  if (points1_normalized.size() < 5 || !(t_norm > 0.0)) return summary;
  Pose pose{cam2_from_cam1->rotation.normalized(), cam2_from_cam1->translation / t_norm};
  double cost = Cost(pose, points1_normalized, points2_normalized);
  summary.initial_cost = summary.final_cost = cost;
  if (!std::isfinite(cost)) return summary;
  summary.success = true;

  Matrix5 jtj;
  Vector5 jtr;
  Eigen::Vector3d b1, b2;
  BuildSystem(pose, points1_normalized, points2_normalized, &b1, &b2, &jtj, &jtr);
  double damping = 1e-4;
  for (int iteration = 0; iteration < options.max_iterations; ++iteration) {
    summary.num_iterations = iteration + 1;
    Matrix5 augmented = jtj;
    augmented.diagonal() += damping * jtj.diagonal().cwiseMax(1e-12);
    const Eigen::LDLT<Matrix5> ldlt(augmented);
    const Vector5 delta = -ldlt.solve(jtr);
    if (ldlt.info() != Eigen::Success || !delta.allFinite()) break;
    const Pose candidate = ApplyUpdate(pose, delta, b1, b2);
    const double candidate_cost = Cost(candidate, points1_normalized, points2_normalized);
    if (candidate_cost <= cost) {
      const double decrease = cost - candidate_cost;
      pose = candidate;
      cost = candidate_cost;
      damping = std::max(damping / 10.0, 1e-12);
      if (decrease <= options.function_tolerance * cost || cost == 0.0) break;
      BuildSystem(pose, points1_normalized, points2_normalized, &b1, &b2, &jtj, &jtr);
    } else {
      damping *= 10.0;
      if (damping > 1e12) break;
    }
  }
  summary.final_cost = cost;
  *cam2_from_cam1 = Rigid3d(pose.rotation, pose.translation);
  return summary;
}

}  // namespace proj
