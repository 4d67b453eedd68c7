#include "sfm/pipeline/matching_stage.h"

#include <map>
#include <set>

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
  std::map<int, int> position_of;
  std::vector<int> image_of_position;
  for (const ImagePair& pair : todo) {
    for (int id : {pair.image1, pair.image2}) {
      if (position_of.emplace(id, static_cast<int>(image_of_position.size())).second) {
        image_of_position.push_back(id);
      }
    }
  }
  std::vector<ImagePair> positions;
  for (const ImagePair& pair : todo) positions.push_back({position_of[pair.image1], position_of[pair.image2]});

  auto matcher = CreateDescriptorMatcher(options);
  summary.matcher_description = matcher->Description();
  ChunkCache<FeatureSet> cache([&](int position) {
    FeatureSet features;
    features.keypoints = database->ReadKeypoints(image_of_position[position]);
    features.descriptors = database->ReadDescriptors(image_of_position[position]);
    return features;
  });
  Progress progress("matching", static_cast<int>(todo.size()), "pairs");
  for (const PairChunk& chunk : ChunkPairs(positions, max_chunk_images)) {
    cache.Prepare(chunk.images);
    // The matcher sees the chunk's images as 0..k-1 (moved out of the cache and back).
    std::map<int, int> local_of;
    std::vector<FeatureSet> local;
    for (int position : chunk.images) {
      local_of[position] = static_cast<int>(local.size());
      local.push_back(std::move(cache.Mutable(position)));
    }
    std::vector<ImagePair> local_pairs;
    for (size_t p : chunk.pair_indices) {
      local_pairs.push_back({local_of[positions[p].image1], local_of[positions[p].image2]});
    }
    const auto matches = matcher->MatchPairs(local, local_pairs, &progress);
    for (size_t k = 0; k < chunk.images.size(); ++k) cache.Mutable(chunk.images[k]) = std::move(local[k]);

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
