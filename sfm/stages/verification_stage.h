// Stage 3 of the pipeline: geometric verification of the matched pairs that have no stored
// two-view geometry yet, in chunks of a bounded number of images (pair_chunks.h): each
// chunk's keypoints are loaded and converted once per image, its pairs verified on the CPU
// threads and the geometries (degenerate ones too, so they are not verified again) written in
// one transaction. Pair RANSAC is seeded by the pair's database id, so a pair gets the same
// geometry whichever run, chunk or thread verifies it.
#pragma once

#include <vector>

#include "matching/two_view_geometry.h"
#include "sfm/database/scene_database.h"
#include "sfm/stages/stage_options.h"

namespace proj {

StageOptions VerificationFingerprint(const TwoViewGeometryOptions& options);

struct VerificationSummary {
  int num_pairs = 0;     // matched pairs among the selected ones
  int num_verified = 0;  // verified in this run
  int num_reused = 0;    // geometry already in the database
};

// `pairs` are database image ids; pairs without stored matches are left out. `upstream`: the
// options of the matches and cameras verified (part of this stage's fingerprint). Images,
// cameras and keypoints are read from `features`, matches from and geometries to `database`
// (the same one, or a matching shard's).
VerificationSummary VerifyImagePairs(const TwoViewGeometryOptions& options, int num_threads,
                                     int max_chunk_images, const StageOptions& upstream,
                                     OptionChangePolicy policy, const std::vector<ImagePair>& pairs,
                                     const SceneDatabase& features, SceneDatabase* database);

}  // namespace proj
