#include "sfm/gcp/ground_control.h"

#include <cmath>
#include <optional>
#include <sstream>

#include "core/check.h"
#include "core/logging.h"
#include "geometry/solvers/similarity.h"
#include "geometry/solvers/triangulation.h"
#include "sfm/mapper/prior_alignment.h"

namespace proj {
namespace {

// The marks of `point` in registered images.
std::vector<std::pair<int, Eigen::Vector2d>> RegisteredMarks(const Scene& scene, const GroundControlInput& point) {
  std::vector<std::pair<int, Eigen::Vector2d>> marks;
  for (const auto& mark : point.marks) {
    if (scene.images[mark.first].registered) marks.push_back(mark);
  }
  return marks;
}

// Multi-view DLT refined by Gauss-Newton; nullopt with fewer than two marks or a point not in
// front of every camera.
std::optional<Eigen::Vector3d> Triangulate(const Scene& scene, const std::vector<std::pair<int, Eigen::Vector2d>>& marks) {
  std::vector<Rigid3d> poses;
  std::vector<Eigen::Vector2d> normalized;
  for (const auto& [image_id, pixel] : marks) {
    const SceneImage& image = scene.images[image_id];
    poses.push_back(image.cam_from_world);
    normalized.push_back(scene.cameras[image.camera_id].PixelToNormalized(pixel));
  }
  Eigen::Vector3d point;
  if (poses.size() < 2 || !TriangulateMultiViewDlt(poses, normalized, &point)) return std::nullopt;
  RefineTriangulatedPoint(poses, normalized, &point);
  for (const Rigid3d& pose : poses) {
    if (!HasPositiveDepth(pose, point)) return std::nullopt;
  }
  return point;
}

GcpRms Rms(const std::vector<GcpResidual>& residuals, GcpRole role) {
  GcpRms rms;
  Eigen::Vector3d sum = Eigen::Vector3d::Zero();
  for (const GcpResidual& r : residuals) {
    if (r.role != role || !r.triangulated) continue;
    sum += r.residual_enu_m.cwiseAbs2();
    ++rms.count;
  }
  if (rms.count == 0) return rms;
  rms.enu_m = (sum / rms.count).cwiseSqrt();
  rms.error_m = std::sqrt(sum.sum() / rms.count);
  return rms;
}

// Adds the control points as scene points observed through extra keypoints, adjusts the scene
// with each held to its surveyed position, and removes them again: the model keeps only its
// own points and keypoints.
BundleAdjustmentSummary AdjustWithControlPoints(const GroundControlOptions& options, BundleAdjustmentOptions ba,
                                                const std::vector<GroundControlInput>& points,
                                                const std::vector<std::optional<Eigen::Vector3d>>& initial,
                                                Scene* scene) {
  std::vector<size_t> num_keypoints;
  for (const SceneImage& image : scene->images) num_keypoints.push_back(image.keypoints.size());
  const PositionPrior prior_sigma{Eigen::Vector3d::Zero(),
                                  Eigen::Vector3d(options.sigma_horizontal_m, options.sigma_horizontal_m,
                                                  options.sigma_vertical_m)};
  std::map<int, PositionPrior> point_priors;
  for (size_t i = 0; i < points.size(); ++i) {
    if (points[i].role != GcpRole::kControl || !initial[i]) continue;
    std::vector<TrackElement> track;
    for (const auto& [image_id, pixel] : RegisteredMarks(*scene, points[i])) {
      SceneImage& image = scene->images[image_id];
      track.push_back({image_id, static_cast<int>(image.keypoints.size())});
      image.keypoints.push_back(pixel);
      image.point3d_ids.push_back(kInvalidId);
    }
    const int point_id = scene->AddPoint(*initial[i], track);
    point_priors[point_id] = PositionPrior{points[i].surveyed_enu, prior_sigma.sigma};
  }
  BundleAdjustmentConfig config = ConfigForGlobal(*scene);
  config.fix_gauge = false;  // three or more control points, not collinear, hold it
  config.point_priors = point_priors;
  ba.max_iterations = options.max_iterations;
  const BundleAdjustmentSummary summary = RunBundleAdjustment(ba, config, scene);
  for (const auto& [point_id, prior] : point_priors) scene->DeletePoint(point_id);
  for (size_t i = 0; i < scene->images.size(); ++i) {
    scene->images[i].keypoints.resize(num_keypoints[i]);
    scene->images[i].point3d_ids.resize(num_keypoints[i]);
  }
  return summary;
}

}  // namespace

void GroundControlOptions::Check() const {
  PROJ_REQUIRE(sigma_horizontal_m > 0 && std::isfinite(sigma_horizontal_m) && sigma_vertical_m > 0 &&
                   std::isfinite(sigma_vertical_m),
               "--gcp-sigma-m must be > 0 (got " << sigma_horizontal_m << ", " << sigma_vertical_m << ")");
  PROJ_REQUIRE(max_iterations >= 1, "GroundControlOptions.max_iterations must be >= 1");
}

GroundControlSummary AdjustToGroundControl(const GroundControlOptions& options, const BundleAdjustmentOptions& ba,
                                           const std::vector<GroundControlInput>& points, Scene* scene) {
  options.Check();
  GroundControlSummary summary;
  summary.sigma_horizontal_m = options.sigma_horizontal_m;
  summary.sigma_vertical_m = options.sigma_vertical_m;
  std::vector<std::optional<Eigen::Vector3d>> initial(points.size());
  std::vector<Eigen::Vector3d> model_positions, surveyed;
  for (size_t i = 0; i < points.size(); ++i) {
    const auto marks = RegisteredMarks(*scene, points[i]);
    initial[i] = Triangulate(*scene, marks);
    if (!initial[i]) {
      PROJ_LOG(kWarning, "GCP '" << points[i].name << "' cannot be used: " << marks.size() << " of its "
                                 << points[i].marks.size() << " marks are in registered images"
                                 << (marks.size() >= 2 ? " and they do not triangulate" : ", two are needed"));
    } else if (points[i].role == GcpRole::kControl) {
      model_positions.push_back(*initial[i]);
      surveyed.push_back(points[i].surveyed_enu);
    }
  }
  if (model_positions.size() < 3) {
    std::ostringstream reason;
    reason << model_positions.size() << " control point(s) could be triangulated; at least three are needed";
    summary.failure_reason = reason.str();
  } else if (!EstimateSimilarityUmeyama(model_positions, surveyed, &summary.enu_from_model)) {
    summary.failure_reason = "the control points are collinear";
  } else {
    TransformScene(summary.enu_from_model, scene);
    for (auto& position : initial) {
      if (position) position = summary.enu_from_model * *position;
    }
    summary.adjustment = AdjustWithControlPoints(options, ba, points, initial, scene);
    summary.georeferenced = summary.adjustment.success;
    if (!summary.georeferenced) summary.failure_reason = "the adjustment failed: " + summary.adjustment.message;
  }
  for (size_t i = 0; i < points.size(); ++i) {
    GcpResidual residual;
    residual.name = points[i].name;
    residual.role = points[i].role;
    residual.surveyed_enu = points[i].surveyed_enu;
    const auto marks = RegisteredMarks(*scene, points[i]);
    residual.num_marks = static_cast<int>(points[i].marks.size());
    residual.num_registered_marks = static_cast<int>(marks.size());
    if (summary.georeferenced) {
      const std::optional<Eigen::Vector3d> position = Triangulate(*scene, marks);
      residual.triangulated = position.has_value();
      if (position) residual.residual_enu_m = *position - points[i].surveyed_enu;
    }
    summary.points.push_back(residual);
  }
  summary.control = Rms(summary.points, GcpRole::kControl);
  summary.check = Rms(summary.points, GcpRole::kCheck);
  return summary;
}

}  // namespace proj
