// What the multi-device tests run: the extraction stage over a folder, then the matching
// stage over every pair of its images, with one extractor and one matcher per device (the
// stages' GPU decorators over them, the CPU implementations as the fallback), into a fresh
// database. Shared by the CPU tests with fake devices and the GPU tests.
#pragma once

#include <string>
#include <vector>

#include "features/gpu_fallback_extractor.h"
#include "matching/gpu_fallback_matcher.h"

namespace proj::testing {

struct ExtractAndMatchCounts {
  int num_images = 0;
  int num_pairs = 0;
  long long num_matches = 0;
};

// Runs both stages on the images of `images_dir` into `database_path` (created; must not
// exist): devices `devices` made by the factories, CpuSiftExtractor and CpuDescriptorMatcher
// (with `features`, `matching` on the CPU) as the fallback, images decoded on 4 threads,
// pairs in blocks of `chunk_images` images.
ExtractAndMatchCounts ExtractAndMatchAllPairs(const std::string& images_dir, const std::string& database_path,
                                              const std::vector<int>& devices,
                                              const GpuFallbackExtractor::DeviceFactory& make_extractor,
                                              const GpuFallbackMatcher::DeviceFactory& make_matcher,
                                              const FeatureOptions& features, const DescriptorMatchOptions& matching,
                                              int chunk_images);

}  // namespace proj::testing
