#include "sfm/pipeline/matching_stage.h"

#include <map>
#include <set>

#include "core/interrupt.h"
#include "core/logging.h"
#include "core/progress.h"
#include "sfm/pipeline/pair_chunks.h"

namespace proj {

StageOptions MatchingFingerprint(const DescriptorMatchOptions& options) {
  StageOptions fingerprint;
  fingerprint.Add("matching ratio", options.max_ratio)
      .Add("matching cross-check", options.cross_check ? "on" : "off")
      .Add("RootSIFT", options.root_sift ? "on" : "off");
  return fingerprint;
}

MatchingSummary MatchImagePairs(const DescriptorMatchOptions& options, int max_chunk_images,
                                const StageOptions& upstream, OptionChangePolicy policy,
                                const std::vector<ImagePair>& pairs, SceneDatabase* database) {
  options.Check();
  MatchingSummary summary;
  summary.num_pairs = static_cast<int>(pairs.size());
  {
    SceneDatabase::Transaction transaction(database);
    StageOptions fingerprint = MatchingFingerprint(options);
    fingerprint.Add(upstream);
    if (!ReconcileStageOptions(database, "matching", fingerprint, policy)) database->DeleteAllMatches();
    transaction.Commit();
  }

  // Pairs not matched yet, in positions 0..n-1 of the images they use (for chunking).
  std::set<int64_t> matched;
  for (int64_t id : database->ReadMatchedPairIds()) matched.insert(id);
  std::vector<ImagePair> todo;
  for (const ImagePair& pair : pairs) {
    if (!matched.count(PairIdFromImageIds(pair.image1, pair.image2))) todo.push_back(pair);
  }
  summary.num_reused = summary.num_pairs - static_cast<int>(todo.size());
  PROJ_LOG(kInfo, "matching: " << pairs.size() << " pairs, " << summary.num_reused
                               << " already in the database, " << todo.size() << " to match");
  if (todo.empty()) {
    summary.matcher_description = "none needed";
    return summary;
  }
  const PositionedPairs positioned = ToPositions(todo);
  auto matcher = CreateDescriptorMatcher(options);
  summary.matcher_description = matcher->Description();
  ChunkCache<FeatureSet> cache([&](int position) {
    FeatureSet features;
    features.keypoints = database->ReadKeypoints(positioned.image_of_position[position]);
    features.descriptors = database->ReadDescriptors(positioned.image_of_position[position]);
    return features;
  });
  Progress progress("matching", static_cast<int>(todo.size()), "pairs");
  for (const PairChunk& chunk : ChunkPairs(positioned.pairs, max_chunk_images)) {
    ThrowIfInterrupted();  // between blocks: every finished block is committed
    cache.Prepare(chunk.images);
    // The matcher sees the chunk's images as 0..k-1 (moved out of the cache and back).
    std::vector<FeatureSet> local = cache.Take(chunk);
    const auto matches = matcher->MatchPairs(local, ChunkLocalPairs(chunk, positioned.pairs), &progress);
    cache.Return(chunk, std::move(local));

    SceneDatabase::Transaction transaction(database);
    for (size_t k = 0; k < chunk.pair_indices.size(); ++k) {
      const ImagePair& pair = todo[chunk.pair_indices[k]];
      database->WriteMatches(pair.image1, pair.image2, matches[k]);
      summary.num_putative_matches += matches[k].size();
    }
    transaction.Commit();
    summary.num_matched += static_cast<int>(chunk.pair_indices.size());
  }
  summary.num_feature_loads = cache.num_loads();
  return summary;
}

}  // namespace proj
