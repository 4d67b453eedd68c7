#include "tests/sfm/stages/extract_and_match.h"

#include <memory>

#include "features/sift/sift_cpu.h"
#include "io/image_folder.h"
#include "matching/cpu_descriptor_matcher.h"
#include "sfm/database/scene_database.h"
#include "sfm/stages/extraction_stage.h"
#include "sfm/stages/matching_stage.h"

namespace proj::testing {

ExtractAndMatchCounts ExtractAndMatchAllPairs(const std::string& images_dir, const std::string& database_path,
                                              const std::vector<int>& devices,
                                              const GpuFallbackExtractor::DeviceFactory& make_extractor,
                                              const GpuFallbackMatcher::DeviceFactory& make_matcher,
                                              const FeatureOptions& features, const DescriptorMatchOptions& matching,
                                              int chunk_images) {
  FeatureOptions cpu_features = features;
  cpu_features.device = ComputeDevice::kCpu;
  DescriptorMatchOptions cpu_matching = matching;
  cpu_matching.device = ComputeDevice::kCpu;
  GpuFallbackExtractor extractor(devices, make_extractor,
                                 [cpu_features] { return std::make_unique<CpuSiftExtractor>(cpu_features); });
  GpuFallbackMatcher matcher(devices, make_matcher,
                             [cpu_matching] { return std::make_unique<CpuDescriptorMatcher>(cpu_matching); });

  SceneDatabase database(database_path, SceneDatabase::Mode::kReadWrite);
  ExtractionOptions extraction;
  extraction.features = features;
  extraction.num_threads = 4;
  const ExtractionSummary extracted = ExtractFolder(extraction, CameraOptions{}, OptionChangePolicy::kStop,
                                                    ListImageFiles(images_dir), &database, &extractor);
  std::vector<ImagePair> pairs;
  for (size_t a = 0; a < extracted.image_ids.size(); ++a) {
    for (size_t b = a + 1; b < extracted.image_ids.size(); ++b) {
      pairs.push_back({extracted.image_ids[a], extracted.image_ids[b]});
    }
  }
  const MatchingSummary matched = MatchImagePairs(matching, chunk_images, StageOptions(),
                                                  OptionChangePolicy::kStop, pairs, database, &database, &matcher);
  return {extracted.num_extracted, matched.num_matched, matched.num_putative_matches};
}

}  // namespace proj::testing
