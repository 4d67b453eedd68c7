#include "geometry/solvers/absolute_pose_refinement.h"

#include <cmath>

#include <Eigen/Cholesky>
#include <unsupported/Eigen/AutoDiff>

#include "core/check.h"

namespace proj {
namespace {

using Matrix23 = Eigen::Matrix<double, 2, 3>;
using Matrix26 = Eigen::Matrix<double, 2, 6>;
using Matrix6 = Eigen::Matrix<double, 6, 6>;
using Vector6 = Eigen::Matrix<double, 6, 1>;

// Residual on the normalized image plane and its Jacobian with respect to the camera-frame
// point. Returns false for points not in front of the camera.
struct NormalizedResidual {
  const std::vector<Eigen::Vector2d>& observations;
  bool operator()(size_t i, const Eigen::Vector3d& p, Eigen::Vector2d* residual,
                  Matrix23* jacobian) const {
    if (!(p.z() > 0.0)) return false;
    const double inv_z = 1.0 / p.z();
    *residual = p.head<2>() * inv_z - observations[i];
    if (jacobian != nullptr) {
      *jacobian << inv_z, 0.0, -p.x() * inv_z * inv_z, 0.0, inv_z, -p.y() * inv_z * inv_z;
    }
    return true;
  }
};

// Residual in pixels through a camera model; the Jacobian by forward-mode automatic
// differentiation of the model's templated projection (the one source of camera math).
template <typename Model>
struct PixelResidual {
  const double* params;
  const std::vector<Eigen::Vector2d>& observations;
  bool operator()(size_t i, const Eigen::Vector3d& p, Eigen::Vector2d* residual,
                  Matrix23* jacobian) const {
    if (!(p.z() > 0.0)) return false;
    if (jacobian == nullptr) {
      Eigen::Vector2d uv;
      if (!ProjectPoint<Model>(params, p.data(), uv.data())) return false;
      *residual = uv - observations[i];
      return true;
    }
    using Dual = Eigen::AutoDiffScalar<Eigen::Vector3d>;
    Dual params_dual[Model::kNumParams];
    for (int k = 0; k < Model::kNumParams; ++k) params_dual[k] = Dual(params[k]);
    const Dual point[3] = {Dual(p.x(), 3, 0), Dual(p.y(), 3, 1), Dual(p.z(), 3, 2)};
    Dual uv[2];
    if (!ProjectPoint<Model>(params_dual, point, uv)) return false;
    *residual = Eigen::Vector2d(uv[0].value(), uv[1].value()) - observations[i];
    jacobian->row(0) = uv[0].derivatives().transpose();
    jacobian->row(1) = uv[1].derivatives().transpose();
    return true;
  }
};

// Huber: rho(s) = s for s <= k^2, 2 k sqrt(s) - k^2 otherwise (s = squared residual norm);
// IRLS weight rho'(s).
struct Huber {
  double threshold;  // 0 = identity
  double Rho(double s) const {
    if (threshold <= 0.0 || s <= threshold * threshold) return s;
    return 2.0 * threshold * std::sqrt(s) - threshold * threshold;
  }
  double Weight(double s) const {
    if (threshold <= 0.0 || s <= threshold * threshold) return 1.0;
    return threshold / std::sqrt(s);
  }
};

template <typename Residual>
double EvaluateCost(const Residual& residual_fn, const std::vector<Eigen::Vector3d>& points3d,
                    const Rigid3d& pose, const Huber& loss, int* num_used) {
  double cost = 0.0;
  *num_used = 0;
  const Eigen::Matrix3d rotation = pose.rotation.toRotationMatrix();
  for (size_t i = 0; i < points3d.size(); ++i) {
    const Eigen::Vector3d p = rotation * points3d[i] + pose.translation;
    Eigen::Vector2d r;
    if (!residual_fn(i, p, &r, nullptr)) continue;
    cost += loss.Rho(r.squaredNorm());
    ++*num_used;
  }
  return 0.5 * cost;
}

// Gauss-Newton system for the update (w, dt): p(w, dt) = exp([w]x) R X + t + dt, so
// dp/dw = -[R X]x and dp/dt = I at the current pose.
template <typename Residual>
void BuildSystem(const Residual& residual_fn, const std::vector<Eigen::Vector3d>& points3d,
                 const Rigid3d& pose, const Huber& loss, Matrix6* jtj, Vector6* jtr) {
  jtj->setZero();
  jtr->setZero();
  const Eigen::Matrix3d rotation = pose.rotation.toRotationMatrix();
  for (size_t i = 0; i < points3d.size(); ++i) {
    const Eigen::Vector3d rotated = rotation * points3d[i];
    const Eigen::Vector3d p = rotated + pose.translation;
    Eigen::Vector2d r;
    Matrix23 d_residual;
    if (!residual_fn(i, p, &r, &d_residual)) continue;
    Eigen::Matrix3d minus_skew;
    minus_skew << 0.0, rotated.z(), -rotated.y(), -rotated.z(), 0.0, rotated.x(), rotated.y(),
        -rotated.x(), 0.0;
    Matrix26 j;
    j.leftCols<3>() = d_residual * minus_skew;
    j.rightCols<3>() = d_residual;
    const double w = loss.Weight(r.squaredNorm());
    jtj->noalias() += w * j.transpose() * j;
    jtr->noalias() += w * j.transpose() * r;
  }
}

Rigid3d ApplyUpdate(const Rigid3d& pose, const Vector6& delta) {
  const Eigen::Vector3d w = delta.head<3>();
  const double angle = w.norm();
  const Eigen::Quaterniond increment = angle > 0.0
                                           ? Eigen::Quaterniond(Eigen::AngleAxisd(angle, w / angle))
                                           : Eigen::Quaterniond::Identity();
  Eigen::Quaterniond rotation = increment * pose.rotation;
  rotation.normalize();
  return Rigid3d(rotation, pose.translation + delta.tail<3>());
}

template <typename Residual>
AbsolutePoseRefinementSummary RunLevenbergMarquardt(const AbsolutePoseRefinementOptions& options,
                                                    const Residual& residual_fn,
                                                    const std::vector<Eigen::Vector3d>& points3d,
                                                    Rigid3d* cam_from_world) {
  AbsolutePoseRefinementSummary summary;
  const Huber loss{options.huber_threshold};
  Rigid3d pose = *cam_from_world;
  int num_used = 0;
  double cost = EvaluateCost(residual_fn, points3d, pose, loss, &num_used);
  summary.initial_cost = summary.final_cost = cost;
  if (num_used < 3 || !std::isfinite(cost)) return summary;
  summary.success = true;

  Matrix6 jtj;
  Vector6 jtr;
  BuildSystem(residual_fn, points3d, pose, loss, &jtj, &jtr);
  double damping = 1e-4;
  for (int iteration = 0; iteration < options.max_iterations; ++iteration) {
    summary.num_iterations = iteration + 1;
    Matrix6 augmented = jtj;
    augmented.diagonal() += damping * jtj.diagonal().cwiseMax(1e-12);
    const Eigen::LDLT<Matrix6> ldlt(augmented);
    const Vector6 delta = -ldlt.solve(jtr);
    if (ldlt.info() != Eigen::Success || !delta.allFinite()) break;
    const Rigid3d candidate = ApplyUpdate(pose, delta);
    int candidate_used = 0;
    const double candidate_cost =
        EvaluateCost(residual_fn, points3d, candidate, loss, &candidate_used);
    if (candidate_used >= num_used && candidate_cost <= cost) {
      const double decrease = cost - candidate_cost;
      pose = candidate;
      cost = candidate_cost;
      num_used = candidate_used;
      damping = std::max(damping / 10.0, 1e-12);
      if (decrease <= options.function_tolerance * cost || cost == 0.0) break;
      BuildSystem(residual_fn, points3d, pose, loss, &jtj, &jtr);
    } else {
      damping *= 10.0;
      if (damping > 1e12) break;
    }
  }
  summary.final_cost = cost;
  *cam_from_world = pose;
  return summary;
}

}  // namespace

void AbsolutePoseRefinementOptions::Check() const {
  PROJ_REQUIRE(max_iterations >= 0, "AbsolutePoseRefinementOptions.max_iterations must be >= 0");
  PROJ_REQUIRE(huber_threshold >= 0.0,
               "AbsolutePoseRefinementOptions.huber_threshold must be >= 0");
  PROJ_REQUIRE(function_tolerance >= 0.0,
               "AbsolutePoseRefinementOptions.function_tolerance must be >= 0");
}

AbsolutePoseRefinementSummary RefineAbsolutePose(
    const AbsolutePoseRefinementOptions& options,
    const std::vector<Eigen::Vector2d>& points2d_normalized,
    const std::vector<Eigen::Vector3d>& points3d, Rigid3d* cam_from_world) {
  options.Check();
  PROJ_REQUIRE(points2d_normalized.size() == points3d.size(),
               "RefineAbsolutePose: " << points2d_normalized.size() << " 2D points but "
                                      << points3d.size() << " 3D points");
  return RunLevenbergMarquardt(options, NormalizedResidual{points2d_normalized}, points3d,
                               cam_from_world);
}

AbsolutePoseRefinementSummary RefineAbsolutePose(const AbsolutePoseRefinementOptions& options,
                                                 const Camera& camera,
                                                 const std::vector<Eigen::Vector2d>& points2d_px,
                                                 const std::vector<Eigen::Vector3d>& points3d,
                                                 Rigid3d* cam_from_world) {
  options.Check();
  PROJ_REQUIRE(points2d_px.size() == points3d.size(),
               "RefineAbsolutePose: " << points2d_px.size() << " 2D points but " << points3d.size()
                                      << " 3D points");
  PROJ_REQUIRE(static_cast<int>(camera.params.size()) == CameraModelNumParams(camera.model),
               "RefineAbsolutePose: camera has " << camera.params.size() << " parameters, model "
                                                 << CameraModelName(camera.model) << " needs "
                                                 << CameraModelNumParams(camera.model));
  AbsolutePoseRefinementSummary summary;
  VisitCameraModel(camera.model, [&](auto model) {
    using Model = decltype(model);
    summary = RunLevenbergMarquardt(
        options, PixelResidual<Model>{camera.params.data(), points2d_px}, points3d, cam_from_world);
  });
  return summary;
}

}  // namespace proj
