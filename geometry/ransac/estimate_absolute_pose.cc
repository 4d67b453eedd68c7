// Estimator adapters (STYLE P6) for EstimateAbsolutePose.
#include "geometry/ransac/estimate_absolute_pose.h"

#include <array>
#include <limits>
#include <utility>

#include "core/check.h"
#include "geometry/ransac/ransac.h"
#include "geometry/solvers/absolute_pose_refinement.h"
#include "geometry/solvers/p3p.h"

namespace proj {
namespace {

struct Correspondence {
  Eigen::Vector2d normalized;  // ray (x, y, 1) in the camera frame
  Eigen::Vector2d pixel;       // only used by the camera-model estimator
  Eigen::Vector3d point3d;     // world frame
};

// Models are [R | t] matrices inside RANSAC: scoring then costs one 3x4 product per datum
// instead of a quaternion rotation.
using PoseMatrix = Eigen::Matrix<double, 3, 4>;

// `poses` is the caller's scratch buffer (reused across iterations: no allocation).
void FitP3P(const std::array<Correspondence, 3>& sample, std::vector<Rigid3d>* poses,
            std::vector<PoseMatrix>* models) {
  std::array<Eigen::Vector3d, 3> bearings, points3d;
  for (int i = 0; i < 3; ++i) {
    bearings[i] = sample[i].normalized.homogeneous();
    points3d[i] = sample[i].point3d;
  }
  poses->clear();
  SolveP3P(bearings, points3d, poses);
  for (const Rigid3d& pose : *poses) models->push_back(pose.ToMatrix());
}

Rigid3d ToRigid(const PoseMatrix& m) {
  Eigen::Quaterniond rotation(m.leftCols<3>().eval());
  rotation.normalize();
  return Rigid3d(rotation, m.col(3));
}

RansacReport<Rigid3d> ToRigidReport(RansacReport<PoseMatrix>&& report) {
  RansacReport<Rigid3d> out;
  out.success = report.success;
  if (report.num_inliers > 0) out.model = ToRigid(report.model);  // else no model was found
  out.inlier_mask = std::move(report.inlier_mask);
  out.num_inliers = report.num_inliers;
  out.num_iterations = report.num_iterations;
  return out;
}

AbsolutePoseRefinementOptions LocalRefinementOptions() {
  AbsolutePoseRefinementOptions options;
  options.max_iterations = 10;  // a few LM steps suffice from a P3P start inside LO
  return options;
}

// Error on the normalized plane scaled to pixels by one focal length.
struct NormalizedPoseEstimator {
  using Datum = Correspondence;
  using Model = PoseMatrix;
  static constexpr int kSampleSize = 3;
  static constexpr double kFitCostInErrorEvaluations = 100.0;  // P3P ~0.6 us (SPRT)

  double focal_px = 1.0;
  mutable std::vector<Rigid3d> scratch_poses;
  mutable std::vector<Eigen::Vector2d> scratch2d;
  mutable std::vector<Eigen::Vector3d> scratch3d;

  void Fit(const std::array<Datum, kSampleSize>& sample, std::vector<Model>* models) const {
    FitP3P(sample, &scratch_poses, models);
  }
  double SquaredError(const Datum& datum, const Model& cam_from_world) const {
    const Eigen::Vector3d p = cam_from_world.leftCols<3>() * datum.point3d + cam_from_world.col(3);
    if (!(p.z() > 0.0)) return std::numeric_limits<double>::max();
    return focal_px * focal_px * (p.head<2>() / p.z() - datum.normalized).squaredNorm();
  }
  bool Refit(const std::vector<Datum>& inliers, const Model& initial, Model* refined) const {
    scratch2d.clear();
    scratch3d.clear();
    for (const Datum& datum : inliers) {
      scratch2d.push_back(datum.normalized);
      scratch3d.push_back(datum.point3d);
    }
    Rigid3d pose = ToRigid(initial);
    if (!RefineAbsolutePose(LocalRefinementOptions(), scratch2d, scratch3d, &pose).success) {
      return false;
    }
    *refined = pose.ToMatrix();
    return true;
  }
};

// Pixel error through a camera model.
template <typename CameraModel>
struct CameraPoseEstimator {
  using Datum = Correspondence;
  using Model = PoseMatrix;
  static constexpr int kSampleSize = 3;
  static constexpr double kFitCostInErrorEvaluations = 100.0;  // P3P ~0.6 us (SPRT)

