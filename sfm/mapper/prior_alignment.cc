#include "sfm/mapper/prior_alignment.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <Eigen/SVD>

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
  PROJ_REQUIRE(max_roll_uncertainty_deg > 0, "PriorAlignmentOptions.max_roll_uncertainty_deg must be > 0");
  PROJ_REQUIRE(min_inlier_share >= 0 && min_inlier_share <= 1,
               "PriorAlignmentOptions.min_inlier_share must be in [0, 1], got " << min_inlier_share);
}

namespace {

double MedianOf(std::vector<double> values) {
  if (values.empty()) return 0;
  const auto middle = values.begin() + values.size() / 2;
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

// The figures of `alignment` from its residuals.
void SummarizeResiduals(PriorAlignment* alignment) {
  std::vector<double> inliers, all;
  double inlier_sum2 = 0, all_sum2 = 0;
  for (const PriorResidual& r : alignment->residuals) {
    const double error = r.residual_m.norm();
    all.push_back(error);
    all_sum2 += error * error;
    if (r.inlier) {
      inliers.push_back(error);
      inlier_sum2 += error * error;
    }
  }
  alignment->inlier_rms_m = std::sqrt(inlier_sum2 / std::max<size_t>(1, inliers.size()));
  alignment->inlier_max_m = inliers.empty() ? 0 : *std::max_element(inliers.begin(), inliers.end());
  alignment->inlier_median_m = MedianOf(inliers);
  alignment->all_rms_m = std::sqrt(all_sum2 / std::max<size_t>(1, all.size()));
  alignment->all_max_m = all.empty() ? 0 : *std::max_element(all.begin(), all.end());
  alignment->all_median_m = MedianOf(all);
}

// Why an alignment whose residuals and inliers are measured must be refused; "" if not.
std::string RefusalReason(const PriorAlignmentOptions& options, const PriorAlignment& alignment) {
  const int num_fixes = static_cast<int>(alignment.residuals.size());
  const int num_inliers = alignment.NumInliers();
  std::ostringstream reason;
  if (alignment.roll_uncertainty_deg > options.max_roll_uncertainty_deg) {
    reason << "the " << num_inliers << " GPS fixes that agree with the model lie nearly on a line: the "
           << "model's roll about it is undetermined (to " << std::lround(alignment.roll_uncertainty_deg)
           << " deg, more than " << options.max_roll_uncertainty_deg << ")";
  } else if (num_fixes >= options.min_fixes_for_share &&
             num_inliers < options.min_inlier_share * num_fixes) {
    reason << "only " << num_inliers << " of the " << num_fixes << " GPS fixes agree with the model within "
           << options.max_error_m << " m (median distance over all " << alignment.all_median_m
           << " m); at least " << std::lround(100 * options.min_inlier_share) << "% must";
  }
  return reason.str();
}

}  // namespace

double RollUncertaintyDeg(const std::vector<Eigen::Vector3d>& centers_m, double sigma_m) {
  constexpr double kUndetermined = 180;
  if (centers_m.size() < 2) return kUndetermined;
  Eigen::Vector3d mean = Eigen::Vector3d::Zero();
  for (const Eigen::Vector3d& c : centers_m) mean += c;
  mean /= static_cast<double>(centers_m.size());
  Eigen::MatrixXd centred(centers_m.size(), 3);
  for (size_t i = 0; i < centers_m.size(); ++i) centred.row(i) = (centers_m[i] - mean).transpose();
  // Singular values: the spread along the principal line, then across it. A rotation about
  // the line by a moves each centre by a x its distance to the line: least squares over n
  // fixes of noise sigma determine a to sigma / sqrt(sum of squared distances), and that sum
  // is the sum of the squared second and third singular values.
  const Eigen::Vector3d s = Eigen::JacobiSVD<Eigen::MatrixXd>(centred).singularValues();
  if (!(s[0] > 0)) return kUndetermined;
  const double across_m = std::hypot(s[1], s[2]);
  if (!(across_m > 0)) return kUndetermined;
  return std::min(kUndetermined, std::atan(sigma_m / across_m) * 180 / M_PI);
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
  alignment.priors_from_model = report.model;
  std::vector<Eigen::Vector3d> inlier_centers_m;
  double sigma2_sum = 0;
  for (size_t i = 0; i < image_ids.size(); ++i) {
    PriorResidual r;
    r.image_id = image_ids[i];
    r.inlier = report.inlier_mask[i] != 0;
    const Eigen::Vector3d aligned = report.model * centers[i];
    r.residual_m = aligned - priors[i];
    if (r.inlier) {
      inlier_centers_m.push_back(aligned);
      sigma2_sum += scene->position_priors.at(r.image_id).sigma.squaredNorm() / 3;
    }
    alignment.residuals.push_back(r);
  }
  SummarizeResiduals(&alignment);
  const double sigma_m = std::sqrt(sigma2_sum / std::max<size_t>(1, inlier_centers_m.size()));
  alignment.roll_uncertainty_deg = RollUncertaintyDeg(inlier_centers_m, sigma_m);
  alignment.failure_reason = RefusalReason(options, alignment);
  if (!alignment.failure_reason.empty()) return alignment;
  alignment.aligned = true;
  TransformScene(report.model, scene);
  MeasurePriorResiduals(*scene, &alignment);
  return alignment;
}

void MeasurePriorResiduals(const Scene& scene, PriorAlignment* alignment) {
  for (PriorResidual& r : alignment->residuals) {
    r.residual_m = scene.images[r.image_id].cam_from_world.Center() - scene.position_priors.at(r.image_id).position;
  }
  SummarizeResiduals(alignment);
}

}  // namespace proj
