#include "sfm/stages/gps_rebuild.h"

#include <algorithm>
#include <sstream>
#include <utility>

#include "core/logging.h"
#include "sfm/global/global_mapper.h"
#include "sfm/stages/georeference_priors.h"
#include "sfm/stages/mapper_choice.h"

namespace proj {

MapperSummary MapAndGeoreference(const ReconstructionOptions& options, const TrackSet& tracks,
                                 const std::vector<VerifiedPair>& pairs, Scene* scene) {
  MapperSummary mapper;
  if (ChooseMapper(options, *scene).global) {
    GlobalMapperOptions global_options = options.global_mapper;
    global_options.refinement = options.mapper;
    mapper = RunGlobalMapper(global_options, tracks, pairs, scene);
  } else {
    mapper = RunIncrementalMapper(options.mapper, tracks, pairs, scene);
  }
  // Georeferencing reads the summary: aligned here whichever mapper ran.
  GeoreferenceModel(options.mapper.priors, options.mapper.seed + 104729, scene, &mapper);
  return mapper;
}

bool RebuildIsBetter(const GpsRebuildOptions& rebuild, const ModelQuality& rebuilt, const ModelQuality& first) {
  const double first_error_px = std::max(first.mean_reprojection_error_px, rebuild.min_reprojection_error_px);
  if (rebuilt.mean_reprojection_error_px > rebuild.max_reprojection_increase * first_error_px) return false;
  if (rebuilt.num_registered < rebuild.min_registered_share * first.num_registered) return false;
  if (rebuilt.verdict != first.verdict) return rebuilt.verdict < first.verdict;
  return rebuilt.gps.median_m < first.gps.median_m;
}

namespace {

std::string Describe(const ModelQuality& quality) {
  std::ostringstream text;
  text << quality.num_registered << "/" << quality.num_images << " images, "
       << QualityVerdictName(quality.verdict) << ", a median " << quality.gps.median_m << " m from the GPS, "
       << quality.mean_reprojection_error_px << " px";
  return text.str();
}

}  // namespace

std::optional<GpsRebuild> RebuildWithGps(const ReconstructionOptions& options, const TrackSet& tracks,
                                         const std::vector<VerifiedPair>& pairs, const Scene& unmapped,
                                         const ModelQuality& first, const GpsRebuildOptions& rebuild) {
  PROJ_LOG(kWarning, "the model disagrees with its GPS (" << QualityVerdictName(first.verdict) << ": "
                                                        << first.reasons.front()
                                                        << "); mapping once more with the GPS as a constraint from "
                                                           "the start");
  ReconstructionOptions constrained = options;
  constrained.mapper.priors.max_error_m = std::max(options.mapper.priors.max_error_m, rebuild.max_error_m);
  for (MapperChoice mapper : {MapperChoice::kGlobal, MapperChoice::kIncremental}) {
    constrained.mapper_choice = mapper;
    GpsRebuild second;
    second.mapper_name = mapper == MapperChoice::kGlobal ? "global" : "incremental";
    second.scene = unmapped;
    for (auto& [image_id, prior] : second.scene.position_priors) prior.sigma = prior.sigma.cwiseMin(rebuild.sigma_m);
    second.mapper = MapAndGeoreference(constrained, tracks, pairs, &second.scene);
    if (!second.mapper.success) {
      PROJ_LOG(kInfo, "GPS-constrained " << second.mapper_name << " mapper: no model (" << second.mapper.failure_reason
                                         << ")");
      continue;
    }
    second.scene.position_priors = unmapped.position_priors;  // judged against the fixes as stated
    second.quality = AssessModelQuality(options.quality, second.scene, second.mapper, pairs);
    if (RebuildIsBetter(rebuild, second.quality, first)) {
      PROJ_LOG(kInfo, "the GPS-constrained " << second.mapper_name << " model ("
                                             << Describe(second.quality) << ") replaces the first ("
                                             << Describe(first) << ")");
      return second;
    }
    PROJ_LOG(kWarning, "the GPS-constrained " << second.mapper_name << " model is no better than the first ("
                                               << Describe(second.quality) << ")");
  }
  PROJ_LOG(kWarning, "the first model stands");
  return std::nullopt;
}

}  // namespace proj