  const Camera* camera = nullptr;  // outlives the Ransac call that uses this estimator
  mutable std::vector<Rigid3d> scratch_poses;
  mutable std::vector<Eigen::Vector2d> scratch2d;
  mutable std::vector<Eigen::Vector3d> scratch3d;

  void Fit(const std::array<Datum, kSampleSize>& sample, std::vector<Model>* models) const {
    FitP3P(sample, &scratch_poses, models);
  }
  double SquaredError(const Datum& datum, const Model& cam_from_world) const {
    const Eigen::Vector3d p = cam_from_world.leftCols<3>() * datum.point3d + cam_from_world.col(3);
    Eigen::Vector2d uv;
    if (!ProjectPoint<CameraModel>(camera->params.data(), p.data(), uv.data())) {
      return std::numeric_limits<double>::max();
    }
    return (uv - datum.pixel).squaredNorm();
  }
  bool Refit(const std::vector<Datum>& inliers, const Model& initial, Model* refined) const {
    scratch2d.clear();
    scratch3d.clear();
    for (const Datum& datum : inliers) {
      scratch2d.push_back(datum.pixel);
      scratch3d.push_back(datum.point3d);
    }
    Rigid3d pose = ToRigid(initial);
    if (!RefineAbsolutePose(LocalRefinementOptions(), *camera, scratch2d, scratch3d, &pose)
             .success) {
      return false;
    }
    *refined = pose.ToMatrix();
    return true;
  }
};

void RequireSameSize(size_t n2d, size_t n3d) {
  PROJ_REQUIRE(n2d == n3d,
               "EstimateAbsolutePose: " << n2d << " 2D points but " << n3d << " 3D points");
}

}  // namespace

RansacReport<Rigid3d> EstimateAbsolutePose(const RansacOptions& options,
                                           const std::vector<Eigen::Vector2d>& points2d_normalized,
                                           const std::vector<Eigen::Vector3d>& points3d,
                                           double focal_px) {
  RequireSameSize(points2d_normalized.size(), points3d.size());
  PROJ_REQUIRE(std::isfinite(focal_px) && focal_px > 0.0,
               "EstimateAbsolutePose: focal_px must be positive, got " << focal_px);
  std::vector<Correspondence> data(points3d.size());
  for (size_t i = 0; i < data.size(); ++i) {
    data[i].normalized = points2d_normalized[i];
    data[i].pixel = Eigen::Vector2d::Zero();
    data[i].point3d = points3d[i];
  }
  NormalizedPoseEstimator estimator;
  estimator.focal_px = focal_px;
  return ToRigidReport(Ransac(options, estimator, data));
}

RansacReport<Rigid3d> EstimateAbsolutePose(const RansacOptions& options, const Camera& camera,
                                           const std::vector<Eigen::Vector2d>& points2d_px,
                                           const std::vector<Eigen::Vector3d>& points3d) {
  RequireSameSize(points2d_px.size(), points3d.size());
  PROJ_REQUIRE(static_cast<int>(camera.params.size()) == CameraModelNumParams(camera.model),
               "EstimateAbsolutePose: camera has " << camera.params.size() << " parameters, model "
                                                   << CameraModelName(camera.model) << " needs "
                                                   << CameraModelNumParams(camera.model));
  std::vector<Correspondence> data(points3d.size());
  for (size_t i = 0; i < data.size(); ++i) {
    data[i].normalized = camera.PixelToNormalized(points2d_px[i]);
    data[i].pixel = points2d_px[i];
    data[i].point3d = points3d[i];
  }
  RansacReport<Rigid3d> report;
  VisitCameraModel(camera.model, [&](auto model) {
    CameraPoseEstimator<decltype(model)> estimator;
    estimator.camera = &camera;
    report = ToRigidReport(Ransac(options, estimator, data));
  });
  return report;
}

}  // namespace proj
