// The last stage of a run: the view graph of the scene database (view_graph_loader.h) to
// tracks, keyframes of ordered input, GPS priors, and a model by the incremental or the
// global mapper, aligned to the GPS priors where there are any, then its self-check
// (model_quality.h). A model that disagrees with its GPS is mapped once more with the GPS as
// a constraint from the start (options.rebuild_with_gps); the better of the two is kept.
#pragma once

#include <vector>

#include "sfm/database/scene_database.h"
#include "sfm/stages/reconstruction_options.h"
#include "sfm/stages/stage_summaries.h"

namespace proj {

// Loads the view graph of `image_ids` (all images when empty) and maps it. `options`
// resolved. Throws InputError when the database holds fewer than two usable images; a
// mapper that builds no model returns summary.mapper.success == false.
MappingStageSummary RunMappingStage(const ReconstructionOptions& options, const std::vector<int>& image_ids,
                                    const SceneDatabase& database);

}  // namespace proj
