#include "sfm/stages/mapper_choice.h"

#include <sstream>

#include "core/check.h"
#include "sfm/stages/reconstruction_options.h"

namespace proj {

void AutoMapperOptions::Check() const {
  PROJ_REQUIRE(min_gps_share > 0 && min_gps_share <= 1,
               "AutoMapperOptions.min_gps_share must be in (0, 1] (got " << min_gps_share << ")");
  PROJ_REQUIRE(min_images >= 0, "--mapper-auto-min-images must be >= 0 (got " << min_images << ")");
  PROJ_REQUIRE(min_registered_share >= 0 && min_registered_share <= 1,
               "AutoMapperOptions.min_registered_share must be in [0, 1] (got " << min_registered_share << ")");
  PROJ_REQUIRE(max_reprojection_error_px > 0,
               "AutoMapperOptions.max_reprojection_error_px must be > 0 (got " << max_reprojection_error_px << ")");
}

bool IsOrderedInput(const ReconstructionOptions& options) {
  return options.correspondences == CorrespondenceSource::kKltTracks ||
         options.pair_selection.mode == PairSelection::kSequential;
}

MapperDecision ChooseMapper(const ReconstructionOptions& options, const Scene& scene) {
  if (options.mapper_choice == MapperChoice::kGlobal) return {true, "--mapper global"};
  if (options.mapper_choice == MapperChoice::kIncremental) return {false, "--mapper incremental"};
  const AutoMapperOptions& rule = options.auto_mapper;
  const int num_images = static_cast<int>(scene.images.size());
  const int num_with_gps = static_cast<int>(scene.position_priors.size());
  std::ostringstream reason;
  reason << "auto: ";
  if (IsOrderedInput(options)) {
    reason << "ordered input (sequential matching or KLT tracks), where the global mapper built a wrong model";
    return {false, reason.str()};
  }
  if (num_with_gps < rule.min_gps_share * num_images) {
    reason << "GPS on " << num_with_gps << " of " << num_images
           << " images; without GPS the global mapper is no more accurate (Strecha) or wrong (object views)";
    return {false, reason.str()};
  }
  if (num_images < rule.min_images) {
    reason << num_images << " images, fewer than --mapper-auto-min-images " << rule.min_images;
    return {false, reason.str()};
  }
  reason << "GPS on " << num_with_gps << " of " << num_images
         << " unordered images, where the global mapper is the more accurate (GPS flights)";
  return {true, reason.str()};
}

std::string GlobalModelFault(const AutoMapperOptions& options, const MapperSummary& mapper,
                             const ModelQuality& quality, int num_linked_images) {
  std::ostringstream fault;
  if (!mapper.success) {
    fault << "it built no model (" << mapper.failure_reason << ")";
  } else if (quality.num_registered < options.min_registered_share * num_linked_images) {
    fault << "it registered " << quality.num_registered << " of the " << num_linked_images
          << " images the view graph links";
  } else if (quality.mean_reprojection_error_px > options.max_reprojection_error_px) {
    fault << "its mean reprojection error is " << quality.mean_reprojection_error_px << " px (more than "
          << options.max_reprojection_error_px << " px)";
  } else if (quality.verdict != QualityVerdict::kGood) {
    fault << "its quality check says " << QualityVerdictName(quality.verdict) << ": "
          << (quality.reasons.empty() ? "" : quality.reasons.front());
  }
  return fault.str();
}

}  // namespace proj
