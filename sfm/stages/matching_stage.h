// Stage 2 of the pipeline: descriptor matching of the selected image pairs that the scene
// database does not hold yet. Pairs are worked in chunks of a bounded number of images
// (pair_chunks.h). The calling thread loads each chunk's features from the database in
// order while workers, one per GPU (one in all on the CPU), match the chunks loaded before:
// whichever worker is free takes the next chunk and writes its matches in one transaction
// as soon as they are done. A chunk's matches depend on the chunk alone, so the database
// holds the same matches whatever the number of GPUs and the order chunks finish in; a run
// killed at any moment keeps every chunk written before. Memory is bounded whatever the
// number of images: at most 2 x workers + 1 chunks' features (those matched, waiting and
// being loaded, images they share held once). A pair with no match is stored too (an empty
// list), so it is not matched again.
#pragma once

#include <string>
#include <vector>

#include "matching/descriptor_matcher.h"
#include "sfm/database/scene_database.h"
#include "sfm/stages/stage_options.h"

namespace proj {

StageOptions MatchingFingerprint(const DescriptorMatchOptions& options);

struct MatchingSummary {
  int num_pairs = 0;    // selected pairs
  int num_matched = 0;  // matched in this run
  int num_reused = 0;   // already in the database
  long long num_putative_matches = 0;  // of the pairs matched in this run
  long long num_feature_loads = 0;     // images read from the database (chunk cache misses)
  std::string matcher_description;
};

// `pairs` are database image ids. `upstream`: the options the features were computed with
// (their fingerprint is part of this stage's). max_chunk_images >= 2. Descriptors are read
// from `features`, matches written to `database` (the same one, or a matching shard's). `matcher`: null for
// CreateDescriptorMatcher(options) (tests give their own); as many workers as its
// ConcurrentCalls().
MatchingSummary MatchImagePairs(const DescriptorMatchOptions& options, int max_chunk_images,
                                const StageOptions& upstream, OptionChangePolicy policy,
                                const std::vector<ImagePair>& pairs, const SceneDatabase& features,
                                SceneDatabase* database, DescriptorMatcher* matcher = nullptr);

}  // namespace proj
