// The pairs of a run: the images that pair selection picks matched (matching_stage.h), pairs
// far apart in a sequence that look alike added (loop_closure.h), and every pair verified
// (verification_stage.h). Nothing to do for a database filled by KLT tracking.
#pragma once

#include <vector>

#include "sfm/database/scene_database.h"
#include "sfm/stages/reconstruction_options.h"
#include "sfm/stages/stage_summaries.h"

namespace proj {

// Matching and verification of the pairs of `image_ids` (name order) that pair selection
// picks; `verify` false matches only (a later run verifies, reusing the matches). `options`
// resolved; `database` open read-write.
PairStageSummary RunMatchingStages(const ReconstructionOptions& options, const std::vector<int>& image_ids,
                                   SceneDatabase* database, bool verify = true);

}  // namespace proj
