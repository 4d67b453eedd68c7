#include "sfm/stages/model_components.h"

#include <optional>
#include <utility>

#include "core/check.h"
#include "core/logging.h"
#include "sfm/stages/gps_rebuild.h"
#include "sfm/stages/reconstruction_options.h"

namespace proj {

void ComponentOptions::Check() const {
  PROJ_REQUIRE(min_model_size >= 2, "--min-model-size must be >= 2 (got " << min_model_size << ")");
  PROJ_REQUIRE(max_components >= 1, "--max-components must be >= 1 (got " << max_components << ")");
}

std::vector<std::vector<int>> UnmodelledGroups(const std::vector<char>& in_a_model,
                                               const std::vector<VerifiedPair>& pairs) {
  std::vector<ImagePair> edges;
  for (const VerifiedPair& pair : pairs) {
    if (pair.geometry.inlier_matches.empty()) continue;
    if (in_a_model[pair.pair.image1] || in_a_model[pair.pair.image2]) continue;
    edges.push_back(pair.pair);
  }
  std::vector<std::vector<int>> groups;
  for (std::vector<int>& component : ConnectedComponents(static_cast<int>(in_a_model.size()), edges)) {
    if (!in_a_model[component.front()]) groups.push_back(std::move(component));
  }
  return groups;
}

OtherComponents MapOtherComponents(const ReconstructionOptions& options, const Scene& scene,
                                   const std::vector<VerifiedPair>& pairs) {
  const ComponentOptions& components = options.components;
  OtherComponents result;
  std::vector<ComponentModel>& models = result.models;
  if (!components.enabled) return result;
  std::vector<char> taken(scene.images.size(), 0);  // in a model, or in a group none starts in
  for (size_t i = 0; i < scene.images.size(); ++i) taken[i] = scene.images[i].registered;
  while (static_cast<int>(models.size()) + 1 < components.max_components) {
    const std::vector<std::vector<int>> groups = UnmodelledGroups(taken, pairs);
    if (groups.empty() || static_cast<int>(groups.front().size()) < components.min_model_size) break;
    const std::vector<int>& group = groups.front();
    ComponentModel model;
    model.image_ids = group;
    SubViewGraph sub = ExtractSubViewGraph(scene, pairs, group);
    const TrackSet tracks = BuildViewGraphTracks(sub.scene, sub.pairs);
    const int number = static_cast<int>(models.size()) + 2;  // the main model is component 1
    const ScopedLogPrefix prefix("component " + std::to_string(number) + ": ");
    const bool may_rebuild = options.rebuild_with_gps && !sub.scene.position_priors.empty();
    std::optional<Scene> unmapped;
    if (may_rebuild) unmapped = sub.scene;
    PROJ_LOG(kInfo, "mapping " << group.size() << " images the models so far left out");
    model.mapper = MapAndGeoreference(options, tracks, sub.pairs, &sub.scene);
    if (!model.mapper.success || model.mapper.num_registered < components.min_model_size) {
      PROJ_LOG(kInfo, "no model of at least " << components.min_model_size << " images in a group of "
                                              << group.size() << " unregistered images ("
                                              << (model.mapper.success ? "too few registered"
                                                                       : model.mapper.failure_reason)
                                              << ")");
      for (int image : group) taken[image] = 1;
      continue;
    }
    model.quality = AssessModelQuality(options.quality, sub.scene, model.mapper, sub.pairs);
    if (may_rebuild && !model.quality.gps.Consistent()) {
      std::optional<GpsRebuild> rebuilt = RebuildWithGps(options, tracks, sub.pairs, *unmapped, model.quality);
      if (rebuilt) {
        sub.scene = std::move(rebuilt->scene);
        model.mapper = std::move(rebuilt->mapper);
        model.quality = std::move(rebuilt->quality);
        model.rebuilt_with_gps = true;
      }
    }
    for (size_t i = 0; i < group.size(); ++i) {
      if (sub.scene.images[i].registered) taken[group[i]] = 1;
    }
    if (model.quality.verdict == QualityVerdict::kFailed) {
      PROJ_LOG(kWarning, "a model of " << model.quality.num_registered << " of " << group.size()
                                       << " images is not kept: it failed its quality checks: "
                                       << JoinReasons(model.quality.reasons));
      result.rejected.push_back({group, model.quality.num_registered, std::move(model.quality)});
      continue;
    }
    if (model.quality.verdict != QualityVerdict::kGood) {
      PROJ_LOG(kWarning, "the model is suspect: " << JoinReasons(model.quality.reasons));
    }
    model.scene = std::move(sub.scene);
    models.push_back(std::move(model));
  }
  return result;
}

}  // namespace proj
