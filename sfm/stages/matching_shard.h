// Shard i of N of the matching stage (shard.h): every task selects the run's pairs from the
// same merged extraction database, opened read-only and shared by all tasks, and matches and
// verifies its block of them into a database of its own, which holds the extraction's
// cameras and images under the same ids (so each pair's RANSAC seed, its id, is the one a
// single run would use) and the block's matches and geometries, but no features. A task
// killed mid-way resumes from its database like an unsharded run.
#pragma once

#include "sfm/database/scene_database.h"
#include "sfm/stages/reconstruction_options.h"
#include "sfm/stages/shard.h"
#include "sfm/stages/stage_summaries.h"

namespace proj {

// `extraction`: a whole extraction database (a merge of extraction shards, or one run's),
// whose image and camera ids are 1..n and 1..k (sfm merge-databases renumbers them so).
// `database`: the shard's, open read-write. Throws InputError for an extraction shard or a
// KLT database as `extraction`, ids with gaps, or a shard database made from another
// extraction database.
PairStageSummary RunMatchingShard(const ReconstructionOptions& options, const SceneDatabase& extraction,
                                  const Shard& shard, SceneDatabase* database);

}  // namespace proj
