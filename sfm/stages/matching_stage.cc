#include "sfm/stages/matching_stage.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "core/interrupt.h"
#include "core/logging.h"
#include "core/parallel_for.h"
#include "core/progress.h"
#include "sfm/stages/pair_chunks.h"

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
                                const std::vector<ImagePair>& pairs, const SceneDatabase& features,
                                SceneDatabase* database, DescriptorMatcher* matcher) {
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
  std::unique_ptr<DescriptorMatcher> created;
  if (matcher == nullptr) {
    created = CreateDescriptorMatcher(options);
    matcher = created.get();
  }
  summary.matcher_description = matcher->Description();
  const std::vector<PairChunk> chunks = ChunkPairs(positioned.pairs, max_chunk_images);
  std::mutex database_mutex;  // the databases and the summary, one thread at a time
  using SharedFeatures = std::shared_ptr<const FeatureSet>;
  // Matching reads the descriptors alone: decoding the keypoints would cost the loader,
  // which feeds every GPU, about a quarter of its time (0.25 of 1.05 ms per 4,000-feature
  // image on the 2-core development machine).
  ChunkCache<SharedFeatures> cache([&](int position) {
    auto loaded = std::make_shared<FeatureSet>();
    const int image = positioned.image_of_position[position];
    std::lock_guard<std::mutex> lock(database_mutex);
    loaded->descriptors = features.ReadDescriptors(image);
    return SharedFeatures(std::move(loaded));
  });
  // A chunk's features from when it is prepared until a worker has matched it (shared with
  // the cache, so consecutive chunks sharing a block hold it once).
  std::vector<std::vector<SharedFeatures>> prepared(chunks.size());
  Progress progress("matching", static_cast<int>(todo.size()), "pairs");
  const int workers = std::max(1, matcher->ConcurrentCalls());
  PipelinedFor(
      static_cast<int>(chunks.size()), workers, workers,
      [&](int c) {
        ThrowIfInterrupted();  // between blocks: every finished block is committed
        cache.Prepare(chunks[c].images);
        for (int image : chunks[c].images) prepared[c].push_back(cache.Get(image));
      },
      [&](int c, int) {
        ThrowIfInterrupted();
        std::vector<SharedFeatures> features = std::move(prepared[c]);
        FeatureSetViews views;  // the chunk's images as 0..k-1
        for (const SharedFeatures& f : features) views.push_back(f.get());
        const auto matches = matcher->MatchPairs(views, ChunkLocalPairs(chunks[c], positioned.pairs), &progress);
        features.clear();

        std::lock_guard<std::mutex> lock(database_mutex);
        SceneDatabase::Transaction transaction(database);
        for (size_t k = 0; k < chunks[c].pair_indices.size(); ++k) {
          const ImagePair& pair = todo[chunks[c].pair_indices[k]];
          database->WriteMatches(pair.image1, pair.image2, matches[k]);
          summary.num_putative_matches += matches[k].size();
        }
        transaction.Commit();
        summary.num_matched += static_cast<int>(chunks[c].pair_indices.size());
      });
  summary.num_feature_loads = cache.num_loads();
  return summary;
}

}  // namespace proj
