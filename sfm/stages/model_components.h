// Every connected component of a scene mapped, not only the largest (issue 26): images the
// main model did not register are mapped on their own, a model per group of them that a new
// initial pair can start, as COLMAP writes sparse/0, sparse/1, ... (COLMAP 4 and GLOMAP
// doubled their IMC 2025 score by keeping every component). Two photo sets with nothing in
// common in one folder come out as two models instead of one and a list of unregistered images.
// The main model stays the run's model (OUT/model); the others are written as OUT/models/1, ...
// Each is checked against its GPS as the main model is (model_quality.h): one that disagrees
// is mapped once more with the GPS as a constraint (gps_rebuild.h), and one that still fails
// its check is not written (a wrong model is never a result), only reported.
#pragma once

#include <string>
#include <vector>

#include "sfm/mapper/incremental_mapper.h"
#include "sfm/scene/scene.h"
#include "sfm/scene/view_graph.h"
#include "sfm/stages/model_quality.h"

namespace proj {

struct ReconstructionOptions;

struct ComponentOptions {
  bool enabled = true;     // --all-components on|off
  int min_model_size = 3;  // a model of fewer registered images is not kept (COLMAP's min_model_size)
  int max_components = 10;  // models in all, the main one included; >= 1

  void Check() const;  // throws InputError naming the option
};

// One more model: the view graph of the images `image_ids` (increasing indices into the
// whole scene) mapped alone.
struct ComponentModel {
  std::vector<int> image_ids;  // scene.images[i] is image image_ids[i] of the whole scene
  Scene scene;                 // its registered images posed; in the GPS frame when aligned
  MapperSummary mapper;        // mapper.georeference: its alignment to its images' GPS priors
  ModelQuality quality;        // its self-check: good or suspect (a failed one is rejected)
  bool rebuilt_with_gps = false;  // the GPS-constrained second attempt (RebuildWithGps)
};

// A model of a group that failed its self-check, even mapped again with the GPS as a
// constraint: not written; its images stay unregistered.
struct RejectedComponent {
  std::vector<int> image_ids;  // the group, indices into the whole scene
  int num_registered = 0;      // by the rejected model
  ModelQuality quality;        // verdict kFailed, with its reasons
};

struct OtherComponents {
  std::vector<ComponentModel> models;  // kept, largest group first
  std::vector<RejectedComponent> rejected;
};

// The groups of images that no model holds yet (`in_a_model`, per image of the whole scene)
// linked by verified pairs among themselves, as ConnectedComponents orders them.
std::vector<std::vector<int>> UnmodelledGroups(const std::vector<char>& in_a_model,
                                               const std::vector<VerifiedPair>& pairs);

// After the main model (`scene`, its registered images): the images it left out, mapped by
// the run's mapper (options.mapper_choice, resolved to incremental or global) and aligned to
// their GPS as the main model is (MapAndGeoreference), largest group first: a model that
// registers at least options.components.min_model_size images is checked
// (AssessModelQuality, options.quality; mapped again by RebuildWithGps when it disagrees with
// its GPS and options.rebuild_with_gps), kept unless its verdict is kFailed, and its images
// leave the pool either way; a group where none starts is given up. Stops when no group of
// min_model_size images is left or options.components.max_components models exist. Empty
// when disabled. Logs each model kept and warns of each rejected, with the reasons.
OtherComponents MapOtherComponents(const ReconstructionOptions& options, const Scene& scene,
                                   const std::vector<VerifiedPair>& pairs);

}  // namespace proj
