#include "sfm/stages/model_quality.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "core/check.h"
#include "sfm/mapper/scene_geometry.h"

namespace proj {

void ModelQualityOptions::Check() const {
  PROJ_REQUIRE(gps_max_median_factor > 0, "ModelQualityOptions.gps_max_median_factor must be > 0");
  PROJ_REQUIRE(gps_min_expected_error_m > 0, "ModelQualityOptions.gps_min_expected_error_m must be > 0");
  PROJ_REQUIRE(gps_max_outlier_share >= 0 && gps_max_outlier_share <= 1,
               "ModelQualityOptions.gps_max_outlier_share must be in [0, 1]");
  PROJ_REQUIRE(num_worst_images >= 0, "ModelQualityOptions.num_worst_images must be >= 0");
  PROJ_REQUIRE(dome_max_significance > 0, "ModelQualityOptions.dome_max_significance must be > 0");
  pairs.Check();
}

const char* QualityVerdictName(QualityVerdict verdict) {
  switch (verdict) {
    case QualityVerdict::kGood: return "good";
    case QualityVerdict::kSuspect: return "suspect";
    case QualityVerdict::kFailed: return "failed";
  }
  return "failed";
}

GpsAgreement MeasureGpsAgreement(const ModelQualityOptions& options, const Scene& scene,
                                 const MapperSummary& summary) {
  options.Check();
  GpsAgreement agreement;
  const PriorAlignment& alignment = summary.georeference;
  if (!summary.success || alignment.residuals.empty()) return agreement;
  agreement.checked = true;
  agreement.aligned = alignment.aligned;
  if (!alignment.aligned) agreement.refusal = alignment.failure_reason;
  agreement.num_fixes = static_cast<int>(alignment.residuals.size());
  agreement.num_outliers = agreement.num_fixes - alignment.NumInliers();
  agreement.median_m = alignment.all_median_m;
  double variance_sum = 0;
  for (const PriorResidual& r : alignment.residuals) {
    variance_sum += scene.position_priors.at(r.image_id).sigma.squaredNorm() / 3;
  }
  agreement.expected_error_m =
      std::max(options.gps_min_expected_error_m, std::sqrt(variance_sum / agreement.num_fixes));
  agreement.limit_m = options.gps_max_median_factor * agreement.expected_error_m;
  return agreement;
}

namespace {

// The registered images farthest from their fixes, as "name (D m)".
std::vector<std::string> WorstImages(const ModelQualityOptions& options, const Scene& scene,
                                     const PriorAlignment& alignment) {
  std::vector<const PriorResidual*> sorted;
  for (const PriorResidual& r : alignment.residuals) sorted.push_back(&r);
  std::stable_sort(sorted.begin(), sorted.end(), [](const PriorResidual* a, const PriorResidual* b) {
    return a->residual_m.norm() > b->residual_m.norm();
  });
  std::vector<std::string> names;
  for (size_t i = 0; i < sorted.size() && static_cast<int>(i) < options.num_worst_images; ++i) {
    std::ostringstream name;
    name << scene.images[sorted[i]->image_id].name << " (" << std::lround(sorted[i]->residual_m.norm()) << " m)";
    names.push_back(name.str());
  }
  return names;
}

void Downgrade(QualityVerdict verdict, const std::string& reason, ModelQuality* quality) {
  quality->verdict = std::max(quality->verdict, verdict);
  quality->reasons.push_back(reason);
}

}  // namespace

std::string JoinReasons(const std::vector<std::string>& reasons) {
  std::string joined;
  for (const std::string& reason : reasons) joined += (joined.empty() ? "" : "; ") + reason;
  return joined;
}

ModelQuality AssessModelQuality(const ModelQualityOptions& options, const Scene& scene,
                                const MapperSummary& summary, const std::vector<VerifiedPair>& pairs) {
  ModelQuality quality;
  quality.num_images = static_cast<int>(scene.images.size());
  quality.num_registered = scene.NumRegisteredImages();
  quality.mean_reprojection_error_px = MeanReprojectionErrorPx(scene);
  quality.pairs = MeasurePairAgreement(options.pairs, scene, pairs);
  if (!quality.pairs.Consistent()) {
    std::ostringstream reason;
    reason << "the model contradicts " << quality.pairs.num_contradicted_pairs << " of its "
           << quality.pairs.num_strong_pairs
           << " strongest image pairs (most of their matches off its epipolar geometry)";
    for (size_t i = 0; i < quality.pairs.worst_pairs.size(); ++i) {
      reason << (i ? ", " : ", e.g. ") << quality.pairs.worst_pairs[i];
    }
    reason << ": parts of it are misplaced against the rest";
    Downgrade(QualityVerdict::kSuspect, reason.str(), &quality);
  }
  quality.gps = MeasureGpsAgreement(options, scene, summary);
  const GpsAgreement& gps = quality.gps;
  if (!gps.checked) return quality;
  quality.worst_images = WorstImages(options, scene, summary.georeference);
  std::ostringstream figures;
  figures << std::setprecision(3) << "the cameras lie a median " << gps.median_m << " m from their "
          << gps.num_fixes << " GPS fixes";
  if (!gps.aligned) {
    Downgrade(QualityVerdict::kFailed, "the GPS alignment was refused: " + gps.refusal, &quality);
  }
  if (gps.median_m > gps.limit_m) {
    std::ostringstream reason;
    reason << std::setprecision(3) << figures.str() << ", more than " << options.gps_max_median_factor
           << " x their expected error of " << gps.expected_error_m << " m: the model disagrees with the GPS";
    Downgrade(QualityVerdict::kFailed, reason.str(), &quality);
  }
  if (gps.num_outliers > options.gps_max_outlier_share * gps.num_fixes) {
    std::ostringstream reason;
    reason << gps.num_outliers << " of the " << gps.num_fixes
           << " GPS fixes were rejected as outliers (more than "
           << std::lround(100 * options.gps_max_outlier_share) << "%)";
    Downgrade(QualityVerdict::kSuspect, reason.str(), &quality);
  }
  quality.dome = MeasureGpsDome(scene, summary.georeference);
  quality.dome_correction = summary.dome;
  const GpsDome& dome = quality.dome;
  if (dome.measured && dome.Significance() > options.dome_max_significance &&
      std::abs(dome.edge_m) > gps.expected_error_m) {
    std::ostringstream reason;
    reason << std::setprecision(3) << "the block is bent against its GPS fixes: its edges lie " << dome.edge_m
           << " m from them relative to its centre (" << std::lround(dome.Significance())
           << " standard errors); photos all taken straight down cannot tell lens distortion from such a bend: "
              "ground control points (--gcp), some oblique photos or a calibrated camera fix it";
    Downgrade(QualityVerdict::kSuspect, reason.str(), &quality);
  }
  return quality;
}

}  // namespace proj
