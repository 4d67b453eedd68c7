// The pairs of a run: the images that pair selection picks matched (matching_stage.h), pairs
// far apart in a sequence that look alike added (loop_closure.h), and every pair verified
// (verification_stage.h). Nothing to do for a database filled by KLT tracking.
#pragma once

#include <vector>

#include "sfm/database/scene_database.h"
#include "sfm/stages/reconstruction_options.h"
#include "sfm/stages/stage_summaries.h"

namespace proj {

// The pairs a run matches, as database image ids: pair selection's, then the loop closures.
struct RunPairs {
  std::vector<ImagePair> pairs;
  std::vector<ImagePair> loop_pairs;  // the loop closures among `pairs`
};

// The pairs of `image_ids` (name order) in `database` that `options` (resolved) select. The
// same database and options give the same list in the same order.
RunPairs SelectRunPairs(const ReconstructionOptions& options, const std::vector<int>& image_ids,
                        const SceneDatabase& database);

// Matches `pairs` and, with `verify`, verifies them: images and features read from
// `features`, matches and geometries read from and written to `results` (the same database,
// or a matching shard's, shard.h).
PairStageSummary MatchAndVerifyPairs(const ReconstructionOptions& options, const RunPairs& pairs,
                                     const SceneDatabase& features, SceneDatabase* results,
                                     bool verify);

// Matching and verification of the pairs of `image_ids` (name order) that pair selection
// picks; `verify` false matches only (a later run verifies, reusing the matches). `options`
// resolved; `database` open read-write.
PairStageSummary RunMatchingStages(const ReconstructionOptions& options, const std::vector<int>& image_ids,
                                   SceneDatabase* database, bool verify = true);

}  // namespace proj
