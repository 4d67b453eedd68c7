#include "sfm/mapper/prior_alignment.h"

#include <algorithm>
#include <cmath>

#include "core/check.h"
#include "geometry/ransac/estimate_similarity.h"
#include "sfm/ba/bundle_adjuster.h"

namespace proj {

void PriorAlignmentOptions::Check() const {
  PROJ_REQUIRE(min_images >= 3, "PriorAlignmentOptions.min_images must be >= 3, got " << min_images);
  PROJ_REQUIRE(max_error_m > 0,
               "PriorAlignmentOptions.max_error_m must be > 0, got " << max_error_m);
  PROJ_REQUIRE(focal_prior_relative_sigma >= 0,
               "PriorAlignmentOptions.focal_prior_relative_sigma must be >= 0");
}

int PriorAlignment::NumInliers() const {
  return static_cast<int>(std::count_if(residuals.begin(), residuals.end(),
                                        [](const PriorResidual& r) { return r.inlier; }));
}

std::map<int, PositionPrior> PriorAlignment::InlierPriors(const Scene& scene) const {
  std::map<int, PositionPrior> priors;
  for (const PriorResidual& r : residuals) {
    if (r.inlier) priors[r.image_id] = scene.position_priors.at(r.image_id);
  }
  return priors;
}

void AddGeoreferencePriors(const PriorAlignmentOptions& options, const PriorAlignment& alignment,
                           const Scene& scene, bool with_positions, BundleAdjustmentConfig* config) {
  if (!alignment.aligned) return;
  if (with_positions) config->position_priors = alignment.InlierPriors(scene);
  if (options.focal_prior_relative_sigma <= 0) return;
  for (const auto& [camera_id, focal_px] : scene.focal_priors_px) {
    config->focal_priors[camera_id] = {focal_px, options.focal_prior_relative_sigma * focal_px};
  }
}

void TransformScene(const Sim3d& new_from_old, Scene* scene) {
  PROJ_CHECK(new_from_old.scale > 0, "TransformScene: scale must be > 0");
  // x_cam = R_c x_old + t_c with x_old = R^T (x_new - t) / s; scaling the camera frame by s
  // leaves the projection unchanged: R' = R_c R^T, t' = s t_c - R' t.
  const Eigen::Quaterniond inverse_rotation = new_from_old.rotation.conjugate();
  for (SceneImage& image : scene->images) {
    if (!image.registered) continue;
    Rigid3d& pose = image.cam_from_world;
    const Eigen::Quaterniond rotation = (pose.rotation * inverse_rotation).normalized();
    pose.translation = new_from_old.scale * pose.translation - rotation * new_from_old.translation;
    pose.rotation = rotation;
  }
  for (auto& [id, point] : scene->points) point.position = new_from_old * point.position;
}

PriorAlignment AlignSceneToPriors(const PriorAlignmentOptions& options, uint64_t seed,
                                  Scene* scene) {
  options.Check();
  PriorAlignment alignment;
  std::vector<int> image_ids;
  std::vector<Eigen::Vector3d> centers, priors;
  for (const auto& [image_id, prior] : scene->position_priors) {
    if (image_id < 0 || image_id >= static_cast<int>(scene->images.size()) ||
        !scene->images[image_id].registered) {
      continue;
    }
    image_ids.push_back(image_id);
    centers.push_back(scene->images[image_id].cam_from_world.Center());
    priors.push_back(prior.position);
  }
  if (static_cast<int>(image_ids.size()) < options.min_images) {
    alignment.failure_reason = std::to_string(image_ids.size()) +
                               " registered image(s) have a GPS position; at least " +
                               std::to_string(options.min_images) + " are needed";
    return alignment;
  }
  RansacOptions ransac;
  ransac.max_error = options.max_error_m;
  ransac.min_num_inliers = options.min_images;
  ransac.seed = seed;
  ransac.sprt = false;  // a few dozen data: scoring all of them is cheap
  const RansacReport<Sim3d> report = EstimateSimilarityTransform(ransac, centers, priors);
  if (!report.success || !(report.model.scale > 0) || !std::isfinite(report.model.scale)) {
    alignment.failure_reason =
        "the GPS positions of the registered images agree with no similarity transform of the "
        "model within " + std::to_string(options.max_error_m) +
        " m (too few consistent fixes, or all on a line)";
    return alignment;
  }
  alignment.aligned = true;
  alignment.priors_from_model = report.model;
  TransformScene(report.model, scene);
  for (size_t i = 0; i < image_ids.size(); ++i) {
    PriorResidual r;
    r.image_id = image_ids[i];
    r.inlier = report.inlier_mask[i] != 0;
    alignment.residuals.push_back(r);
  }
  MeasurePriorResiduals(*scene, &alignment);
  return alignment;
}

void MeasurePriorResiduals(const Scene& scene, PriorAlignment* alignment) {
  double sum2 = 0;
  alignment->inlier_max_m = 0;
  for (PriorResidual& r : alignment->residuals) {
    r.residual_m = scene.images[r.image_id].cam_from_world.Center() - scene.position_priors.at(r.image_id).position;
    if (r.inlier) {
      sum2 += r.residual_m.squaredNorm();
      alignment->inlier_max_m = std::max(alignment->inlier_max_m, r.residual_m.norm());
    }
  }
  alignment->inlier_rms_m = std::sqrt(sum2 / std::max(1, alignment->NumInliers()));
}

}  // namespace proj
